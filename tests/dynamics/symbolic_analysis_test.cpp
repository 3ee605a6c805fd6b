// The symbolic analysis of J W Jᵀ (ordering, elimination tree, assembly plan) runs once per
// layout of J and W: when the simulator is built and after bodies or constraints are added or
// removed, never in an ordinary step or after an edit of values.
#include <gtest/gtest.h>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"

namespace tinkertoy {
namespace {

struct Case {
  const char* name;
  FormulationKind formulation;
  SolverKind solver;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class SymbolicAnalysis : public testing::TestWithParam<Case> {};

// A chain of 10 particles hanging from a nail.
Model hangingChain(std::vector<BodyId>& particles) {
  Model model(2);
  for (int i = 1; i <= 10; ++i) particles.push_back(model.addParticle(1.0, Eigen::Vector2d(0.5 * i, 0.0)));
  model.addConstraint(std::make_unique<DistanceConstraint>(particles[0], Eigen::Vector2d(0, 0), 0.5));
  for (std::size_t i = 1; i < particles.size(); ++i) {
    model.addConstraint(std::make_unique<DistanceConstraint>(particles[i - 1], particles[i], 0.5));
  }
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0, -9.81)));
  return model;
}

TEST_P(SymbolicAnalysis, RunsOncePerLayout) {
  std::vector<BodyId> particles;
  Model model = hangingChain(particles);
  SimulationSettings settings{.dt = 1e-3, .formulation = GetParam().formulation};
  settings.solver.kind = GetParam().solver;
  Simulator sim(model, settings);
  EXPECT_EQ(sim.diagnostics().analyses, 1) << "the simulator analyzes its first layout";

  int analyses = 0;
  auto stepTimes = [&](int n) {
    analyses = 0;
    for (int i = 0; i < n; ++i) {
      sim.step();
      analyses += sim.diagnostics().analyses;
    }
  };
  stepTimes(20);
  EXPECT_EQ(analyses, 0) << "ordinary steps reuse the analysis";
  EXPECT_GT(sim.diagnostics().solves, 0);

  model.setMass(particles[3], 2.5);  // values change, the layout does not
  model.setVelocity(particles[9], Eigen::Vector2d(0.0, 1.0));
  stepTimes(5);
  EXPECT_EQ(analyses, 0) << "an edit of values keeps the analysis";

  const ConstraintId tie =
      model.addConstraint(std::make_unique<DistanceConstraint>(particles[9], Eigen::Vector2d(5.0, -0.2), 0.3));
  stepTimes(5);
  EXPECT_EQ(analyses, 1) << "an added constraint changes the layout once";

  model.removeConstraint(tie);
  model.removeBody(particles[9]);
  stepTimes(5);
  EXPECT_EQ(analyses, 1) << "two removals before a step are one new layout";
}

INSTANTIATE_TEST_SUITE_P(
    EveryGlobalSolve, SymbolicAnalysis,
    testing::Values(Case{"AccelerationCg", FormulationKind::Acceleration, SolverKind::ConjugateGradient},
                    Case{"AccelerationLdlt", FormulationKind::Acceleration, SolverKind::SparseLdlt},
                    Case{"VelocityLdlt", FormulationKind::Velocity, SolverKind::SparseLdlt}),
    [](const testing::TestParamInfo<Case>& c) { return std::string(c.param.name); });

}  // namespace
}  // namespace tinkertoy
