// A key given twice in one object (issue #16, class 7): JSON parsers keep the last without a
// word; the loader refuses it with the field's path and both places.
#include <gtest/gtest.h>

#include "scene/duplicate_keys.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

TEST(DuplicateKeys, FindsTheSecondOfTwoEqualKeysInOneObject) {
  using scene::findDuplicateKey;
  EXPECT_FALSE(findDuplicateKey(R"({"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 2}]})"))
      << "the same key in different objects";
  EXPECT_FALSE(findDuplicateKey(R"({"a": "\"a\": 1", "b": ["a", "a"]})")) << "keys inside strings, values";

  const std::string text = R"({"bodies": [{}, {"shape": {"size": [1, 2], "size": [3, 4]}}]})";
  const auto twice = findDuplicateKey(text);
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->path, "bodies[1].shape.size");
  EXPECT_EQ(text.substr(twice->first, 6), "\"size\"");
  EXPECT_EQ(twice->second, text.rfind("\"size\""));

  const auto escaped = findDuplicateKey(R"({"mass": 1, "m\u0061ss": 2})");
  ASSERT_TRUE(escaped) << "keys compare as the strings they decode to";
  EXPECT_EQ(escaped->path, "mass");
}

TEST(DuplicateKeys, TheLoaderRefusesThemNamingBothPlaces) {
  try {
    (void)parseScene("{\"particles\": [{\"id\": \"a\", \"mass\": 1,\n \"position\": [0, 0], \"mass\": 2}]}", "twice.json");
    FAIL() << "a duplicate key was accepted";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.path(), "particles[0].mass");
    EXPECT_NE(std::string(e.what()).find("twice.json: particles[0].mass: appears twice in one object, at line 1, column 28 "
                                         "and at line 2, column 22"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tinkertoy
