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
      {"core", {"math", "common"}},  // points, handles, bodies and their settings, shapes, state views, work sources
      {"collision", {"core"}},  // contact manifolds of convex shapes
      {"formula", {"core", "common"}},
      {"curves", {"formula"}},
      {"constraints", {"curves"}},
      {"forces", {"constraints"}},
      {"model", {"forces"}},
      {"integrators", {"core", "archive"}},
      {"solvers", {"math", "archive", "common"}},  // linear algebra on matrices, nothing of the model
      {"dynamics", {"model", "integrators", "solvers", "collision"}},
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

// The library folder an #include line names ("tinkertoy/dynamics/x.hpp", "dynamics/x.hpp",
// "../dynamics/x.hpp"), or "" for a standard or third-party header or a file in the same folder.
std::string includedFolder(const std::string& line) {
  static const std::regex include(R"(^\s*#\s*include\s*[<"](?:\.\./)*(?:tinkertoy/)?([a-z_]+)/[^">]+[">])");
  std::smatch match;
  if (!std::regex_search(line, match, include) || !sitsOn().contains(match[1])) return "";
  return match[1];
}

// Why an include breaks the layers, or "" if it does not.
std::string problem(const Include& i) {
  if (!sitsOn().contains(i.folder)) return "folder '" + i.folder + "' has no place in the layers";
  if (i.target == "tinkertoy.hpp") return "includes the umbrella header tinkertoy.hpp, which includes every layer";
  if (i.target != i.folder && !reachable(i.folder).contains(i.target)) {
    return "(" + i.folder + ") includes " + i.target + ", which does not sit beneath it: " + i.line;
  }
  return "";
}

std::vector<Include> libraryIncludes() {
  const fs::path source(TINKERTOY_SOURCE_DIR);
  std::vector<Include> found;
  for (const fs::path& root : {source / "include" / "tinkertoy", source / "src"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (!entry.is_regular_file()) continue;
      const fs::path relative = fs::relative(entry.path(), root);
      if (relative.begin() == relative.end() || std::next(relative.begin()) == relative.end()) continue;  // top level
      const std::string folder = relative.begin()->string();
      std::ifstream in(entry.path());
      for (std::string line; std::getline(in, line);) {
        std::string target = includedFolder(line);
        if (line.find("tinkertoy/tinkertoy.hpp") != std::string::npos) target = "tinkertoy.hpp";
        if (!target.empty() && target != folder) found.push_back({entry.path(), folder, target, line});
      }
    }
  }
  return found;
}

TEST(FolderLayers, EveryIncludeOfAnotherFolderGoesDown) {
  const std::vector<Include> includes = libraryIncludes();
  ASSERT_GT(includes.size(), 100u) << "the library's includes were not found";
  for (const Include& i : includes) EXPECT_EQ(problem(i), "") << i.file;
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

// The checker itself: every spelling of an include is read, and one that goes up (the tree once
// had constraints → dynamics for one enum) or takes the umbrella header is refused.
TEST(FolderLayers, TheCheckerRefusesAnIncludeUpwards) {
  EXPECT_EQ(includedFolder("#include \"tinkertoy/dynamics/work_ledger.hpp\""), "dynamics");
  EXPECT_EQ(includedFolder("#include \"dynamics/sequential_kernel.hpp\""), "dynamics");
  EXPECT_EQ(includedFolder("  #  include \"../../dynamics/simulator.hpp\""), "dynamics");
  EXPECT_EQ(includedFolder("#include <Eigen/Core>"), "");
  EXPECT_EQ(includedFolder("#include \"impulse_update.hpp\""), "");
  const auto line = [](const std::string& folder, const std::string& target) {
    return Include{"x.hpp", folder, target, "#include \"" + target + "/x.hpp\""};
  };
  EXPECT_NE(problem(line("constraints", "dynamics")), "");
  EXPECT_NE(problem(line("solvers", "dynamics")), "");
  EXPECT_NE(problem(line("curves", "model")), "");
  EXPECT_NE(problem(line("core", "tinkertoy.hpp")), "");
  EXPECT_NE(problem(line("nowhere", "core")), "");
  EXPECT_EQ(problem(line("dynamics", "core")), "");
  EXPECT_EQ(problem(line("forces", "formula")), "");
}

}  // namespace
}  // namespace tinkertoy
