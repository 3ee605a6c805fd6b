// AccelerationFormulation: Witkin's method as a Formulation. Each step runs the chosen
// integrator over the derivative loop of AccelerationDynamics, then the optional projection
// onto C = 0, Ċ = 0 (docs/theory.md, "Legal states and the multiplier equation", up to
// "Integrators"). λ reported is that of the first stage: the solve
// at the state the step starts from.
//
// With dopri5 the step is the output interval: DormandPrince takes its own steps across it,
// projects each accepted step's end and the interpolated state it returns, and λ is solved at
// that returned state (one more solve per output), so reactions and break checks see the
// present, not the start of a step that may span many outputs. With RATTLE the step is
// RATTLE's own (dynamics/rattle.hpp), which ends on C = 0, Ċ = 0 without a projection (a step
// whose position stage does not converge is redone as halves); λ is its position stage's.
#pragma once

#include <array>
#include <optional>

#include "common/parallel_loop.hpp"
#include "dynamics/constraint_work.hpp"
#include "tinkertoy/dynamics/acceleration_dynamics.hpp"
#include "tinkertoy/dynamics/formulation.hpp"
#include "tinkertoy/dynamics/projection.hpp"
#include "tinkertoy/dynamics/rattle.hpp"
#include "tinkertoy/integrators/dormand_prince.hpp"
#include "tinkertoy/integrators/integrator.hpp"

namespace tinkertoy {

class AccelerationFormulation final : public Formulation {
 public:
  AccelerationFormulation(const Model& model, const SimulationSettings& settings);

  void rebuild() override;
  void modelEdited() override;
  void step(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) override;
  void serialize(StateArchive& archive) override;
  [[nodiscard]] ConstraintSystem& constraints() override { return dynamics_.constraints(); }
  [[nodiscard]] const Eigen::VectorXd& lambda() const override { return lambda_; }
  [[nodiscard]] const Eigen::VectorXd& constraintForce() const override { return force_; }
  [[nodiscard]] const SolveTally& tally() const override { return dynamics_.tally(); }
  [[nodiscard]] long analyses() const override { return dynamics_.analyses(); }
  [[nodiscard]] const ProjectionTally& projectionTally() const override { return projectionTally_; }
  [[nodiscard]] const AdaptiveTally& adaptiveTally() const override { return adaptiveTally_; }
  [[nodiscard]] const WorkLedger& constraintWork() const override { return work_; }
  [[nodiscard]] bool evaluatedAtStepEnd() const override { return project_ || rattle_.has_value(); }

 private:
  // One RATTLE step of h, redone as two halves if its position stage does not converge (at most
  // kMostRattleSplits - depth times more).
  void rattleAdvance(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h, int depth);
  // Advances by h with the chosen integrator (and projection).
  void advance(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h);
  // The power of the driven rows at `state`, by ledger entry, from a solve there.
  WorkLedger drivenPower(const StateView& state);

  // Forwards to the dynamics and keeps λ and Q̂ of each step's first stage.
  class StepStartRecorder final : public AccelerationField {
   public:
    explicit StepStartRecorder(AccelerationFormulation& owner) : owner_(owner) {}
    void acceleration(const StateView& state, Eigen::VectorXd& a) override;
    void stepStart(const StateView& state, Eigen::VectorXd& a) override;

   private:
    AccelerationFormulation& owner_;
  };
  // Projects the states dopri5 accepts and returns.
  class ProjectingCorrector final : public StateCorrector {
   public:
    explicit ProjectingCorrector(AccelerationFormulation& owner) : owner_(owner) {}
    void correct(double time, Eigen::VectorXd& q, Eigen::VectorXd& v) override;

   private:
    AccelerationFormulation& owner_;
  };

  const Model& model_;
  std::unique_ptr<ParallelLoop> parallel_;  // the step's threads beyond the caller's (none: 1)
  AccelerationDynamics dynamics_;
  std::optional<Integrator> integrator_;  // the fixed-step explicit methods; or
  std::optional<DormandPrince> dopri_;    // dopri5; or
  std::optional<Rattle> rattle_;          // RATTLE
  Projection projection_;
  bool project_;
  StepStartRecorder recorder_{*this};
  ProjectingCorrector corrector_{*this};
  ProjectionTally projectionTally_;
  AdaptiveTally adaptiveTally_;
  Eigen::VectorXd lambda_, force_;  // [m], [n]
  Eigen::VectorXd outputAcceleration_;  // dopri5: a at the returned state [n], for its λ
  ConstraintWork constraintWork_;
  WorkLedger work_;         // the driven rows' work in the last step
  WorkLedger endPower_;     // and their power where it ended, the next step's start
  bool endPowerKnown_ = false;  // until an edit or a rebuild
  Eigen::VectorXd drivenAcceleration_;  // scratch a [n] of drivenPower()
  // RATTLE: the start of a step, kept to redo it as halves, one per depth of splitting.
  struct StepStart {
    Eigen::VectorXd q, v;
  };
  static constexpr int kMostRattleSplits = 6;
  std::array<StepStart, kMostRattleSplits> rattleStarts_;
};

}  // namespace tinkertoy
