// What the messages say (issue #34, "messages" and "wrong exit codes"): a formula not defined at a
// scene's start is refused at its JSON path, by check too (exit 2, not an internal error); a
// singular J W Jᵀ is named by its cause; quoted text stays whole, valid UTF-8; a type takes the
// article its name needs.
#include <gtest/gtest.h>

#include <sstream>

#include "cli_fixture.hpp"
#include "common/article.hpp"
#include "common/utf8.hpp"
#include "printable_stream.hpp"
#include "tinkertoy/tinkertoy.hpp"

namespace tinkertoy {
namespace {

bool validUtf8(const std::string& text) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = detail::utf8SequenceLength(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

// A formula undefined at the scene's initial state: refused at its row's JSON path.
TEST(Messages, AFormulaUndefinedAtTheStartIsRefusedAtItsJsonPath) {
  const std::pair<std::string, std::string> cases[] = {
      {R"j("constraints": [{"type": "distance", "a": "p", "b": [0, 0]},
                          {"type": "formula", "points": {"p": "p"}, "C": "sqrt(xp - 2)"}])j",
       "constraints[1].C"},
      {R"j("constraints": [{"type": "formula", "points": {"p": "p"}, "C": ["yp", "log(xp - 1)"]}])j", "constraints[0].C[1]"},
      {R"j("forces": [{"type": "formula_potential", "points": {"p": "p"}, "V": "1/(xp - 1)"}])j", "forces[0].V"},
  };
  for (const auto& [part, path] : cases) {
    const std::string json = R"j({"particles": [{"id": "p", "mass": 1, "position": [1, 0]}], )j" + part + "}";
    try {
      (void)parseScene(json, "undefined.json");
      ADD_FAILURE() << part;
    } catch (const SceneError& e) {
      EXPECT_EQ(e.path(), path) << e.what();
      EXPECT_NE(std::string(e.what()).find("not defined there"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("at the scene's initial state"), std::string::npos) << e.what();
    }
  }
}

// A singular J W Jᵀ in the words of its cause, the regularization mentioned only where it is off.
TEST(Messages, ASingularSystemIsNamedByItsCause) {
  const auto firstError = [](const std::string& json) -> std::string {
    Scene scene = parseScene(json);
    Simulator sim(scene.model, scene.settings);
    try {
      for (int i = 0; i < 10; ++i) sim.step();
    } catch (const SimulationError& e) {
      return e.what();
    }
    return "";
  };
  const std::string redundant = firstError(R"j({"particles": [{"id": "p", "mass": 1, "position": [1, 0]}],
      "constraints": [{"type": "distance", "a": "p", "b": [0, 0]}, {"type": "distance", "a": "p", "b": [0, 0]}],
      "settings": {"solver": "ldlt", "regularization": 0}})j");
  EXPECT_NE(redundant.find("J W Jᵀ is singular: constraint row 1 (constraints[1]) is redundant with others (the default "
                           "damping, a regularization above 0, solves it)"),
            std::string::npos)
      << redundant;
  const std::string noGradient = firstError(R"j({"particles": [{"id": "p", "mass": 1, "position": [0, 0]}],
      "constraints": [{"type": "formula", "points": {"p": "p"}, "C": "xp^2 + yp^2"}], "settings": {"solver": "ldlt"}})j");
  EXPECT_NE(noGradient.find("constraint row 0 (constraints[0]) has no gradient at this state"), std::string::npos)
      << noGradient;
  EXPECT_EQ(noGradient.find("regularization"), std::string::npos) << noGradient;
}

// Formula messages quote whole characters: a minus sign U+2212 is "−" (with the ASCII to write),
// a byte that is not UTF-8 is "\xff", and the caret sits under the character.
TEST(Messages, FormulaErrorsQuoteWholeCharactersAndStayValidUtf8) {
  const std::vector<std::string> variables = {"x"};
  try {
    Formula("x \u2212 1", variables);
    FAIL();
  } catch (const FormulaError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(validUtf8(what)) << what;
    EXPECT_NE(what.find("unexpected '\u2212' (write '-') after a complete formula"), std::string::npos) << what;
    EXPECT_NE(what.find("\n  x \u2212 1\n    ^"), std::string::npos) << what;
  }
  try {
    Formula("λ + \xff", variables);
    FAIL();
  } catch (const FormulaError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(validUtf8(what)) << what;
  }
  try {
    Formula("x + \xff", variables);
    FAIL();
  } catch (const FormulaError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(validUtf8(what)) << what;
    EXPECT_NE(what.find("unexpected '\\xff'"), std::string::npos) << what;
  }
  try {  // a long formula is quoted to 40 bytes, not cutting a character in two
    Formula("x" + std::string(38, ' ') + "\u2212" + std::string(20'000, ' '), variables);
    FAIL();
  } catch (const FormulaError& e) {
    EXPECT_TRUE(validUtf8(e.what())) << e.what();
  }
}

TEST(Messages, TextIsMadeValidUtf8ByteByByte) {
  EXPECT_EQ(detail::printableUtf8("a\xff" "b\u2212"), "a\\xffb\u2212");
  EXPECT_EQ(detail::printableUtf8("\xe2\x88"), "\\xe2\\x88");  // a sequence cut short
  EXPECT_EQ(detail::printableUtf8("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(detail::printableUtf8("\xc0\xaf"), "\\xc0\\xaf");  // an overlong '/'
  EXPECT_EQ(detail::utf8ColumnOf("λx", 2), 1u);
  EXPECT_EQ(detail::withArticle("angle"), "an angle");
  EXPECT_EQ(detail::withArticle("revolute"), "a revolute");
  EXPECT_EQ(detail::withArticle("ellipse"), "an ellipse");
}

// The command line writes valid UTF-8 whatever it quotes: its stream escapes what is not.
TEST(Messages, TheCommandLinesStreamsWriteOnlyValidUtf8) {
  std::ostringstream target;
  {
    cli::PrintableStreambuf printable(target.rdbuf());
    std::ostream out(&printable);
    out << "ok λ ‖ \xff \xe2\x88 x \xe2\x88\x92 \x1b[2J \xf0\x9f\x99\x82 end\xe2";
  }
  EXPECT_EQ(target.str(), "ok λ ‖ \\xff \\xe2\\x88 x \u2212 \\x1b[2J \U0001F642 end\\xe2");
  EXPECT_TRUE(validUtf8(target.str()));
}

TEST(Messages, ATypesNameTakesItsArticle) {
  try {
    (void)parseScene(R"j({"bodies": [{"id": "w", "type": "rigid", "mass": 1, "position": [0, 0],
                                     "shape": {"type": "circle", "radius": 0.1}}],
        "constraints": [{"type": "angle", "a": "w", "b": "w"}], "settings": {"formulation": "velocity"}})j");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("an angle joint cannot join a point to itself"), std::string::npos) << e.what();
  }
}

}  // namespace

namespace cli {
namespace {

// check on a scene whose formula is undefined at the start: exit 2 with the JSON path, as run.
TEST_F(Cli, CheckAndRunRefuseAFormulaUndefinedAtTheStartWithItsPath) {
  const std::string scene = writeScene("undefined.json", R"j({"particles": [{"id": "p", "mass": 1, "position": [1, 0]}],
      "constraints": [{"type": "formula", "points": {"p": "p"}, "C": ["xp - 1", "sqrt(xp - 2)"], "kind": "inequality"}],
      "settings": {"formulation": "velocity"}})j");
  for (const char* command : {"check", "run"}) {
    const Result r = tinkertoy({command, scene});
    EXPECT_EQ(r.code, kBadInput) << command << ": " << r.err;
    EXPECT_NE(r.err.find("undefined.json: constraints[0].C[1]: the formula \"sqrt(xp - 2)\""), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  }
  const Result sweep = tinkertoy({"sweep", kScenes + "pendulum.json", "--set", "particles[0].mass=1\xff", "-o",
                                  file("out.csv")});
  EXPECT_TRUE(validUtf8(sweep.err)) << sweep.err;
}

}  // namespace
}  // namespace cli
}  // namespace tinkertoy
