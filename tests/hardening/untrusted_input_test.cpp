// Every pass over untrusted input is linear and checks what it can before it reads the rest
// (issue #34, "work that is not linear in the input"): 10⁵-deep nesting and endless files, fed to
// each reader: scene text and scene files, formula text, a sweep's --set values, state files.
// These assert what is refused and how, not how fast (no test times anything): a reader that
// looked at the whole input first would still pass them, but one that crashed, hung or took
// memory without bound would not finish.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_fixture.hpp"
#include "time_series.hpp"
#include "scene/duplicate_keys.hpp"
#include "scene/json_text_check.hpp"
#include "tinkertoy/tinkertoy.hpp"

namespace tinkertoy {
namespace {

std::string nested(std::size_t depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

// Scene text: nesting deeper than kMaxJsonDepth is refused before the parser, naming where.
TEST(UntrustedInput, DeepNestingInSceneTextIsRefusedBeforeParsing) {
  for (const std::string& text : {nested(100'000), nested(100'000, '{', '}'),
                                  R"({"particles": )" + nested(100'000) + "}",
                                  "{\"name\": \"" + std::string(100'000, '[') + "\"}" /* inside a string: fine */}) {
    try {
      (void)parseScene(text, "deep.json");
      EXPECT_NE(text.find("\"name\""), std::string::npos) << "accepted nesting";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find("nested more than 64 deep at line 1, column"), std::string::npos) << e.what();
    }
  }
  // At the limit it is the scene format, not the nesting, that refuses the text.
  try {
    (void)parseScene(R"({"particles": )" + nested(60) + "}", "deep.json");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()).find("nested"), std::string::npos) << e.what();
  }
}

// The duplicate-key pass names the path of a key repeated deep down, building it only then.
TEST(UntrustedInput, DuplicateKeysDeepDownAreNamedByTheirPath) {
  std::string text;
  for (int k = 0; k < 40; ++k) text += "{\"a\": [";
  text += R"({"m": 1, "m": 2})";
  for (int k = 0; k < 40; ++k) text += "]}";
  const auto twice = scene::findDuplicateKey(text);
  ASSERT_TRUE(twice.has_value());
  std::string path = "a[0]";
  for (int k = 1; k < 40; ++k) path += ".a[0]";
  EXPECT_EQ(twice->path, path + ".m");
  // And through the loader, which checks the nesting first.
  try {
    (void)parseScene(R"({"settings": {"dt": 0.1, "dt": 0.2}})");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.path(), "settings.dt");
  }
}

// The text check works piece by piece: a problem is found in the piece that holds it, with its
// line and column counted over all the pieces, and strings with brackets or escaped quotes are
// skipped whole.
TEST(UntrustedInput, TheTextCheckFollowsPiecesAndStrings) {
  scene::JsonTextCheck check;
  EXPECT_EQ(check.feed("{\"a\": \"[[[\\\"[[\",\n"), "");
  EXPECT_EQ(check.feed(" \"λ\": "), "");
  const std::string problem = check.feed(std::string("1") + '\0');
  EXPECT_EQ(problem, "a NUL byte at line 2, column 8: a scene is JSON text");  // λ is one column
  EXPECT_EQ(check.feed("{}"), problem);  // it stays refused
}

// Scene files: an endless file is refused at its first bad byte, without reading on.
TEST(UntrustedInput, EndlessAndDeepSceneFilesAreRefusedEarly) {
  testing_support::ScratchDirectory scratch;
  const std::filesystem::path deep = scratch.path() / "deep.json";
  std::ofstream(deep) << std::string(100'000, '[');
  for (const auto& [file, says] : {std::pair{std::string("/dev/zero"), "a NUL byte at line 1, column 1"},
                                   std::pair{deep.string(), "arrays and objects nested more than 64 deep at line 1, column 65"}}) {
    try {
      (void)loadScene(file);
      ADD_FAILURE() << file;
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find(file + ": " + says), std::string::npos) << e.what();
    }
  }
}

// Formula text: a 10⁵-character formula is refused by its length, a 5 000-deep one by its depth,
// both with a caret; neither recurses 10⁵ deep.
TEST(UntrustedInput, DeepAndLongFormulasAreRefused) {
  const std::vector<std::string> variables = {"x"};
  try {
    Formula(std::string(100'000, '(') + "x" + std::string(100'000, ')'), variables);
    FAIL();
  } catch (const FormulaError& e) {
    EXPECT_NE(std::string(e.what()).find("longer than 10000 characters"), std::string::npos) << e.what();
  }
  try {
    Formula(std::string(4'000, '(') + "x" + std::string(4'000, ')'), variables);
    FAIL();
  } catch (const FormulaError& e) {
    EXPECT_NE(std::string(e.what()).find("deep"), std::string::npos) << e.what();
  }
  try {
    Formula(std::string(4'000, '-') + "x", variables);
    FAIL();
  } catch (const FormulaError& e) {
    EXPECT_NE(std::string(e.what()).find("deep"), std::string::npos) << e.what();
  }
}

// State files: /dev/zero is refused by its signature, a header announcing more than a state
// file may hold by that, and bytes past the announced length without reading them all.
TEST(UntrustedInput, EndlessAndOversizedStateFilesAreRefusedByTheirHeader) {
  Model model(2);
  model.addParticle(1.0, Eigen::Vector2d(1, 0));
  Simulator simulator(model);
  const std::string good = simulator.saveState();
  testing_support::ScratchDirectory scratch;
  const auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(scratch.path() / name, std::ios::binary) << bytes;
    return scratch.path() / name;
  };
  std::string huge = good.substr(0, 32);
  for (int k = 16; k < 24; ++k) huge[static_cast<std::size_t>(k)] = '\x7f';  // announces ~9e18 bytes
  const std::string trailing = good + std::string(3 << 20, 'x');  // 3 MiB past the end
  const std::pair<std::filesystem::path, std::string> cases[] = {
      {"/dev/zero", "not a Tinkertoy state file: it does not begin with the signature TTSTATE"},
      {write("huge.state", huge + std::string(100, 'x')), "more than the limit of 2048 MiB"},
      {write("trailing.state", trailing), "the state file has bytes after its end"},
  };
  for (const auto& [file, says] : cases) {
    try {
      (void)readStateFile(file);
      ADD_FAILURE() << file;
    } catch (const StateError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(readStateFile(write("good.state", good)), good);
}

}  // namespace

namespace cli {
namespace {

// A sweep's --set values: deep nesting, and brackets, braces and quotes that do not close or
// pair (which crashed), are exit code 2 naming the --set, before any case runs.
TEST_F(Cli, MalformedSweepValuesAreRefusedBeforeAnythingRuns) {
  const std::string scene = kScenes + "pendulum.json";
  const std::pair<std::string, std::string> cases[] = {
      {"particles[0].mass=[1,2", "a '[' in the values is not closed"},
      {"particles[0].mass={1,2", "a '{' in the values is not closed"},
      {"particles[0].mass=\"a,2", "a '\"' in the values is not closed"},
      {"particles[0].mass=1,2]", "a ']' at character 4 of the values closes nothing opened before it"},
      {"particles[0].mass=[1,2}", "a '}' at character 5 of the values closes nothing opened before it"},
      {"particles[0].mass=1,,2", "value 2 is empty"},
      {"particles[0].mass=1e999", "'1e999' is not JSON: number overflow"},
      {"particles[0].mass=[1,2]x", "'[1,2]x' is not JSON"},
      {"particles[0].mass=" + nested(100'000), "nested more than 64 deep"},
      {"particles[0].masss=1,2", "particles[0].masss: unknown field; did you mean 'mass'?"},
      {"settings.substep=2", "settings.substep: unknown field; did you mean 'substeps'?"},
  };
  for (const auto& [set, says] : cases) {
    const Result r = tinkertoy({"sweep", scene, "--set", set, "-o", file("out.csv")});
    EXPECT_EQ(r.code, kBadInput) << set;
    EXPECT_NE(r.err.find(says), std::string::npos) << set.substr(0, 60) << ": " << r.err.substr(0, 300);
    EXPECT_FALSE(fs::exists(file("out.csv"))) << set.substr(0, 60);
  }
  // Quoted commas and brackets, escaped quotes, and values that are words stay what they were.
  const Result r = tinkertoy({"sweep", scene, "--set", R"(name="a,b","c\"]d",e)", "--duration", "0.01", "-o",
                              file("names.csv")});
  EXPECT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("3 of 3 cases run, 0 failed"), std::string::npos) << r.out;
}

// plot's trajectory CSV: a file of more rows than the limit (one fed forever reaches it) is
// refused at the row past it, naming the line; /dev/zero as a trajectory is refused at once.
TEST_F(Cli, ATrajectoryBeyondItsRowLimitIsRefused) {
  {
    std::ofstream csv(file("long.csv"));
    csv << "time,kinetic_energy,potential_energy,total_energy,constraint_error,velocity_error,work\n";
    for (int k = 0; k < 30; ++k) csv << k << ",1,1,2,0,0,0\n";
  }
  EXPECT_EQ(readTrajectory(file("long.csv"), 30).size(), 30u);
  try {
    (void)readTrajectory(file("long.csv"), 29);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("long.csv:31: more than the limit of 29 rows"), std::string::npos) << e.what();
  }
  const Result r = tinkertoy({"plot", "/dev/zero", "-o", file("zero.svg")});
  EXPECT_EQ(r.code, kBadInput) << r.err;
}

// --resume with an endless file: refused by the first bytes, exit code 2.
TEST_F(Cli, ResumeFromAnEndlessFileIsRefusedByItsHeader) {
  const Result r = tinkertoy({"run", kScenes + "pendulum.json", "--resume", "/dev/zero"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("--resume: '/dev/zero': not a Tinkertoy state file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cli
}  // namespace tinkertoy
