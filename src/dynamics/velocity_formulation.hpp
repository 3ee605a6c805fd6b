// VelocityFormulation: the velocity level of seed 004 (dyn4j, Box2D) as a Formulation. Each
// step is split into substeps of h = dt / substeps (docs/theory.md, "The velocity-level step"):
//
//   1. v* = v + h W Q                         applied forces into the velocities
//   2. C, Ċ and J at (q, t) (those the last substep's projection left, if nothing was edited
//      since), and C at the predicted (q + h v*, t + h): the rows' targets (VelocityTargets);
//      warm start v* += W Jᵀ λ_previous
//   3. impulses λ so that J v⁺ meets each row's target within the row's impulse bounds
//      (sequential impulses, or GlobalVelocitySolve: one sparse solve with an active set),
//      v⁺ = v* + W Jᵀ λ; the targets aim at C = 0 at the end of the substep. If the passive
//      rows (equalities and inequalities, not motors or springs, and not counting what kinematic
//      bodies do through them) did positive work above 1 % of the kinetic energy, the motion was
//      too fast for the step's linearization at q, and the solve is redone linearized at the
//      prediction (counted in SolveTally::relinearized).
//   4. q += h v⁺                              symplectic Euler
//   5. position correction: none; Baumgarte, q += h u with J u = −β C / h solved by the same
//      solver (a pseudo velocity, forgotten afterwards); or projection onto C = 0
//
// The Verlet scheme (VelocityScheme::Verlet) makes it kick–drift–kick, RATTLE's at the velocity
// level (docs/theory.md, "The velocity-level step"):
//   1. v* = v + ½h W Q: half the forces
//   2–3. the impulse solve, then more solves with the same J and the prediction moved to
//      q + h v⁺ (holdPositions), until the equality rows keep C(q) and the inequality rows reach
//      or keep their floor to the projection tolerance (SHAKE's simplified Newton); a solve that
//      does not lower the miss is undone and the iteration stops. Symplectic Euler's energy
//      safeguard is not used: its relinearization would break the symmetry
//   4–5. q += h v⁺ and the position correction, as above
//   6. v += ½h W Q at the new (q, t + h), the forces evaluated with the end velocity estimated
//      as 2 v⁺ − v
//   7. the velocity stage at the new q (velocityStage): impulses, warm-started from the last
//      stage's, so that J v = −Ct on
//      the equality rows and the closed inequality rows, and motors at their speed within the
//      rest of their budget. The substep's own impulses stay the warm start of the next one;
//      λ reported is both impulses over h, Q̂ each along its own J.
//
// The soft step (PositionCorrection::SoftStep, sequential impulses only) has substeps of its own
// (softSubstep): J, C and Ct at the substep's start, forces, a warm start, soft passes toward
// C = 0 (each row an implicit damped spring at the joint frequency), symplectic Euler, and rigid
// relax passes without bias; no prediction, no safeguard (the springs do work by design).
//
// With the global solve and projection (the exact mode), a substep whose projection runs out of
// iterations while still converging moved too far for its linearization (a whip: bodies
// crossing a link's length in one substep); it is redone as two half substeps, and so on, up
// to kMostSplits halvings, so that the constraints hold at every step and only the violent
// moments cost more. A projection that stalls (constraints that cannot all hold) is not split:
// halving would not help. Both are counted in the diagnostics.
//
// Every solve's impulses are booked in the work ledger, row by row, from the velocities at the
// substep's (or the velocity stage's) start and after them (dynamics/constraint_work.hpp).
//
// λ reported is the last substep's impulse divided by h (with Verlet, both of its impulses): a
// force, comparable with the acceleration level's λ. With projection, each substep leaves the
// constraints evaluated at the state it returns, which the next substep starts from and the diagnostics read. The constant
// blocks of W, too, are kept from step to step until the model is edited.
#pragma once

#include <array>
#include <optional>

#include "common/parallel_loop.hpp"
#include "dynamics/constraint_work.hpp"
#include "dynamics/global_velocity_solve.hpp"
#include "dynamics/row_carry.hpp"
#include "dynamics/sleeping_islands.hpp"
#include "tinkertoy/dynamics/applied_forces.hpp"
#include "tinkertoy/dynamics/contact_solver.hpp"
#include "tinkertoy/dynamics/formulation.hpp"
#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/dynamics/velocity_targets.hpp"
#include "tinkertoy/dynamics/sequential_impulses.hpp"

namespace tinkertoy {

class VelocityFormulation final : public Formulation {
 public:
  VelocityFormulation(const Model& model, const SimulationSettings& settings);

  void rebuild() override;
  void modelEdited() override;
  void step(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) override;
  void serialize(StateArchive& archive) override;
  [[nodiscard]] ConstraintSystem& constraints() override { return system_; }
  [[nodiscard]] bool evaluatedAtStepEnd() const override { return evaluatedAtEnd_; }
  [[nodiscard]] const Eigen::VectorXd& lambda() const override { return lambda_; }
  [[nodiscard]] const Eigen::VectorXd& constraintForce() const override { return force_; }
  [[nodiscard]] const SolveTally& tally() const override { return tally_; }
  [[nodiscard]] long analyses() const override { return global_ ? global_->analyses() : 0; }
  [[nodiscard]] const ProjectionTally& projectionTally() const override { return projectionTally_; }
  [[nodiscard]] const WorkLedger& constraintWork() const override { return work_; }
  [[nodiscard]] const ContactTally& contactTally() const override { return contactTally_; }
  [[nodiscard]] std::vector<ContactReport> contacts() const override {
    return contacts_.reports(model_, islands_.points());
  }
  [[nodiscard]] std::span<const char> asleep() const override { return islands_.asleep(); }

 private:
  // One substep of h of the soft step.
  // `step` > 0 on a step's first substep: the contacts are found there, within what bodies can
  // close in a whole step, and carried through the others (ContactSolver::carry) while the
  // bodies barely move.
  void softSubstep(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h, double step);
  // A substep of h, redone as two halves if its projection does not converge (at most
  // kMostSplits - depth times more).
  void advance(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h, int depth);
  // One substep; what its projection did (a converged nothing without a global projection).
  ProjectionResult substep(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h);
  // v += length · W Q(time, q, forcesAt): the applied forces over `length`, evaluated with the
  // velocities forcesAt.
  void kick(double time, const Eigen::VectorXd& q, const Eigen::VectorXd& forcesAt, Eigen::VectorXd& v,
            double length);
  // The Verlet scheme's position stage: more solves with the same J and new predictions
  // C(q + h v⁺) until the equality rows keep their value, and the inequality rows reach or stay
  // above their floor, to the projection tolerance.
  void holdPositions(double time, const Eigen::VectorXd& q, Eigen::VectorXd& v, double h);
  // The Verlet scheme's end of a substep of h at (time, q): the second half of the forces and the
  // velocity stage (steps 6–7 above).
  void velocityStage(double time, const Eigen::VectorXd& q, Eigen::VectorXd& v, double h);
  // The targets from the system as evaluated (at q, or at the prediction) and timeRate_, a warm
  // start, and the impulses, updating v.
  void solveImpulses(Eigen::VectorXd& v, double h);
  // v += W Jᵀ λ with the last substep's impulses (or, without warm starting, λ = 0).
  void warmStart(Eigen::VectorXd& v);
  // The impulses of a pass: sequential passes or the global solve; with contacts, interleaved.
  void solvePasses(Eigen::VectorXd& v, ImpulsePass pass);
  // Each joint pass of kind `pass` followed by a contact pass of kind `contactPass`.
  void interleavedPasses(Eigen::VectorXd& v, ImpulsePass pass, ContactPass contactPass);
  // The soft step's contacts for a substep of h (at a step's first, `step` > 0 is the step):
  // found and prepared at the step's first substep, or carried on from the step before while no
  // body has moved far since their search; carried through the step's other substeps while no
  // body moves far in it, else found again.
  void softContacts(double time, const Eigen::VectorXd& q, Eigen::VectorXd& v, double h, double step);
  // The contacts at q for a substep of h, found within what bodies can close in `reach` seconds,
  // their rows prepared and warm-started into v.
  void prepareContacts(double time, const Eigen::VectorXd& q, Eigen::VectorXd& v, double h, double reach);
  // The contacts at (time, q, v) within what bodies can close in `reach` seconds; with sleeping
  // islands, those a moving body touches woken first (and the contacts found again with them).
  // (A woken body gets the substep's forces, h W Q, that hold() kept from it.)
  std::span<const BodyContact> findContacts(double time, const Eigen::VectorXd& q, Eigen::VectorXd& v, double h,
                                            double reach);
  // The work the equality and inequality rows' impulses did in taking vStar_ to v (J at the
  // state the impulses were solved at).
  double passiveWork(const Eigen::VectorXd& v);

  const Model& model_;
  SimulationSettings settings_;
  bool sequential_;
  bool sleeping_;  // settings_.velocity.sleep, with collisions
  std::unique_ptr<ParallelLoop> parallel_;  // the step's threads beyond the caller's (none: 1)
  ConstraintSystem system_;
  InverseMass inverseMass_;
  AppliedForces applied_;
  VelocityTargets targets_;
  SequentialImpulses impulses_;  // all rows, or with a global solve the spring rows only
  std::optional<GlobalVelocitySolve> global_;
  ContactFinder contactFinder_;  // with settings_.velocity.collisions only
  ContactSolver contacts_;
  SleepingIslands islands_;  // with sleeping_ only
  ContactTally contactTally_;
  SolveTally tally_;
  ProjectionTally projectionTally_;
  // The system holds J, C and Ċ at the state the last substep returned (its projection's last
  // evaluation), which is where the next one starts unless the model was edited.
  bool evaluatedAtEnd_ = false;
  bool carryContacts_ = false;  // this step's contacts are carried through its substeps (softSubstep)
  // Scratch: Q, W Q, Baumgarte's pseudo velocity, the predicted q + h v* and v*, Jᵀλ [n]; C at
  // the substep's start and at the prediction, and the previous substep's impulses [m].
  Eigen::VectorXd Q_, WQ_, pseudo_, predicted_, vStar_, JtLambda_, warmStart_;
  Eigen::VectorXd current_, timeRate_, predictedC_, previousImpulses_;
  Eigen::VectorXd substepImpulses_;  // the Verlet scheme: the substep's impulses during its velocity stage [m]
  Eigen::VectorXd stageImpulses_;    // and the last velocity stage's, its warm start [m]
  // holdPositions: v [n] and the impulses [m] before its last solve, to undo one that did not help.
  Eigen::VectorXd velocityBeforeSolve_, impulsesBeforeSolve_;
  // v at the substep's start (the impulses' work is measured from it) and, for Verlet, at its end
  // estimated, and before its velocity stage's kick [n].
  Eigen::VectorXd startVelocity_, extrapolated_, stageVelocity_;
  // The soft step's q at a substep's start and q − that [n], and C carried to the substep's end [m].
  Eigen::VectorXd substepStart_, displacement_, substepC_;
  ConstraintWork constraintWork_;
  WorkLedger work_;                  // what the impulses did in the last step, by ledger entry
  RowCarry carry_;                   // the warm starts' way across a rebuild
  Eigen::VectorXd carriedImpulses_;  // the impulses of the layout before a rebuild
  Eigen::VectorXd meanVelocity_, rowRates_;  // (v* + v⁺) / 2 [n] and J times it [m]: passiveWork()
  Eigen::VectorXd lambda_, force_;  // [m], [n]
  // The start of a substep, kept to redo it as halves: one per depth of splitting.
  struct SubstepStart {
    Eigen::VectorXd q, v, impulses;
    WorkLedger work;
    std::vector<ContactSolver::Point> contacts;  // the points whose impulses warm the substep
    SleepingIslands islands;                     // with sleeping_: who sleeps, and their points
  };
  static constexpr int kMostSplits = 5;
  std::array<SubstepStart, kMostSplits> starts_;
};

}  // namespace tinkertoy
