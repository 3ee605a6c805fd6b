// FormulaPotential (forces/formula_potential.hpp): a potential written as a formula moves bodies
// as its closed form says, equals the built-in torque it rewrites, books a time-dependent V's
// energy as driven work, and refuses bad input, in C++ and in scenes.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "tinkertoy/dynamics/run_statistics.hpp"
#include "tinkertoy/dynamics/simulation_error.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/formula_potential.hpp"
#include "tinkertoy/forces/torque.hpp"
#include "tinkertoy/model/rigid_body.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

SimulationSettings rk4() { return {.dt = 1e-3, .integrator = IntegratorKind::RungeKutta4}; }

// A 2 kg particle in the well V = ½ k |x − (1, 2)|², k = 8 N/m, released 0.5 m right of its
// centre: x(t) = 1 + 0.5 cos(ω t), ω = √(k/m) = 2 rad/s, and E = V(0) = 1 J throughout.
TEST(FormulaPotential, AWellOscillatesAtItsClosedFormFrequency) {
  Model model(2);
  const BodyId p = model.addParticle(2.0, Eigen::Vector2d(1.5, 2.0));
  model.addForce(std::make_unique<FormulaPotential>(FormulaPotentialSettings{
      .points = {{"p", p}}, .V = "0.5*k*((xp - 1)^2 + (yp - 2)^2)", .parameters = {{"k", 8.0}}}));
  Simulator sim(model, rk4());
  double worst = 0.0;
  for (int n = 1; n <= 3000; ++n) {
    sim.step();
    worst = std::max(worst, std::abs(model.position(p)[0] - (1.0 + 0.5 * std::cos(2.0 * n * 1e-3))));
  }
  EXPECT_LT(worst, 1e-11);
  EXPECT_NEAR(model.position(p)[1], 2.0, 1e-15);
  EXPECT_NEAR(sim.diagnostics().totalEnergy(), 1.0, 1e-11);
}

// "-tau*phiw" is the built-in Torque: the same motion of a spinning box, to round-off.
TEST(FormulaPotential, ATorqueWrittenAsAPotentialIsTheBuiltInTorque) {
  const auto spin = [](bool formula) {
    auto model = std::make_unique<Model>(2);
    const BodyId w = model->addBody(std::make_unique<RigidBody>(1.0, Shape::box(1.0, 0.2)), Eigen::Vector3d(0, 0, 0.3));
    if (formula) {
      model->addForce(std::make_unique<FormulaPotential>(
          FormulaPotentialSettings{.points = {{"w", w}}, .V = "-tau*phiw", .parameters = {{"tau", 0.7}}}));
    } else {
      model->addForce(std::make_unique<Torque>(w, 0.7));
    }
    Simulator sim(*model, rk4());
    for (int n = 0; n < 500; ++n) sim.step();
    return Eigen::VectorXd(model->q());
  };
  EXPECT_LE((spin(true) - spin(false)).cwiseAbs().maxCoeff(), 1e-14);
}

// A well that moves, V = ½ k ((x − 0.3 sin t)² + y²): it puts energy in at ∂V/∂t, which the work
// ledger books as driven work, so E − E(0) − W stays at RK4's error while E itself changes.
TEST(FormulaPotential, ATimeDependentPotentialIsBookedAsDrivenWork) {
  Model model(2);
  const BodyId p = model.addParticle(1.0, Eigen::Vector2d(0.2, 0.1));
  model.addForce(std::make_unique<FormulaPotential>(FormulaPotentialSettings{
      .points = {{"p", p}}, .V = "0.5*k*((xp - 0.3*sin(t))^2 + yp^2)", .parameters = {{"k", 10.0}}}));
  Simulator sim(model, rk4());
  RunStatistics stats(sim.diagnostics());
  for (int n = 0; n < 3000; ++n) {
    sim.step();
    stats.add(sim.diagnostics());
  }
  EXPECT_GT(stats.energyDriftMax, 1e-2);
  EXPECT_LT(stats.energyErrorMax, 1e-6 * stats.energyDriftMax);
}

// The well of the first test written in C++: the same force and energy at any state, and a
// potential that cannot be written to a scene.
TEST(FormulaPotential, OneWrittenInCppIsTheTextOne) {
  Scene scene{.model = Model(2)};
  Model& model = scene.model;
  const BodyId p = model.addParticle(2.0, Eigen::Vector2d(1.5, 2.0));
  const ForceId text = model.addForce(std::make_unique<FormulaPotential>(FormulaPotentialSettings{
      .points = {{"p", p}}, .V = "0.5*k*((xp - 1)^2 + (yp - 2)^2) + sin(t)", .parameters = {{"k", 8.0}}}));
  const ForceId cpp = model.addForce(formulaPotential({{"p", p}}, {"xp", "yp", "t"}, [](auto x, auto y, auto t) {
    using std::sin;
    return 4.0 * ((x - 1) * (x - 1) + (y - 2) * (y - 2)) + sin(t);
  }));
  for (const double x : {-0.3, 1.0, 2.7}) {
    model.setState(model.time(), Eigen::Vector2d(x, 0.4 * x), model.v());
    const StateView state{0.8, model.q(), model.v()};
    Eigen::VectorXd Qa = Eigen::VectorXd::Zero(2), Qb = Eigen::VectorXd::Zero(2);
    model.force(text).accumulate(model.bodies(), state, Qa);
    model.force(cpp).accumulate(model.bodies(), state, Qb);
    EXPECT_LE((Qa - Qb).cwiseAbs().maxCoeff(), 1e-14);
    EXPECT_NEAR(model.force(text).potentialEnergy(model.bodies(), state), model.force(cpp).potentialEnergy(model.bodies(), state), 1e-14);
    EXPECT_NEAR(model.force(text).power(model.bodies(), state), std::cos(0.8), 1e-15);
    EXPECT_NEAR(model.force(cpp).power(model.bodies(), state), std::cos(0.8), 1e-15);
  }
  EXPECT_THROW((void)writeScene(scene), std::invalid_argument);
  EXPECT_THROW((void)formulaPotential({{"p", p}}, {"xq"}, [](auto x) { return x; }), std::invalid_argument);
}

// V = √x pulls the particle toward x = 0 and is not defined beyond: the step that takes it there
// is refused with a SimulationError that quotes the potential and the point, and the model keeps
// the last good state.
TEST(FormulaPotential, AnUndefinedPointIsASimulationErrorQuotingThePotential) {
  Model model(2);
  const BodyId p = model.addParticle(1.0, Eigen::Vector2d(1.0, 0.0));
  model.addForce(std::make_unique<FormulaPotential>(FormulaPotentialSettings{.points = {{"p", p}}, .V = "sqrt(xp)"}));
  Simulator sim(model, SimulationSettings{.dt = 1e-3, .integrator = IntegratorKind::RungeKutta4});
  Eigen::VectorXd lastGood;
  try {
    for (int n = 0; n < 10000; ++n) {
      lastGood = model.q();
      sim.step();
    }
    FAIL() << "the particle passed x = 0";
  } catch (const SimulationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(": formula potential: the formula \"sqrt(xp)\" or one of its derivatives is not finite at xp = -"),
              std::string::npos) << what;
    EXPECT_NE(what.find("The model keeps the state of step"), std::string::npos) << what;
    EXPECT_EQ(model.q(), lastGood);
    EXPECT_TRUE(lastGood.allFinite());
    EXPECT_GT(lastGood[0], 0.0);
    EXPECT_LT(lastGood[0], 0.01);  // it got close to the edge
  }
}

TEST(FormulaPotential, RefusesBadInput) {
  Model model(2);
  const BodyId p = model.addParticle(1.0, Eigen::Vector2d(0, 0));
  EXPECT_THROW(model.addForce(std::make_unique<FormulaPotential>(FormulaPotentialSettings{.points = {{"p", p}}, .V = "zp"})),
               std::invalid_argument);
  EXPECT_THROW(model.addForce(std::make_unique<FormulaPotential>(FormulaPotentialSettings{.points = {{"p", p}}, .V = "phip"})),
               std::invalid_argument);
  EXPECT_THROW(FormulaPotential(FormulaPotentialSettings{.points = {}, .V = "1"}), std::invalid_argument);
  EXPECT_THROW(FormulaPotential(FormulaPotentialSettings{.points = {{"p", p}}, .V = "xp +"}), FormulaError);
  EXPECT_EQ(model.forceCount(), 0u);

  const std::string scene = R"json({"particles": [{"id": "a", "mass": 1, "position": [0, 0]}],
    "forces": [{"type": "formula_potential", "points": {"p": "a"}, "V": "0.5*(xp^2 + yq^2)"}]})json";
  try {
    parseScene(scene);
    FAIL() << "accepted an unknown name";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.path(), "forces[0].V");
    EXPECT_NE(std::string(e.what()).find("unknown name 'yq'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("\n  0.5*(xp^2 + yq^2)\n" + std::string(14, ' ') + "^"), std::string::npos) << e.what();
  }
}

// Written and read back, the potential is the same (its t restarted from the current time).
TEST(FormulaPotential, AWrittenSceneLoadsBackTheSame) {
  Scene scene = parseScene(R"({"particles": [{"id": "a", "mass": 1, "position": [0.2, 0]}],
    "forces": [{"type": "formula_potential", "points": {"p": "a"}, "V": "0.5*k*(xp - 0.1*t)^2", "parameters": {"k": 3}}]})");
  Simulator sim(scene.model, scene.settings);
  for (int n = 0; n < 100; ++n) sim.step();
  const std::string written = writeScene(scene);
  EXPECT_NE(written.find("\"V\": \"0.5*k*(xp - 0.1*(t + 0.1"), std::string::npos) << written;
  const Scene again = parseScene(written);
  const Model& a = again.model;
  const Model& b = scene.model;
  EXPECT_EQ(a.time(), 0.0);
  EXPECT_NEAR(a.force(a.forceAt(0)).potentialEnergy(a.bodies(), a.state()),
              b.force(b.forceAt(0)).potentialEnergy(b.bodies(), b.state()), 1e-15);
}

}  // namespace
}  // namespace tinkertoy
