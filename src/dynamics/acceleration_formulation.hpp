// AccelerationFormulation: Witkin's method as a Formulation. Each step runs the chosen
// integrator over the derivative loop of AccelerationDynamics, then the optional projection
// onto C = 0, Ċ = 0 (docs/theory.md §§1–5). λ reported is that of the first stage: the solve
// at the state the step starts from. With RATTLE the step is RATTLE's own (dynamics/rattle.hpp),
// which ends on C = 0, Ċ = 0 without a projection; λ is its position stage's.
#pragma once

#include <optional>

#include "common/parallel_loop.hpp"
#include "tinkertoy/dynamics/acceleration_dynamics.hpp"
#include "tinkertoy/dynamics/formulation.hpp"
#include "tinkertoy/dynamics/projection.hpp"
#include "tinkertoy/dynamics/rattle.hpp"
#include "tinkertoy/integrators/integrator.hpp"

namespace tinkertoy {

class AccelerationFormulation final : public Formulation {
 public:
  AccelerationFormulation(const Model& model, const SimulationSettings& settings);

  void rebuild() override;
  void modelEdited() override { dynamics_.invalidateMasses(); }
  void step(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) override;
  [[nodiscard]] ConstraintSystem& constraints() override { return dynamics_.constraints(); }
  [[nodiscard]] const Eigen::VectorXd& lambda() const override { return lambda_; }
  [[nodiscard]] const Eigen::VectorXd& constraintForce() const override { return force_; }
  [[nodiscard]] const SolveTally& tally() const override { return dynamics_.tally(); }
  [[nodiscard]] long analyses() const override { return dynamics_.analyses(); }
  [[nodiscard]] const ProjectionTally& projectionTally() const override { return projectionTally_; }
  [[nodiscard]] bool evaluatedAtStepEnd() const override { return project_ || rattle_.has_value(); }

 private:
  // Forwards to the dynamics and keeps λ and Q̂ of the first call of a step.
  class FirstStageRecorder;

  const Model& model_;
  std::unique_ptr<ParallelLoop> parallel_;  // the step's threads beyond the caller's (none: 1)
  AccelerationDynamics dynamics_;
  std::optional<Integrator> integrator_;  // the explicit methods; or
  std::optional<Rattle> rattle_;          // RATTLE
  Projection projection_;
  bool project_;
  ProjectionTally projectionTally_;
  Eigen::VectorXd lambda_, force_;  // [m], [n]
};

}  // namespace tinkertoy
