// The N-four-bar (IFToMM MBS benchmark A02) reduced to one angle: with all cranks parallel (the
// windows stay parallelograms) the crank angle θ from +x describes the mechanism, and
//   T = ½ M θ̇²,  M = (N + 1) m L²/3 + N m L²     (cranks about their pivots, couplers translating)
//   V = K sin θ,  K = m g L ((N + 1)/2 + N)
// so M θ̈ = −K cos θ, from θ = π/2 with θ̇ = −1 rad/s (the first crank's tip moving at +1 m/s),
// for links of m = 1 kg and L = 1 m, integrated by RK4 at most 1e-5 s per step. The benchmark's
// reference for tests/physics/n_four_bar_test.cpp and bench/integrator_accuracy.cpp.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <numbers>

namespace tinkertoy {

struct NFourBarReference {
  static constexpr double kGravity = 9.81;  // m/s²

  explicit NFourBarReference(int windows)
      : M((windows + 1) / 3.0 + windows), K(kGravity * ((windows + 1) / 2.0 + windows)) {}

  void advance(double dt) {
    const int substeps = static_cast<int>(std::ceil(dt / 1e-5));
    const double h = dt / substeps;
    const auto accel = [&](double angle) { return -K * std::cos(angle) / M; };
    for (int s = 0; s < substeps; ++s) {
      const double k1 = rate, a1 = accel(theta);
      const double k2 = rate + 0.5 * h * a1, a2 = accel(theta + 0.5 * h * k1);
      const double k3 = rate + 0.5 * h * a2, a3 = accel(theta + 0.5 * h * k2);
      const double k4 = rate + h * a3, a4 = accel(theta + h * k3);
      theta += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
      rate += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    }
  }
  // The first crank's tip.
  [[nodiscard]] Eigen::Vector2d tip() const { return {std::cos(theta), std::sin(theta)}; }
  [[nodiscard]] double energy() const { return 0.5 * M * rate * rate + K * std::sin(theta); }

  double M, K;
  double theta = std::numbers::pi / 2, rate = -1.0;
};

}  // namespace tinkertoy
