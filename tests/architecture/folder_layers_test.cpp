// Folders are layers (issue #37): the library's folders (include/tinkertoy/X and src/X) form a
// graph without cycles, and each folder includes only the folders it sits on. The table below is
// the picture docs/architecture.md draws ("Layers"); a new edge is a decision, made here.
//
// The test reads every header and source of the library, finds its includes of another folder
// ("tinkertoy/X/…" or the library-private "X/…"), and fails on an edge the table does not allow,
// naming the file and the include. It also checks that the table itself has no cycle and that it
// places every folder there is.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace tinkertoy {
namespace {

namespace fs = std::filesystem;

// Each folder and the folders directly beneath it; it may include those and whatever they sit on.
const std::map<std::string, std::set<std::string>>& sitsOn() {
  static const std::map<std::string, std::set<std::string>> table = {
      {"common", {}},
      {"math", {}},
      {"archive", {"common"}},
      {"core", {"math"}},  // points, handles, bodies, state views, work sources
      {"formula", {"core", "common"}},
      {"curves", {"formula"}},
      {"constraints", {"curves"}},
      {"forces", {"constraints"}},
      {"model", {"forces"}},
      {"integrators", {"core", "archive"}},
      {"solvers", {"math", "archive", "common"}},  // linear algebra on matrices, nothing of the model
      {"dynamics", {"model", "integrators", "solvers"}},
      {"scene", {"dynamics"}},
      {"view", {"dynamics"}},
  };
  return table;
}

// Everything `folder` may include: the closure of sitsOn.
std::set<std::string> reachable(const std::string& folder) {
  std::set<std::string> seen;
  std::function<void(const std::string&)> visit = [&](const std::string& f) {
    for (const std::string& below : sitsOn().at(f)) {
      if (seen.insert(below).second) visit(below);
    }
  };
  visit(folder);
  return seen;
}

struct Include {
  fs::path file;
  std::string folder;  // the folder the file is in
  std::string target;  // the folder it includes
  std::string line;
};

std::vector<Include> libraryIncludes() {
  const fs::path source(TINKERTOY_SOURCE_DIR);
  const std::regex include(R"(^\s*#\s*include\s*[<"](?:tinkertoy/)?([a-z_]+)/[^">]+[">])");
  std::vector<Include> found;
  for (const fs::path& root : {source / "include" / "tinkertoy", source / "src"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (!entry.is_regular_file()) continue;
      const fs::path relative = fs::relative(entry.path(), root);
      if (relative.begin() == relative.end() || std::next(relative.begin()) == relative.end()) continue;  // top level
      const std::string folder = relative.begin()->string();
      std::ifstream in(entry.path());
      std::string line;
      std::smatch match;
      while (std::getline(in, line)) {
        if (std::regex_search(line, match, include) && match[1] != folder && sitsOn().contains(match[1])) {
          found.push_back({entry.path(), folder, match[1], line});
        }
      }
    }
  }
  return found;
}

TEST(FolderLayers, EveryIncludeOfAnotherFolderGoesDown) {
  const std::vector<Include> includes = libraryIncludes();
  ASSERT_GT(includes.size(), 100u) << "the library's includes were not found";
  for (const Include& i : includes) {
    ASSERT_TRUE(sitsOn().contains(i.folder)) << i.file << ": folder '" << i.folder << "' has no place in the layers";
    EXPECT_TRUE(reachable(i.folder).contains(i.target))
        << i.file << " (" << i.folder << ") includes " << i.target << ", which does not sit beneath it: " << i.line;
  }
}

TEST(FolderLayers, TheTableHasNoCycle) {
  for (const auto& [folder, below] : sitsOn()) {
    EXPECT_FALSE(reachable(folder).contains(folder)) << folder << " sits on itself through a cycle";
    for (const std::string& b : below) EXPECT_TRUE(sitsOn().contains(b)) << folder << " sits on unknown " << b;
  }
}

TEST(FolderLayers, TheTablePlacesEveryFolder) {
  const fs::path source(TINKERTOY_SOURCE_DIR);
  for (const fs::path& root : {source / "include" / "tinkertoy", source / "src"}) {
    for (const auto& entry : fs::directory_iterator(root)) {
      if (entry.is_directory()) {
        EXPECT_TRUE(sitsOn().contains(entry.path().filename().string())) << entry.path() << " has no layer";
      }
    }
  }
}

// The test's own check: an include that goes up is refused (today's tree once had
// constraints → dynamics for one enum).
TEST(FolderLayers, AnIncludeUpwardsIsRefused) {
  EXPECT_FALSE(reachable("constraints").contains("dynamics"));
  EXPECT_FALSE(reachable("solvers").contains("dynamics"));
  EXPECT_FALSE(reachable("curves").contains("model"));
  EXPECT_FALSE(reachable("forces").contains("model"));
  EXPECT_TRUE(reachable("dynamics").contains("core"));
}

}  // namespace
}  // namespace tinkertoy
