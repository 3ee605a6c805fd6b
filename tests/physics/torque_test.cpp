// A constant torque on a rigid body (forces/torque.hpp): θ = τ t² / 2I on a free body at both
// levels, a torque that holds a hinged rod against gravity, energy with the torque's potential
// −τ θ conserved to RK4's order, and the refusals.
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

#include "physics/rigid_models.hpp"
#include "tinkertoy/forces/torque.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::test {
namespace {

constexpr double kTorque = 0.033;  // N·m, Andrews' squeezer's drive
constexpr double kInertia = 0.01;  // kg·m²

BodyId addFreeDisc(Model& model) {
  return addRigid(model, 2.0, kInertia, Shape::circle(0.1), Eigen::Vector3d(0.3, -0.2, 0.5));
}

// RK4 integrates θ̈ = τ / I, a constant, exactly: θ = θ₀ + τ t² / 2I.
TEST(Torque, TurnsAFreeBodyAsTauTSquaredOverTwoIUnderRK4) {
  Model model(2);
  const BodyId disc = addFreeDisc(model);
  model.addForce(std::make_unique<Torque>(disc, kTorque));
  Simulator sim(model, accelerationLevel(1e-2));
  for (int i = 0; i < 100; ++i) sim.step();
  const double t = sim.diagnostics().time;
  EXPECT_NEAR(angleOf(model, disc), 0.5 + kTorque * t * t / (2 * kInertia), 1e-12);
  EXPECT_NEAR(model.velocities(disc)[2], kTorque * t / kInertia, 1e-12);
  EXPECT_NEAR(model.coordinates(disc)[0], 0.3, 1e-15);  // a couple does not push the centre
  // E = ½ I ω² − τ (θ − 0) changes only by the work the torque does, which V = −τ θ counts.
  const double E0 = -kTorque * 0.5;
  EXPECT_NEAR(sim.diagnostics().totalEnergy(), E0, 1e-12);
}

// Symplectic Euler (the velocity level): ω_k = k h τ/I, θ_N = θ₀ + h² (τ/I) N(N+1)/2.
TEST(Torque, TurnsAFreeBodyAsSymplecticEulerSaysAtTheVelocityLevel) {
  Model model(2);
  const BodyId disc = addFreeDisc(model);
  model.addForce(std::make_unique<Torque>(disc, kTorque));
  const double h = 1e-2;
  Simulator sim(model, velocityLevel(h, kSequentialBaumgarte));
  const int N = 50;
  for (int i = 0; i < N; ++i) sim.step();
  EXPECT_NEAR(angleOf(model, disc), 0.5 + h * h * kTorque / kInertia * N * (N + 1) / 2.0, 1e-12);
}

// A rod hinged at its end, horizontal, feels m g L/2 of gravity's torque about the hinge; a
// drive of exactly that, counter-clockwise, holds it still. Half of it lets the rod fall with
// half gravity's angular acceleration at the start, α = −(m g L/2) / 2 / (m L²/3): over N steps
// θ = α t²/2 under RK4, and α h² N(N+1)/2 under symplectic Euler (the velocity level).
TEST(Torque, HoldsAHingedRodAgainstGravity) {
  for (const auto& [name, settings] : everyFormulation(1e-3, 1e-3, false)) {
    SCOPED_TRACE(name);
    HingedRod held;
    const double gravityTorque = held.mass * kGravity * 0.5 * held.length;
    held.model.addForce(std::make_unique<Torque>(held.rod, gravityTorque));
    Simulator sim(held.model, settings);
    for (int i = 0; i < 1000; ++i) sim.step();
    EXPECT_NEAR(held.jointAngle(), 0.0, 1e-9);

    HingedRod half;
    half.model.addForce(std::make_unique<Torque>(half.rod, 0.5 * gravityTorque));
    Simulator falling(half.model, settings);
    const int steps = 10;
    for (int i = 0; i < steps; ++i) falling.step();
    const double t = steps * settings.dt;
    const double alpha = -0.5 * gravityTorque / half.hingeInertia();
    const bool symplecticEuler = settings.formulation == FormulationKind::Velocity;
    const double expected = 0.5 * alpha * t * t * (symplecticEuler ? (steps + 1.0) / steps : 1.0);
    EXPECT_NEAR(half.jointAngle(), expected, 1e-3 * std::abs(expected));
  }
}

// The rod swinging under gravity and a drive: E = T + m g y − τ θ is a constant of the motion.
// RK4's energy error per unit time is O(h⁴): halving h divides it by about 16.
TEST(Torque, EnergyWithTheTorquesPotentialIsConservedToFourthOrder) {
  auto drift = [](double h) {
    HingedRod rod;
    rod.model.addForce(std::make_unique<Torque>(rod.rod, 2.0));
    Simulator sim(rod.model, accelerationLevel(h));
    sim.refreshDiagnostics();
    const double E0 = sim.diagnostics().totalEnergy();
    const int steps = static_cast<int>(std::lround(2.0 / h));
    double worst = 0.0;
    for (int i = 0; i < steps; ++i) {
      sim.step();
      worst = std::max(worst, std::abs(sim.diagnostics().totalEnergy() - E0));
    }
    return worst;
  };
  const double coarse = drift(4e-3), fine = drift(2e-3);
  report("energy_drift_h4ms", coarse);
  report("energy_drift_h2ms", fine);
  EXPECT_LT(coarse, 1e-6);
  EXPECT_GT(coarse / fine, 12.0);  // 2⁴ = 16 in the limit
}

TEST(Torque, IsRefusedWhereThereIsNoFrameOrNoNumber) {
  Model flat(2);
  const BodyId p = flat.addParticle(1.0, Eigen::Vector2d(0, 0));
  EXPECT_THROW(
      {
        try {
          flat.addForce(std::make_unique<Torque>(p, 1.0));
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("acts on the orientation of"), std::string::npos) << e.what();
          throw;
        }
      },
      std::invalid_argument);
  const BodyId disc = addFreeDisc(flat);
  EXPECT_THROW(flat.addForce(std::make_unique<Torque>(disc, std::nan(""))), std::invalid_argument);
  EXPECT_THROW(flat.addForce(std::make_unique<Torque>(disc, std::numeric_limits<double>::infinity())), std::invalid_argument);
  Model space(3);
  const BodyId q = space.addParticle(1.0, Eigen::Vector3d(0, 0, 0));
  EXPECT_THROW(space.addForce(std::make_unique<Torque>(q, 1.0)), std::invalid_argument);
  EXPECT_EQ(flat.forceCount(), 0u);  // nothing half-added
}

TEST(Torque, IsReadAndWrittenByScenes) {
  const Scene scene = parseScene(R"({
    "bodies": [{"id": "crank", "type": "rigid", "mass": 1, "position": [0, 0],
                "shape": {"type": "box", "size": [0.1, 0.02]}}],
    "forces": [{"type": "torque", "body": "crank", "torque": 0.033}]})");
  const auto json = nlohmann::json::parse(writeScene(scene));
  EXPECT_EQ(json["forces"][0]["type"], "torque");
  EXPECT_EQ(json["forces"][0]["body"], "crank");
  EXPECT_EQ(json["forces"][0]["torque"].get<double>(), 0.033);
  const Scene again = parseScene(json.dump());
  int torques = 0;
  for (std::size_t i = 0; i < again.model.forceCount(); ++i) {
    if (const auto* torque = dynamic_cast<const Torque*>(&again.model.force(again.model.forceAt(i)))) {
      EXPECT_EQ(torque->torque(), 0.033);
      ++torques;
    }
  }
  EXPECT_EQ(torques, 1);
}

}  // namespace
}  // namespace tinkertoy::test
