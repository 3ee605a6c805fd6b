// A formula error's formula and caret are drawn monospaced, so the caret stands under the
// character the library names (it pointed elsewhere in the proportional font); the rest of a
// message stays in the panels' font.
#include <gtest/gtest.h>

#include "message_lines.hpp"
#include "tinkertoy/formula/formula.hpp"

namespace tinkertoy::studio {
namespace {

TEST(MessageLines, AFormulasTextAndCaretAreCode) {
  std::string message;
  try {
    const std::vector<std::string> variables{"x", "y"};
    Formula("x*x + wy - 1", variables, {});
    FAIL() << "an unknown name must be refused";
  } catch (const FormulaError& e) {
    message = std::string("constraints[2].C: ") + e.what();
  }
  const std::vector<MessageLine> lines = messageLines(message);
  ASSERT_EQ(lines.size(), 3u) << message;
  EXPECT_FALSE(lines[0].code);
  EXPECT_TRUE(lines[1].code);
  EXPECT_TRUE(lines[2].code);
  // In a monospaced font the caret's column is the character's: the 'w' of "wy".
  const std::size_t formula = lines[1].text.find("x*x");
  EXPECT_EQ(lines[2].text.size() - 1 - formula, std::string("x*x + ").size()) << lines[1].text << "\n" << lines[2].text;
}

TEST(MessageLines, AMessageWithoutACaretHasNoCode) {
  for (const MessageLine& line : messageLines("cannot open the scene:\n  a ^ b is fine\n^ too")) EXPECT_FALSE(line.code);
  EXPECT_EQ(messageLines("one line").size(), 1u);
  EXPECT_TRUE(isCaretLine("   ^"));
  EXPECT_FALSE(isCaretLine("   ^ "));
  EXPECT_FALSE(isCaretLine("    "));
}

}  // namespace
}  // namespace tinkertoy::studio
