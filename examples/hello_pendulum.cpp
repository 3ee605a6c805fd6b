// The README's library examples, in order: a pendulum released horizontally and stepped for
// one second, then a reduced two-link chain with a weight on a rod added between steps (a
// hybrid model) and one more second, then a rigid rod on a hinge at the velocity level. It is
// built against the installed CMake package by the `package` test.
#include <cmath>
#include <cstdio>
#include <tinkertoy/tinkertoy.hpp>

int main() {
  tinkertoy::Model model(2);
  auto bob = model.addParticle(1.0, Eigen::Vector2d(1, 0));
  model.addForce(std::make_unique<tinkertoy::Gravity>(Eigen::Vector2d(0, -9.81)));
  auto rod = model.addConstraint(
      std::make_unique<tinkertoy::DistanceConstraint>(bob, Eigen::Vector2d(0, 0), 1.0));

  tinkertoy::Simulator sim(model, {.dt = 1e-3, .integrator = tinkertoy::IntegratorKind::RungeKutta4});
  for (int i = 0; i < 1000; ++i) sim.step();
  const double tension = -sim.lambda(rod)[0];
  const double error = sim.diagnostics().constraintError;
  std::printf("t = %.3f s: bob at (%.6f, %.6f), rod tension %.4f N, |C| = %.2e\n", model.time(),
              model.position(bob)[0], model.position(bob)[1], tension, error);

  auto arm = model.addBody(std::make_unique<tinkertoy::Chain>(Eigen::Vector2d(2, 0),
                               std::vector<double>{1.0, 1.0}, std::vector<double>{1.0, 1.0}),
                           Eigen::Vector2d(0.5, 1.0));
  tinkertoy::BodyPoint tip{arm, 1};
  auto weight = model.addParticle(0.5, model.position(tip) - Eigen::Vector2d(0, 0.5));
  model.addConstraint(std::make_unique<tinkertoy::DistanceConstraint>(tip, weight, 0.5));
  for (int i = 0; i < 1000; ++i) sim.step();
  const double hybridError = sim.diagnostics().constraintError;
  std::printf("t = %.3f s: chain tip at (%.6f, %.6f), weight at (%.6f, %.6f), |C| = %.2e\n", model.time(),
              model.position(tip)[0], model.position(tip)[1], model.position(weight)[0],
              model.position(weight)[1], hybridError);

  tinkertoy::Model machine(2);
  machine.addForce(std::make_unique<tinkertoy::Gravity>(Eigen::Vector2d(0, -9.81)));
  const auto plank = tinkertoy::Shape::box(1.0, 0.05);
  auto bar = machine.addBody(std::make_unique<tinkertoy::RigidBody>(1.0, plank.inertia(1.0), plank),
                             Eigen::Vector3d(0.5, 0, 0));  // x, y, θ
  auto hinge = machine.addConstraint(std::make_unique<tinkertoy::RevoluteJoint>(
      tinkertoy::JointConnection{.a = {bar, Eigen::Vector2d(-0.5, 0)}, .ground = Eigen::Vector2d(0, 0)}));
  tinkertoy::SimulationSettings settings{.dt = 1.0 / 60, .formulation = tinkertoy::FormulationKind::Velocity};
  settings.solver.kind = tinkertoy::SolverKind::SparseLdlt;
  settings.velocity.substeps = 4;
  settings.velocity.positionCorrection = tinkertoy::PositionCorrection::Projection;
  tinkertoy::Simulator rigid(machine, settings);
  for (int i = 0; i < 60; ++i) rigid.step();
  const Eigen::VectorXd pull = rigid.reaction(hinge).force;  // N, on the bar at the hinge
  const double rigidError = rigid.diagnostics().constraintError;
  std::printf("t = %.3f s: bar angle %.4f rad, hinge force (%.3f, %.3f) N, |C| = %.2e\n", machine.time(),
              machine.coordinates(bar)[2], pull[0], pull[1], rigidError);

  // Then a motor lifts the bar until an upper limit of 0.5 rad stops it (rows 2 → 4).
  machine.editConstraint<tinkertoy::RevoluteJointSettings>(hinge, [](auto& s) {
    s.motor = tinkertoy::JointMotor{.speed = 2.0, .maxForce = 10.0};  // rad/s, N·m
    s.limits = {.lower = -3.5, .upper = 0.5};                         // rad from the reference angle
  });
  for (int i = 0; i < 240; ++i) rigid.step();
  const double lifted = machine.coordinates(bar)[2];
  std::printf("t = %.3f s: motor on, bar angle %.6f rad (upper limit 0.5)\n", machine.time(), lifted);
  return error < 1e-8 && hybridError < 1e-8 && rigidError < 1e-10 && std::abs(lifted - 0.5) < 1e-6 ? 0 : 1;
}
