// The browser build orders a matrix as the desktop does: tests/web/ordering_probe.cpp's three
// orderings, natively and in node, line for line. (With musl's rand() in place of glibc's, METIS's
// and nested dissection's permutations came out otherwise, with more fill.) Skipped, saying so,
// without a web build.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace {

std::string output(const std::string& command) {
  std::string text;
  const std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::array<char, 256> buffer{};
  while (pipe && std::fgets(buffer.data(), buffer.size(), pipe.get())) text += buffer.data();
  return text;
}

TEST(WebOrdering, TheBrowserBuildOrdersAsTheNativeOneDoes) {
  const std::filesystem::path js = std::filesystem::path(TINKERTOY_SOURCE_DIR) / "build/web/ordering-probe.js";
  if (!std::filesystem::exists(js)) GTEST_SKIP() << "no browser build: `make web` makes " << js;
  const std::string native = output(TINKERTOY_ORDERING_PROBE);
  ASSERT_NE(native.find("metis: "), std::string::npos) << native;
  EXPECT_EQ(output("node --no-experimental-fetch " + js.string()), native);
}

}  // namespace
