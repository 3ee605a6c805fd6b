// The README's library example: a pendulum released horizontally, stepped for one second.
// It is built against the installed CMake package by the `package` test.
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
  return error < 1e-8 ? 0 : 1;
}
