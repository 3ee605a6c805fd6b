// References to the documents resolve (issue #37). Code refers to docs/theory.md and
// docs/architecture.md by heading, `docs/theory.md, "The work ledger"`, never by a section number,
// which moves when a section is added; a heading that is renamed or removed fails here, naming
// the file and line that refers to it. Markdown links between the documents (`theory.md#anchor`,
// `../src/…`) must name a file that exists and, with an anchor, one of its headings. Nothing
// cites a design document that is not in the repository.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace tinkertoy {
namespace {

namespace fs = std::filesystem;

const fs::path kSource(TINKERTOY_SOURCE_DIR);

std::vector<std::string> linesOf(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A heading's title without its number: "## 12. Rigid bodies" → "Rigid bodies".
std::string title(const std::string& heading) {
  static const std::regex numbered(R"(^#+\s+(?:[0-9]+\.\s+)?(.*?)\s*$)");
  std::smatch match;
  return std::regex_match(heading, match, numbered) ? match[1].str() : std::string();
}

// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
std::string anchor(const std::string& heading) {
  const std::string text = std::regex_replace(heading, std::regex(R"(^#+\s+)"), "");
  std::string slug;
  for (const unsigned char c : text) {
    if (c >= 0x80 || std::isalnum(c) || c == '-' || c == '_') slug += static_cast<char>(std::tolower(c));
    else if (c == ' ') slug += '-';
  }
  return slug;
}

struct Headings {
  std::set<std::string> titles;
  std::set<std::string> anchors;
};

Headings headingsOf(const fs::path& document) {
  Headings h;
  bool fenced = false;
  for (const std::string& line : linesOf(document)) {
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    if (fenced || line.empty() || line[0] != '#') continue;
    h.titles.insert(title(line));
    h.anchors.insert(anchor(line));
  }
  return h;
}

const std::map<std::string, Headings>& documents() {
  static const std::map<std::string, Headings> docs = {
      {"theory.md", headingsOf(kSource / "docs" / "theory.md")},
      {"architecture.md", headingsOf(kSource / "docs" / "architecture.md")},
  };
  return docs;
}

bool isCode(const fs::path& file) {
  static const std::set<std::string> extensions = {".hpp", ".cpp", ".h", ".c", ".py", ".sh", ".txt", ".cmake"};
  return extensions.contains(file.extension().string()) || file.filename() == "Makefile";
}

std::vector<fs::path> codeFiles() {
  std::vector<fs::path> files;
  for (const char* root : {"include", "src", "apps", "python", "tests", "bench", "fuzz", "scripts"}) {
    for (const auto& entry : fs::recursive_directory_iterator(kSource / root)) {
      if (entry.is_regular_file() && isCode(entry.path())) files.push_back(entry.path());
    }
  }
  files.push_back(kSource / "Makefile");
  files.push_back(kSource / "CMakeLists.txt");
  return files;
}

// The problems with one line's references to the documents.
std::vector<std::string> problems(const std::string& line) {
  std::vector<std::string> found;
  static const std::regex mention(R"((theory|architecture)\.md(\s*§|,\s*\\?"([^"\\]*)\\?"|#([A-Za-z0-9_\-]+))?)");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), mention); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    const Headings& doc = documents().at(m[1].str() + ".md");
    const std::string what = m[2].str();
    if (what.find("§") != std::string::npos) {
      found.push_back("refers to " + m[1].str() + ".md by a section number; name the heading instead");
    } else if (m[3].matched && !doc.titles.contains(m[3].str())) {
      found.push_back("names \"" + m[3].str() + "\", which is not a heading of " + m[1].str() + ".md");
    } else if (m[4].matched && !doc.anchors.contains(m[4].str())) {
      found.push_back("links #" + m[4].str() + ", which is no heading's anchor in " + m[1].str() + ".md");
    }
  }
  if (line.find("DESIGN §") != std::string::npos || line.find("DESIGN.md") != std::string::npos) {
    found.push_back("cites a design document that is not in the repository");
  }
  return found;
}

// A comment line that ends in `theory.md,` continues its reference on the next line: the two as
// one, with the next line's comment marker dropped.
std::string withContinuation(const std::vector<std::string>& lines, std::size_t i) {
  static const std::regex dangling(R"((theory|architecture)\.md,\s*$)");
  static const std::regex marker(R"(^\s*(//+|#+|\*+)?\s*)");
  if (i + 1 >= lines.size() || !std::regex_search(lines[i], dangling)) return lines[i];
  return lines[i] + " " + std::regex_replace(lines[i + 1], marker, "", std::regex_constants::format_first_only);
}

TEST(DocReferences, CodeNamesHeadingsThatExist) {
  static const std::regex headless(R"((theory|architecture)\.md,(?!\s*[\\"]))");
  int references = 0;
  for (const fs::path& file : codeFiles()) {
    if (file.filename() == "doc_references_test.cpp") continue;  // this file's own examples
    const std::vector<std::string> lines = linesOf(file);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string line = withContinuation(lines, i);
      if (line.find(".md") != std::string::npos) references += line.find("theory.md") != std::string::npos;
      for (const std::string& p : problems(line)) ADD_FAILURE() << file << ":" << i + 1 << " " << p;
      if (std::regex_search(line, headless)) {
        ADD_FAILURE() << file << ":" << i + 1 << " refers to a document with a comma but no heading after it";
      }
    }
  }
  EXPECT_GT(references, 30) << "the code's references to docs/theory.md were not found";
}

// Markdown links from the documents: the file exists, and an anchor is one of its headings.
TEST(DocReferences, LinksBetweenDocumentsResolve) {
  std::vector<fs::path> markdown = {kSource / "README.md"};
  for (const auto& entry : fs::directory_iterator(kSource / "docs")) {
    if (entry.path().extension() == ".md") markdown.push_back(entry.path());
  }
  static const std::regex link(R"(\]\(([^)#\s]*)(?:#([^)\s]+))?\))");
  for (const fs::path& file : markdown) {
    const std::vector<std::string> lines = linesOf(file);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string& line = lines[i];
      for (auto it = std::sregex_iterator(line.begin(), line.end(), link); it != std::sregex_iterator(); ++it) {
        const std::string target = (*it)[1].str();
        if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
        const fs::path resolved = target.empty() ? file : file.parent_path() / target;
        EXPECT_TRUE(fs::exists(resolved)) << file << ":" << i + 1 << " links " << target << ", which does not exist";
        if ((*it)[2].matched && resolved.extension() == ".md" && fs::exists(resolved)) {
          EXPECT_TRUE(headingsOf(resolved).anchors.contains((*it)[2].str()))
              << file << ":" << i + 1 << " links #" << (*it)[2].str() << ", which is no heading of " << target;
        }
      }
      if (file.filename() != "theory.md") {
        for (const std::string& p : problems(line)) ADD_FAILURE() << file << ":" << i + 1 << " " << p;
      }
    }
  }
}

// The checks themselves: a section number, a missing heading and a missing anchor are found.
TEST(DocReferences, TheCheckFindsABadReference) {
  EXPECT_EQ(problems("(docs/theory.md §12)").size(), 1u);
  EXPECT_EQ(problems(R"((docs/theory.md, "No such heading"))").size(), 1u);
  EXPECT_EQ(problems("[x](theory.md#no-such-anchor)").size(), 1u);
  EXPECT_EQ(problems("(DESIGN §3)").size(), 1u);
  EXPECT_TRUE(problems(R"((docs/theory.md, "The work ledger"))").empty());
  EXPECT_TRUE(problems(R"((docs/architecture.md, "Layers"))").empty());
}

}  // namespace
}  // namespace tinkertoy
