// Shared pieces of the physics tests: settings, the simple pendulum, and the fixture that
// runs a test once per linear solver.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "physics/jacobi_elliptic.hpp"
#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy::test {

constexpr double kG = 9.81;

inline SimulationSettings settingsFor(SolverKind solver, double dt = 1e-3,
                                      IntegratorKind integrator = IntegratorKind::RungeKutta4) {
  SimulationSettings s;
  s.dt = dt;
  s.integrator = integrator;
  s.solver.kind = solver;
  return s;
}

inline std::string solverLabel(const ::testing::TestParamInfo<SolverKind>& info) {
  return std::string(solverName(info.param));
}

// A simple pendulum in the x–y plane: a bob on a rod of length L to the origin.
struct Pendulum {
  Model model{2};
  BodyId bob;
  ConstraintId rod;

  Pendulum(const Eigen::Vector2d& x, const Eigen::Vector2d& v, double mass = 1.0, double L = 1.0) {
    bob = model.addParticle(mass, x, v, "bob");
    rod = model.addConstraint(std::make_unique<DistanceConstraint>(bob, Eigen::Vector2d(0, 0), L), "rod");
    model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -kG)));
  }
};

// Exact solution of θ̈ = −(g/L) sin θ released from rest at θ₀ (θ from the downward
// vertical): sin(θ/2) = k sn(K(k) − ω₀ t, k), k = sin(θ₀/2), ω₀ = √(g/L); at t = 0 sn(K) = 1.
inline Eigen::Vector2d exactPendulum(double t, double theta0, double L) {
  const double k = std::sin(0.5 * theta0);
  const double K = std::comp_ellint_1(k);
  const double omega0 = std::sqrt(kG / L);
  const double theta = 2.0 * std::asin(k * jacobiElliptic(K - omega0 * t, k * k).sn);
  return {L * std::sin(theta), -L * std::cos(theta)};
}

// Runs a test once with each linear solver; physics/by_solver.cpp instantiates it.
class BySolver : public ::testing::TestWithParam<SolverKind> {};

}  // namespace tinkertoy::test

#define TINKERTOY_INSTANTIATE_BY_SOLVER()                                                           \
  INSTANTIATE_TEST_SUITE_P(Solvers, BySolver,                                                       \
                           ::testing::Values(SolverKind::ConjugateGradient, SolverKind::SparseLdlt), \
                           solverLabel)
