// The Open dialog's list of scenes (issue #15, item 15): every shipped scene says what it shows,
// and a file that is not a scene is listed with the reason instead of failing the list.
#include <gtest/gtest.h>

#include <fstream>

#include "scene_list.hpp"
#include "support/scratch_directory.hpp"

namespace tinkertoy::studio {
namespace {

TEST(SceneList, EveryShippedSceneHasANameAndADescription) {
  const std::vector<SceneEntry> scenes = listScenes(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes");
  ASSERT_GE(scenes.size(), 20u);
  for (std::size_t i = 0; i < scenes.size(); ++i) {
    EXPECT_FALSE(scenes[i].name.empty()) << scenes[i].file;
    EXPECT_GT(scenes[i].description.size(), 40u) << scenes[i].file;
    if (i > 0) {
      EXPECT_LT(scenes[i - 1].file, scenes[i].file) << "in name order";
    }
  }
}

TEST(SceneList, ListsWhatIsNotASceneWithTheReason) {
  const testing_support::ScratchDirectory scratch;
  std::ofstream(scratch.path() / "b.json") << R"({"name": "b", "description": "a scene"})";
  std::ofstream(scratch.path() / "a.json") << "[1, 2";
  std::ofstream(scratch.path() / "notes.txt") << "not listed";
  const std::vector<SceneEntry> scenes = listScenes(scratch.path());
  ASSERT_EQ(scenes.size(), 2u);
  EXPECT_EQ(scenes[0].file.filename(), "a.json");
  EXPECT_NE(scenes[0].description.find("not a scene"), std::string::npos) << scenes[0].description;
  EXPECT_EQ(scenes[1].name, "b");
  EXPECT_EQ(scenes[1].description, "a scene");
  EXPECT_TRUE(listScenes(scratch.path() / "missing").empty());
}

// What the Studio keeps as shipped (Ctrl+S on an example opens Save As instead of writing into
// scenes/): a file in the directory or below it, however the path is spelled.
TEST(SceneList, KnowsAFileInsideADirectoryHoweverItIsSpelled) {
  const std::filesystem::path scenes = std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes";
  EXPECT_TRUE(isInDirectory(scenes / "pendulum.json", scenes));
  EXPECT_TRUE(isInDirectory(scenes / "benchmarks" / ".." / "benchmarks" / "x.json", scenes));
  EXPECT_TRUE(isInDirectory(scenes / ".." / "scenes" / "new.json", scenes));
  EXPECT_FALSE(isInDirectory(scenes / ".." / "pendulum.json", scenes));
  EXPECT_FALSE(isInDirectory("/tmp/pendulum.json", scenes));
  EXPECT_FALSE(isInDirectory(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes-copy" / "a.json", scenes));
}

}  // namespace
}  // namespace tinkertoy::studio
