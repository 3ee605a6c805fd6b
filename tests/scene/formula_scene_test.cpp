// "formula" constraints in scene files (docs/scene-format.md, docs/formula.md): every bad input is
// rejected at its JSON path with its reason; a written scene loads back the same; and the
// gallery's rod written as a formula swings exactly as the built-in rod beside it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

// Two particles and a rigid wheel, and the constraint `formula` (JSON) among them.
std::string sceneWith(const std::string& formula, const std::string& settings = "") {
  return R"({"particles": [{"id": "p1", "mass": 1, "position": [1, 0]}, {"id": "p2", "mass": 1, "position": [2, 0]}],
             "bodies": [{"id": "wheel", "type": "rigid", "mass": 1, "position": [0, 2],
                         "shape": {"type": "circle", "radius": 0.5}}],
             "settings": {)" + settings + R"(},
             "constraints": [)" + formula + "]}";
}

struct BadFormula {
  const char* label;
  std::string json;
  std::string path;
  std::string reason;
};

TEST(FormulaScene, RejectsEachBadInputAtItsPath) {
  const std::vector<BadFormula> bad = {
      {"unknown name", sceneWith(R"({"type": "formula", "points": {"a": "p1"}, "C": "xa - xb"})"), "constraints[0].C",
       "unknown name 'xb': the variables are xa, ya, za, phia, t; the parameters none\n  xa - xb\n       ^"},
      {"second row", sceneWith(R"({"type": "formula", "points": {"a": "p1"}, "C": ["xa", "ya +"]})"), "constraints[0].C[1]",
       "the formula ends where a number, a name or '(' should be"},
      {"row not a string", sceneWith(R"({"type": "formula", "points": {"a": "p1"}, "C": ["xa", 2]})"),
       "constraints[0].C[1]", "expected a formula (a string), got a number"},
      {"no rows", sceneWith(R"({"type": "formula", "points": {"a": "p1"}, "C": []})"), "constraints[0].C",
       "expected at least one formula"},
      {"missing C", sceneWith(R"({"type": "formula", "points": {"a": "p1"}})"), "constraints[0].C",
       "required field is missing"},
      {"no points", sceneWith(R"({"type": "formula", "points": {}, "C": "t"})"), "constraints[0].points",
       "name 1 to 4 points"},
      {"unknown point", sceneWith(R"({"type": "formula", "points": {"a": "p9"}, "C": "xa"})"), "constraints[0].points.a",
       "no particle or body with id 'p9'"},
      {"bad point name", sceneWith(R"({"type": "formula", "points": {"a-b": "p1"}, "C": "t"})"),
       "constraints[0].points.a-b", "is not a name of letters, digits and _"},
      {"anchor of no point", sceneWith(R"({"type": "formula", "points": {"w": "wheel"}, "anchors": {"v": [0, 2]}, "C": "phiw"})"),
       "constraints[0].anchors.v", "names no point of \"points\""},
      {"parameter not a number", sceneWith(R"({"type": "formula", "points": {"a": "p1"}, "C": "xa - L", "parameters": {"L": "1"}})"),
       "constraints[0].parameters.L", "expected a number"},
      {"parameter named as a variable",
       sceneWith(R"({"type": "formula", "points": {"a": "p1"}, "C": "xa - ya", "parameters": {"ya": 1}})"),
       "constraints[0].parameters", "parameter ya has the name of a variable"},
      {"bad kind", sceneWith(R"({"type": "formula", "points": {"a": "p1"}, "C": "xa", "kind": "soft"})"),
       "constraints[0].kind", "expected \"equality\" (C = 0) or \"inequality\" (C >= 0)"},
      {"z in 2D", sceneWith(R"({"type": "formula", "points": {"a": "p1"}, "C": "za"})"), "constraints[0]",
       "a formula of a 2D model cannot read a z coordinate"},
      {"angle of a particle", sceneWith(R"({"type": "formula", "points": {"a": "p1"}, "C": "phia"})"), "constraints[0]",
       "which has none"},
      {"inequality at the acceleration level",
       sceneWith(R"({"type": "formula", "points": {"a": "p1"}, "C": "ya", "kind": "inequality"})", R"("formulation": "acceleration")"),
       "constraints[0]", "needs \"formulation\": \"velocity\""},
      {"unknown field", sceneWith(R"({"type": "formula", "points": {"a": "p1"}, "C": "xa", "row": 1})"),
       "constraints[0].row", "unknown field"},
  };
  for (const BadFormula& b : bad) {
    try {
      parseScene(b.json, "bad.json");
      ADD_FAILURE() << "accepted: " << b.label;
    } catch (const SceneError& e) {
      EXPECT_EQ(e.path(), b.path) << b.label << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(b.reason), std::string::npos) << b.label << ": " << e.what();
    }
  }
}

// Written out and read back, a scene with formulas (several rows, parameters, an anchored point
// of a rigid body, an inequality) is the same scene.
TEST(FormulaScene, AWrittenSceneLoadsBackTheSame) {
  const std::string text = sceneWith(
      R"({"type": "formula", "id": "gear", "points": {"w": "wheel", "a": "p1"}, "anchors": {"w": [0.5, 2]},
          "C": ["xw - 0.5 - 0 * phiw", "yw - 2"], "parameters": {"k": 2}},
         {"type": "formula", "points": {"b": "p2"}, "C": "yb + 1", "kind": "inequality"})",
      R"("formulation": "velocity")");
  const Scene scene = parseScene(text);
  const std::string written = writeScene(scene);
  EXPECT_NE(written.find("\"anchors\""), std::string::npos) << written;
  EXPECT_NE(written.find("\"inequality\""), std::string::npos) << written;
  EXPECT_EQ(writeScene(parseScene(written)), written);
}

// The gallery's formula_bob hangs on "hypot(xp - 2, yp - 2) - L" from (2, 2), the built-in bob
// beside it on a distance rod from (1, 2): 6 s later they are still one metre apart in x, level
// in y, and moving alike, to round-off.
TEST(FormulaScene, TheGallerysFormulaRodSwingsAsTheBuiltInRod) {
  Scene scene = loadScene(std::string(TINKERTOY_SOURCE_DIR) + "/scenes/formula_gallery.json");
  Simulator sim(scene.model, scene.settings);
  const BodyId builtIn = *scene.model.findBody("builtin_bob"), formula = *scene.model.findBody("formula_bob");
  for (int n = 0; n < 720; ++n) sim.step();
  const Model& m = scene.model;
  EXPECT_NEAR(m.position(formula)[0] - m.position(builtIn)[0], 1.0, 1e-10);
  EXPECT_NEAR(m.position(formula)[1], m.position(builtIn)[1], 1e-10);
  EXPECT_NEAR((m.velocity(formula) - m.velocity(builtIn)).norm(), 0.0, 1e-9);
  EXPECT_LT(sim.diagnostics().constraintError, 1e-10);
}

}  // namespace
}  // namespace tinkertoy
