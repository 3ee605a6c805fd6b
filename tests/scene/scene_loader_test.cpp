// The scene loader: every shipped scene loads, defaults are applied as documented, and
// every kind of bad input is rejected with its JSON path and a reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <variant>

#include "support/test_name.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

const std::filesystem::path kScenes = std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes";

TEST(SceneLoader, EveryShippedSceneLoads) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kScenes)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    const Scene scene = loadScene(entry.path());
    EXPECT_FALSE(scene.name.empty());
    EXPECT_GT(scene.model.bodyCount(), 0u);
    // A scene made only of parametric bodies needs no constraints: they hold by construction.
    bool parametricOnly = true;
    for (std::size_t i = 0; i < scene.model.bodyCount(); ++i) {
      parametricOnly = parametricOnly && !scene.model.isParticle(scene.model.bodyAt(i));
    }
    if (!parametricOnly) {
      EXPECT_GT(scene.model.constraintCount(), 0u);
    }
    ++count;
  }
  EXPECT_GE(count, 14);
}

TEST(SceneLoader, ReadsTheDocumentedExample) {
  const Scene scene = loadScene(kScenes / "double_pendulum.json");
  EXPECT_EQ(scene.name, "double pendulum");
  EXPECT_EQ(scene.model.dimension(), 2);
  EXPECT_EQ(scene.model.bodyCount(), 2u);
  EXPECT_EQ(scene.model.constraintCount(), 2u);
  EXPECT_DOUBLE_EQ(scene.settings.dt, 0.001);
  EXPECT_DOUBLE_EQ(scene.duration, 10.0);
  EXPECT_EQ(scene.settings.integrator, IntegratorKind::RungeKutta4);
  EXPECT_EQ(scene.settings.solver.kind, SolverKind::ConjugateGradient);
  const BodyId p2 = *scene.model.findBody("p2");
  EXPECT_EQ(scene.model.position(p2), Eigen::Vector2d(2, 0));
  EXPECT_EQ(scene.model.velocity(p2), Eigen::Vector2d::Zero());
  EXPECT_DOUBLE_EQ(scene.model.mass(p2), 1.0);
}

TEST(SceneLoader, AppliesDefaults) {
  const Scene scene = parseScene(R"({
    "dimension": 3,
    "particles": [{"id": "a", "mass": 2, "position": [0, 0, 0]},
                  {"id": "b", "mass": 1, "position": [3, 4, 0], "velocity": [1, 2, 3]}],
    "constraints": [{"type": "distance", "a": "a", "b": "b"},
                    {"type": "fixed", "particle": "a"}]
  })");
  const Model& m = scene.model;
  // Gravity defaults to (0, −9.81, 0): Q on a 2 kg particle is (0, −19.62, 0).
  const auto& gravity = dynamic_cast<const Gravity&>(m.force(m.forceAt(0)));
  EXPECT_EQ(gravity.acceleration(), Eigen::Vector3d(0, -9.81, 0));
  // A missing length is the initial distance, a missing point the initial position.
  const auto rod = std::get<DistanceConstraintSettings>(m.constraint(m.constraintAt(0)).settings());
  EXPECT_DOUBLE_EQ(rod.length.value(), 5.0);
  const auto& nail = dynamic_cast<const FixedPointConstraint&>(m.constraint(m.constraintAt(1)));
  EXPECT_EQ(nail.location(), Eigen::Vector3d::Zero());
  EXPECT_EQ(m.velocity(*m.findBody("a")), Eigen::Vector3d::Zero());
  EXPECT_EQ(m.describe(m.constraintAt(0)), "constraints[0]");
  EXPECT_EQ(scene.settings.integrator, IntegratorKind::RungeKutta4);
}

TEST(SceneLoader, ReadsTheVelocityScheme) {
  const Scene scene = parseScene(R"({"settings": {"formulation": "velocity", "velocity_scheme": "verlet"}})");
  EXPECT_EQ(scene.settings.velocity.scheme, VelocityScheme::Verlet);
  EXPECT_EQ(parseScene("{}").settings.velocity.scheme, VelocityScheme::SymplecticEuler);
}

TEST(SceneLoader, ReadsDopri5AndItsTolerances) {
  const Scene scene = parseScene(R"({"settings": {"integrator": "dopri5", "rtol": 1e-9, "atol": 1e-11}})");
  EXPECT_EQ(scene.settings.integrator, IntegratorKind::DormandPrince5);
  EXPECT_EQ(scene.settings.errorTolerance.relative, 1e-9);
  EXPECT_EQ(scene.settings.errorTolerance.absolute, 1e-11);
}

TEST(SceneLoader, NamesConstraintsByIdWhenGiven) {
  const Scene scene = parseScene(R"({"particles": [{"id": "a", "mass": 1, "position": [1, 0]}],
    "constraints": [{"type": "distance", "id": "rod", "a": "a", "b": [0, 0]}]})");
  EXPECT_EQ(scene.model.describe(scene.model.constraintAt(0)), "rod");
}

struct BadScene {
  const char* label;
  const char* json;
  const char* path;    // expected SceneError::path()
  const char* reason;  // expected to appear in the message
};

// Particles used by most bad scenes.
#define TWO_PARTICLES \
  R"("particles": [{"id": "p1", "mass": 1, "position": [1, 0]}, {"id": "p2", "mass": 1, "position": [2, 0]}])"

const BadScene kBadScenes[] = {
    {"malformed JSON", "{\n  \"dimension\": 2,\n  \"particles\": [}\n", "", "malformed JSON at line 3, column 17"},
    {"not an object", "[1, 2]", "", "expected an object"},
    {"unknown top-level field", R"({"partciles": []})", "partciles", "did you mean 'particles'"},
    {"dimension 4", R"({"dimension": 4})", "dimension", "must be 2 or 3"},
    {"dimension not an integer", R"({"dimension": 2.5})", "dimension", "expected an integer"},
    {"particles not an array", R"({"particles": {}})", "particles", "expected an array"},
    {"missing mass", R"({"particles": [{"id": "a", "position": [0, 0]}]})", "particles[0].mass",
     "required field is missing"},
    {"negative mass", R"({"particles": [{"id": "a", "mass": -1, "position": [0, 0]}]})",
     "particles[0].mass", "must be positive"},
    {"zero mass", R"({"particles": [{"id": "a", "mass": 0, "position": [0, 0]}]})", "particles[0].mass",
     "must be positive"},
    {"overflowing number", R"({"particles": [{"id": "a", "mass": 1e999, "position": [0, 0]}]})",
     "", "number overflow parsing '1e999'"},
    // Finite numbers whose energy overflows a double (issue #16, class 3): no state to start from.
    {"kinetic energy overflows", R"({"particles": [{"id": "a", "mass": 1, "position": [0, 0], "velocity": [1e200, 0]}]})",
     "particles[0]", "its kinetic energy at the start is inf J"},
    {"a rigid body's kinetic energy overflows",
     R"({"bodies": [{"id": "w", "type": "rigid", "mass": 1, "position": [0, 0], "angular_velocity": 1e300,
                     "shape": {"type": "circle", "radius": 1}}]})",
     "bodies[0]", "its kinetic energy at the start is inf J"},
    {"weight overflows", R"({"particles": [{"id": "a", "mass": 1e308, "position": [0, 1]}]})", "gravity",
     "its potential energy at the start is inf J"},
    {"spring energy overflows",
     R"({"gravity": [0, 0], "particles": [{"id": "a", "mass": 1, "position": [0, 0]}, {"id": "b", "mass": 1, "position": [1e200, 0]}],
        "forces": [{"type": "spring", "a": "a", "b": "b", "stiffness": 1e200, "rest_length": 1}]})",
     "forces[0]", "its potential energy at the start is inf J"},
    {"mass as string", R"({"particles": [{"id": "a", "mass": "1", "position": [0, 0]}]})",
     "particles[0].mass", "expected a number, got a string"},
    {"wrong position size", R"({"particles": [{"id": "a", "mass": 1, "position": [0, 0, 0]}]})",
     "particles[0].position", "expected 2 numbers for a 2D scene, got 3"},
    {"non-numeric coordinate", R"({"particles": [{"id": "a", "mass": 1, "position": [0, null]}]})",
     "particles[0].position[1]", "expected a number"},
    {"unknown particle field", R"({"particles": [{"id": "a", "mass": 1, "position": [0, 0], "velocty": [0, 0]}]})",
     "particles[0].velocty", "did you mean 'velocity'"},
    {"duplicate id",
     R"({"particles": [{"id": "a", "mass": 1, "position": [0, 0]}, {"id": "a", "mass": 1, "position": [1, 0]}]})",
     "particles[1].id", "duplicate id 'a' (first used by particles[0])"},
    {"empty id", R"({"particles": [{"id": "", "mass": 1, "position": [0, 0]}]})", "particles[0].id", "must not be empty"},
    {"unknown constraint type", "{" TWO_PARTICLES R"(, "constraints": [{"type": "distnce", "a": "p1", "b": "p2"}]})",
     "constraints[0].type", "did you mean 'distance'"},
    {"dangling id", "{" TWO_PARTICLES R"(, "constraints": [{"type": "distance", "a": "p1", "b": "p9"}]})",
     "constraints[0].b", "no particle or body with id 'p9'"},
    {"endpoint of the wrong type", "{" TWO_PARTICLES R"(, "constraints": [{"type": "distance", "a": "p1", "b": 3}]})",
     "constraints[0].b", "expected a particle or body id, {\"body\": id, \"point\": i}, or a point [2 numbers], got a number"},
    {"zero-length rod from coincident particles",
     R"({"particles": [{"id": "p1", "mass": 1, "position": [1, 0]}, {"id": "p2", "mass": 1, "position": [1, 0]}],
         "constraints": [{"type": "distance", "a": "p1", "b": "p2"}]})",
     "constraints[0]", "zero-length rod"},
    {"zero rod length", "{" TWO_PARTICLES R"(, "constraints": [{"type": "distance", "a": "p1", "b": "p2", "length": 0}]})",
     "constraints[0].length", "must be positive"},
    {"rod to itself", "{" TWO_PARTICLES R"(, "constraints": [{"type": "distance", "a": "p1", "b": "p1"}]})",
     "constraints[0].b", "cannot join particle 'p1' to itself"},
    {"rod between two points", "{" TWO_PARTICLES R"(, "constraints": [{"type": "distance", "a": [0, 0], "b": [1, 1]}]})",
     "constraints[0]", "needs at least one particle"},
    {"unknown constraint field", "{" TWO_PARTICLES R"(, "constraints": [{"type": "distance", "a": "p1", "b": "p2", "lenght": 1}]})",
     "constraints[0].lenght", "did you mean 'length'"},
    {"zero-radius circle", "{" TWO_PARTICLES R"(, "constraints": [{"type": "circle", "particle": "p1", "center": [1, 0]}]})",
     "constraints[0]", "zero-length circle"},
    {"plane in 2D", "{" TWO_PARTICLES R"(, "constraints": [{"type": "plane", "particle": "p1", "normal": [0, 1]}]})",
     "constraints[0].type", "needs \"dimension\": 3"},
    {"zero line direction", "{" TWO_PARTICLES R"(, "constraints": [{"type": "line", "particle": "p1", "direction": [0, 0]}]})",
     "constraints[0].direction", "must be non-zero"},
    {"duplicate constraint id",
     "{" TWO_PARTICLES R"(, "constraints": [{"type": "fixed", "id": "n", "particle": "p1"}, {"type": "fixed", "id": "n", "particle": "p2"}]})",
     "constraints[1].id", "duplicate constraint id 'n'"},
    {"unknown path type",
     "{" TWO_PARTICLES R"(, "constraints": [{"type": "driven", "particle": "p1", "path": {"type": "square"}}]})",
     "constraints[0].path.type", "unknown curve type 'square'"},
    {"negative path radius",
     "{" TWO_PARTICLES R"(, "constraints": [{"type": "driven", "particle": "p1", "path": {"type": "circle", "center": [0, 0], "radius": -1, "speed": 1}}]})",
     "constraints[0].path.radius", "must be positive"},
    {"unknown force type", "{" TWO_PARTICLES R"(, "forces": [{"type": "sprng", "a": "p1", "b": "p2", "stiffness": 1}]})",
     "forces[0].type", "did you mean 'spring'"},
    {"spring without stiffness", "{" TWO_PARTICLES R"(, "forces": [{"type": "spring", "a": "p1", "b": "p2"}]})",
     "forces[0].stiffness", "required field is missing"},
    {"negative damping", "{" TWO_PARTICLES R"(, "forces": [{"type": "spring", "a": "p1", "b": "p2", "stiffness": 1, "damping": -2}]})",
     "forces[0].damping", "must not be negative"},
    {"negative drag", R"({"forces": [{"type": "drag", "coefficient": -1}]})", "forces[0].coefficient",
     "must not be negative"},
    {"constant force of the wrong size", "{" TWO_PARTICLES R"(, "forces": [{"type": "constant", "particle": "p1", "force": [1]}]})",
     "forces[0].force", "expected 2 numbers"},
    {"gravity of the wrong size", R"({"gravity": [0, -9.81, 0]})", "gravity", "expected 2 numbers"},
    {"unknown integrator", R"({"settings": {"integrator": "rk5"}})", "settings.integrator", "unknown integrator 'rk5'"},
    {"unknown solver", R"({"settings": {"solver": "gmres"}})", "settings.solver", "unknown solver 'gmres'"},
    {"unknown velocity scheme", R"({"settings": {"velocity_scheme": "leapfrog"}})", "settings.velocity_scheme",
     "unknown velocity scheme 'leapfrog'; expected symplectic-euler or verlet"},
    {"verlet with the soft step", R"({"settings": {"formulation": "velocity", "solver": "sequential",
      "position_correction": "soft", "velocity_scheme": "verlet"}})", "settings.velocity_scheme", "the soft step has its own substeps"},
    {"zero rtol", R"({"settings": {"integrator": "dopri5", "rtol": 0}})", "settings.rtol", "must be positive"},
    {"rtol finer than doubles resolve", R"({"settings": {"rtol": 1e-16}})", "settings.rtol",
     "must be from 1e-14 (what double precision resolves) to below 1, got 1e-16"},
    {"rtol of one", R"({"settings": {"rtol": 1}})", "settings.rtol", "to below 1"},
    {"zero atol", R"({"settings": {"atol": 0}})", "settings.atol", "must be positive"},
    {"negative period", R"({"period": -1})", "period", "must be positive"},
    {"period as a word", R"({"period": "one turn"})", "period", "expected a number"},
    {"atol as a word", R"({"settings": {"atol": "small"}})", "settings.atol", "expected a number"},
    {"unknown factorization", R"({"settings": {"factorization": "cholesky"}})", "settings.factorization",
     "unknown factorization 'cholesky'; expected auto, simplicial, supernodal or tree"},
    {"negative reuse iterations", R"({"settings": {"reuse_iterations": -1}})", "settings.reuse_iterations",
     "must be \"auto\" or a whole number from 0 to 1000"},
    {"reuse iterations as a word", R"({"settings": {"reuse_iterations": "often"}})", "settings.reuse_iterations",
     "must be \"auto\" or a whole number from 0 to 1000"},
    {"fractional reuse iterations", R"({"settings": {"reuse_iterations": 2.5}})", "settings.reuse_iterations",
     "expected an integer"},
    {"zero threads", R"({"settings": {"threads": 0}})", "settings.threads", "must be between 1 and 64, got 0"},
    {"too many threads", R"({"settings": {"threads": 65}})", "settings.threads", "must be between 1 and 64, got 65"},
    {"threads as a word", R"({"settings": {"threads": "two"}})", "settings.threads", "expected an integer"},
    {"zero dt", R"({"settings": {"dt": 0}})", "settings.dt", "must be positive"},
    {"negative duration", R"({"settings": {"duration": -1}})", "settings.duration", "must not be negative"},
    {"fractional iteration cap", R"({"settings": {"max_iterations": 1.5}})", "settings.max_iterations",
     "expected an integer"},
    {"project not a boolean", R"({"settings": {"project": 1}})", "settings.project", "expected true or false"},
    {"unknown setting", R"({"settings": {"tolerence": 1e-9}})", "settings.tolerence", "did you mean 'tolerance'"},
    // Parametric bodies and the points they expose.
    {"unknown body type", R"({"bodies": [{"id": "b", "type": "bed"}]})", "bodies[0].type", "did you mean 'bead'"},
    {"unknown curve", R"({"bodies": [{"id": "b", "type": "bead", "mass": 1, "curve": {"type": "parabola"}}]})",
     "bodies[0].curve.type", "unknown curve type 'parabola'"},
    {"spline with one point", R"({"bodies": [{"id": "b", "type": "bead", "mass": 1, "curve": {"type": "spline", "points": [[0, 0]]}}]})",
     "bodies[0].curve.points", "needs at least 2 points, got 1"},
    {"closed spline with two points",
     R"({"bodies": [{"id": "b", "type": "bead", "mass": 1, "curve": {"type": "spline", "closed": true, "points": [[0, 0], [1, 0]]}}]})",
     "bodies[0].curve.points", "needs at least 3 points"},
    {"spline with coincident points",
     R"({"bodies": [{"id": "b", "type": "bead", "mass": 1, "curve": {"type": "spline", "points": [[0, 0], [0, 0]]}}]})",
     "bodies[0].curve.points", "points 0 and 1 coincide"},
    {"spline point of the wrong size",
     R"({"bodies": [{"id": "b", "type": "bead", "mass": 1, "curve": {"type": "spline", "points": [[0, 0], [1, 0, 2]]}}]})",
     "bodies[0].curve.points[1]", "expected 2 numbers"},
    {"helix in 2D", R"({"bodies": [{"id": "b", "type": "bead", "mass": 1, "curve": {"type": "helix", "center": [0, 0], "radius": 1, "pitch": 1}}]})",
     "bodies[0].curve.type", "a helix needs \"dimension\": 3"},
    {"circle normal in 2D", R"({"bodies": [{"id": "b", "type": "bead", "mass": 1, "curve": {"type": "circle", "center": [0, 0], "radius": 1, "normal": [0, 0, 1]}}]})",
     "bodies[0].curve.normal", "only a 3D curve has a normal"},
    {"negative bead mass", R"({"bodies": [{"id": "b", "type": "bead", "mass": -1, "curve": {"type": "circle", "center": [0, 0], "radius": 1}}]})",
     "bodies[0].mass", "must be positive"},
    {"unknown curve field", R"({"bodies": [{"id": "b", "type": "bead", "mass": 1, "curve": {"type": "circle", "centre": [0, 0], "radius": 1}}]})",
     "bodies[0].curve.centre", "did you mean 'center'"},
    {"chain masses of the wrong length",
     R"({"bodies": [{"id": "arm", "type": "chain", "pivot": [0, 0], "lengths": [1, 1], "masses": [1], "angles": [0, 0]}]})",
     "bodies[0].masses", "expected one entry per link: \"lengths\" has 2, this has 1"},
    {"chain angles of the wrong length",
     R"({"bodies": [{"id": "arm", "type": "chain", "pivot": [0, 0], "lengths": [1, 1], "masses": [1, 1], "angles": [0, 0, 0]}]})",
     "bodies[0].angles", "\"lengths\" has 2, this has 3"},
    {"chain angular velocities of the wrong length",
     R"({"bodies": [{"id": "arm", "type": "chain", "pivot": [0, 0], "lengths": [1], "masses": [1], "angles": [0], "angular_velocities": []}]})",
     "bodies[0].angular_velocities", "\"lengths\" has 1, this has 0"},
    {"chain with no links", R"({"bodies": [{"id": "arm", "type": "chain", "pivot": [0, 0], "lengths": [], "masses": [], "angles": []}]})",
     "bodies[0].lengths", "at least one link"},
    {"zero link length", R"({"bodies": [{"id": "arm", "type": "chain", "pivot": [0, 0], "lengths": [1, 0], "masses": [1, 1], "angles": [0, 0]}]})",
     "bodies[0].lengths[1]", "must be positive"},
    {"body id used by a particle",
     "{" TWO_PARTICLES R"(, "bodies": [{"id": "p1", "type": "chain", "pivot": [0, 0], "lengths": [1], "masses": [1], "angles": [0]}]})",
     "bodies[0].id", "duplicate id 'p1' (first used by particles[0])"},
    {"chain named without a point",
     R"({"bodies": [{"id": "arm", "type": "chain", "pivot": [0, 0], "lengths": [1, 1], "masses": [1, 1], "angles": [0, 0]}],
         "constraints": [{"type": "fixed", "particle": "arm"}]})",
     "constraints[0].particle", "chain 'arm' has 2 points; name one as {\"body\": \"arm\", \"point\": i}"},
    {"chain point out of range",
     R"({"bodies": [{"id": "arm", "type": "chain", "pivot": [0, 0], "lengths": [1, 1], "masses": [1, 1], "angles": [0, 0]}],
         "constraints": [{"type": "fixed", "particle": {"body": "arm", "point": 2}}]})",
     "constraints[0].particle.point", "chain 'arm' has points 0 to 1, got 2"},
    {"point of an unknown body", "{" TWO_PARTICLES R"(, "constraints": [{"type": "fixed", "particle": {"body": "arm"}}]})",
     "constraints[0].particle.body", "no particle or body with id 'arm'"},
    {"point reference with an unknown field", "{" TWO_PARTICLES R"(, "constraints": [{"type": "fixed", "particle": {"body": "p1", "index": 0}}]})",
     "constraints[0].particle.index", "unknown field (known fields: body, point)"},
    {"driven path without speed", "{" TWO_PARTICLES R"(, "constraints": [{"type": "driven", "particle": "p1", "path": {"type": "circle", "center": [0, 0], "radius": 1}}]})",
     "constraints[0].path.speed", "required field is missing"},
};

void PrintTo(const BadScene& bad, std::ostream* os) { *os << bad.label; }

class RejectsBadScene : public ::testing::TestWithParam<BadScene> {};

TEST_P(RejectsBadScene, NamingThePathAndTheReason) {
  const BadScene& bad = GetParam();
  try {
    parseScene(bad.json, "bad.json");
    FAIL() << "accepted: " << bad.json;
  } catch (const SceneError& e) {
    EXPECT_EQ(e.path(), bad.path) << e.what();
    EXPECT_NE(std::string(e.what()).find(bad.reason), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.json: ", 0), 0u) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(SceneLoader, RejectsBadScene, ::testing::ValuesIn(kBadScenes),
                         [](const ::testing::TestParamInfo<BadScene>& p) { return testing_support::testName(p.param.label); });

TEST(SceneLoader, ReportsAMissingFile) {
  try {
    loadScene("/nonexistent/scene.json");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/scene.json: cannot open scene file"), std::string::npos)
        << e.what();
  }
}

// A NUL byte ends the input for nlohmann's lexer, so "{}\0…" loaded as an empty scene whatever
// followed, and the duplicate-key pass then met text the parser had never checked (found by
// the load-and-step fuzzer).
TEST(SceneLoader, RefusesANulByteWhereverItIs) {
  for (const std::string& text : {std::string("{}\0{\"particles\": 3}", 18), std::string("{\n \"a\0\": 1}", 12)}) {
    try {
      (void)parseScene(text, "nul.json");
      ADD_FAILURE() << "a NUL byte was accepted";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find("nul.json: a NUL byte at line "), std::string::npos) << e.what();
    }
  }
}

// A file without end is refused at its first byte that cannot be in a scene (a NUL), never read
// until memory runs out; a directory is a file that cannot be read.
TEST(SceneLoader, RefusesAFileWithoutEndAndOneThatIsNotAFile) {
  for (const auto& [file, says] : {std::pair{"/dev/zero", "a NUL byte at line 1, column 1: a scene is JSON text"},
                                   std::pair{"/", "cannot read scene file: Is a directory"}}) {
    try {
      loadScene(file);
      ADD_FAILURE() << file << " was accepted";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(file) + ": " + says), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace tinkertoy
