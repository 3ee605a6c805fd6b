#include "dynamics/velocity_formulation.hpp"

#include <algorithm>
#include <cmath>

#include "tinkertoy/archive/state_archive.hpp"

namespace tinkertoy {

namespace {

// The velocity level needs J but never J̇; at the prediction, only C.
constexpr auto kJacobian = ConstraintSystem::Evaluation::WithoutJacobianDot;
constexpr auto kValues = ConstraintSystem::Evaluation::ValuesOnly;

// The contacts' surface and push, from the settings (dynamics/contact_solver.hpp).
ContactMaterial contactMaterial(const SimulationSettings& settings) {
  const PositionCorrection correction = settings.velocity.positionCorrection;
  return {.friction = settings.velocity.friction,
          .restitution = settings.velocity.restitution,
          .contactHertz = settings.velocity.contactHertz,
          .contactDampingRatio = settings.velocity.contactDampingRatio,
          .push = correction == PositionCorrection::SoftStep    ? ContactPush::Velocity
                  : correction == PositionCorrection::Baumgarte ? ContactPush::Position
                                                                : ContactPush::None,
          .warmStart = settings.velocity.warmStart,
          .solvedAsRows = settings.solver.kind != SolverKind::SequentialImpulses};
}

}  // namespace

VelocityFormulation::VelocityFormulation(const Model& model, const SimulationSettings& settings)
    : model_(model), settings_(settings), sequential_(settings.solver.kind == SolverKind::SequentialImpulses),
      sleeping_(settings.velocity.sleep && settings.velocity.collisions),
      parallel_(makeParallelLoop(settings.threads)) {
  system_.useThreads(parallel_.get());
  contacts_.useThreads(parallel_.get());
  contactFinder_.useThreads(parallel_.get());
  impulses_.useThreads(parallel_.get());
  if (!sequential_) global_.emplace(settings.solver);
}

void VelocityFormulation::rebuild() {
  // What the solvers learned in the layout before (warm-start impulses, active sets) goes to the
  // rows of the constraints that are still there.
  carry_.record(system_);
  carriedImpulses_ = impulses_.impulses();
  system_.build(model_);
  evaluatedAtEnd_ = false;  // the new layout holds no evaluation yet
  carry_.map(system_);
  inverseMass_.build(model_);
  applied_.build(model_);
  constraintWork_.build(model_);
  targets_.resize(system_.rows());
  meanVelocity_.setZero(model_.v().size());
  rowRates_.setZero(system_.rows());
  impulses_.build(system_, !sequential_);
  carry_.apply(carriedImpulses_, impulses_.impulses());
  if (global_) {
    global_->build(system_, inverseMass_.matrix(), carry_);
  }
  if (settings_.velocity.collisions) {
    contactFinder_.build(model_);
    contacts_.build(model_, contactMaterial(settings_));
  }
  if (sleeping_) islands_.build(model_, contacts_, contactFinder_, settings_.velocity);
  lambda_.setZero(system_.rows());
  force_.setZero(model_.q().size());
  pseudo_.setZero(model_.v().size());
  substepImpulses_.setZero(system_.rows());
  stageImpulses_.setZero(system_.rows());
  impulsesBeforeSolve_.setZero(system_.rows());
  velocityBeforeSolve_.setZero(model_.v().size());
  startVelocity_.setZero(model_.v().size());
  extrapolated_.setZero(model_.v().size());
  stageVelocity_.setZero(model_.v().size());
  for (SubstepStart& start : starts_) {  // sized now, so that a first split does not allocate
    start.q.setZero(model_.q().size());
    start.v.setZero(model_.v().size());
    start.impulses.setZero(system_.rows());
    if (sleeping_) start.islands = islands_;
  }
}

// J, C and Ċ at the end of the last substep are not saved: evaluating them again at the state
// restored gives the same numbers (a restored formulation starts with evaluatedAtEnd_ false).
void VelocityFormulation::serialize(StateArchive& archive) {
  const Eigen::Index m = system_.rows(), n = model_.v().size();
  archive.numbers(impulses_.impulses(), m);
  archive.numbers(stageImpulses_, m);
  archive.numbers(lambda_, m);
  archive.numbers(force_, n);
  if (global_) global_->serialize(archive);
  bool sameShapes = true;
  if (settings_.velocity.collisions) {
    // Where the bodies were at the search of the points carried on, and with which shapes.
    sameShapes = contactFinder_.serialize(archive);
    contacts_.serialize(archive, contactFinder_.searchedAt());
  }
  if (sleeping_) islands_.serialize(archive);
  if (archive.reading() && sleeping_) {
    contactFinder_.thaw();  // the sleepers' boxes are made again where the state puts them
    if (islands_.touchesSleeper(contacts_.points())) {
      throw StateError("the state file holds a contact being solved that touches a sleeping body");
    }
  }
  if (archive.reading()) evaluatedAtEnd_ = false;
  // A state saved with other shapes (before an edit of them, restored over it) is taken in as
  // that edit: its points are kept to warm the solver, but not carried on, and every island wakes.
  if (archive.reading() && !sameShapes) modelEdited();
}

void VelocityFormulation::modelEdited() {
  inverseMass_.invalidate();
  evaluatedAtEnd_ = false;
  if (settings_.velocity.collisions) {  // a shape, a mass, a surface, a filter
    contactFinder_.build(model_);
    contacts_.refresh(model_);
  }
  if (sleeping_) islands_.edited(model_, contacts_, contactFinder_);  // every island wakes
}

void VelocityFormulation::step(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) {
  tally_ = {};
  projectionTally_ = {};
  contactTally_ = {};
  work_ = {};
  const int substeps = settings_.velocity.substeps;
  if (settings_.velocity.positionCorrection == PositionCorrection::SoftStep) {
    for (int s = 0; s < substeps; ++s) softSubstep(time, q, v, h / substeps, s == 0 ? h : 0.0);
  } else {
    for (int s = 0; s < substeps; ++s) advance(time, q, v, h / substeps, 0);
  }
  if (sleeping_) {  // the islands at rest fall asleep, with the kinetic energy they still had
    work_[WorkSource::Sleep] += islands_.update(v, h, contacts_);
    contactTally_.asleep = islands_.asleepCount();
  }
}

// Box2D v3's soft step (docs/theory.md, "The soft step"), one substep of h: J, C, Ct and the effective
// masses at the substep's start; forces; a warm start; the soft passes toward C = 0; symplectic
// Euler; and the relax passes, with C carried to the new positions to first order,
// C ≈ C₀ + J (q − q₀) + Ct h. The substep ends evaluated at its final state, where the next
// substep (or the diagnostics) start.
void VelocityFormulation::softSubstep(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h, double step) {
  inverseMass_.update(model_, q);
  const BlockDiagonalMatrix& W = inverseMass_.matrix();
  const bool constrained = system_.rows() > 0;
  if (constrained) {
    if (!evaluatedAtEnd_) system_.evaluate({time, q, v}, kJacobian);
    current_ = system_.value();
    VelocityTargets::timeRate(system_, v, timeRate_);
    impulses_.prepare(system_, W, targets_);
    substepStart_ = q;
  }
  startVelocity_ = v;
  applied_.evaluate(model_, {time, q, v}, Q_);
  W.multiply(Q_, WQ_);
  v += h * WQ_;
  if (islands_.anyAsleep()) islands_.hold(v);
  const bool contacts = settings_.velocity.collisions;
  if (contacts) softContacts(time, q, v, h, step);
  if (constrained) {
    targets_.computeSoft(system_, current_, timeRate_, h, settings_.velocity, SoftPass::Solve);
    warmStart(v);
  }
  interleavedPasses(v, ImpulsePass::Velocity, ContactPass::Solve);
  q += h * v;
  time += h;
  if (contacts) contacts_.moved(v, h);
  tally_.add({2 * settings_.velocity.iterations, 0.0});
  if (constrained) {
    displacement_ = q - substepStart_;
    system_.jacobian().multiply(displacement_, substepC_);
    substepC_ += current_ + h * timeRate_;
    targets_.computeSoft(system_, substepC_, timeRate_, h, settings_.velocity, SoftPass::Relax);
  }
  interleavedPasses(v, ImpulsePass::Velocity, ContactPass::Relax);
  if (contacts) {
    contacts_.restitute(v);
    contacts_.bookWork(startVelocity_, v, work_);
  }
  if (!constrained) return;
  constraintWork_.add(system_, impulses_.impulses(), startVelocity_, v, work_);
  lambda_ = impulses_.impulses() / h;
  system_.jacobian().multiplyTransposed(lambda_, force_);
  system_.evaluate({time, q, v}, kJacobian);
  evaluatedAtEnd_ = true;
}

void VelocityFormulation::advance(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h, int depth) {
  const bool splittable = global_ && settings_.velocity.positionCorrection == PositionCorrection::Projection &&
                          depth < kMostSplits;
  const double start = time;
  if (splittable) {
    SubstepStart& saved = starts_[static_cast<std::size_t>(depth)];
    saved.q = q;
    saved.v = v;
    saved.impulses = impulses_.impulses();
    saved.work = work_;
    if (settings_.velocity.collisions) contacts_.keepPoints(saved.contacts);
    if (sleeping_) saved.islands = islands_;  // an island the substep wakes sleeps again if it is redone
  }
  const ProjectionResult result = substep(time, q, v, h);
  if (result.converged || result.stalled || !splittable) {
    if (global_ && settings_.velocity.positionCorrection == PositionCorrection::Projection) projectionTally_.add(result);
    return;
  }
  const SubstepStart& saved = starts_[static_cast<std::size_t>(depth)];
  time = start;
  q = saved.q;
  v = saved.v;
  impulses_.impulses() = saved.impulses;
  work_ = saved.work;
  if (settings_.velocity.collisions) contacts_.restorePoints(saved.contacts);
  if (sleeping_) islands_ = saved.islands;
  evaluatedAtEnd_ = false;
  projectionTally_.iterations += result.iterations;
  ++projectionTally_.splits;
  advance(time, q, v, h / 2, depth + 1);
  advance(time, q, v, h / 2, depth + 1);
}

ProjectionResult VelocityFormulation::substep(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) {
  inverseMass_.update(model_, q);
  const BlockDiagonalMatrix& W = inverseMass_.matrix();
  // C, its time rate and J at the substep's start, before the forces change v.
  if (system_.rows() > 0) {
    if (!evaluatedAtEnd_) system_.evaluate({time, q, v}, kJacobian);
    current_ = system_.value();
    VelocityTargets::timeRate(system_, v, timeRate_);
  }
  evaluatedAtEnd_ = false;

  // 1. Applied forces into the velocities (half of them with Verlet).
  const bool verlet = settings_.velocity.scheme == VelocityScheme::Verlet;
  startVelocity_ = v;
  kick(time, q, v, v, verlet ? 0.5 * h : h);

  // 2–3. Impulses that aim at C = 0 at the end of the substep (VelocityTargets), and the contacts'.
  const bool contacts = settings_.velocity.collisions;
  if (contacts) prepareContacts(time, q, v, h, h);
  // (The exact mode's solve bounces the points itself.)
  const bool restitute = contacts && !global_;
  if (contacts && system_.rows() == 0) {
    solvePasses(v, ImpulsePass::Velocity);
    if (restitute) contacts_.restitute(v);
  }
  if (system_.rows() > 0) {
    predicted_ = q + h * v;
    system_.evaluate({time + h, predicted_, v}, kValues);  // leaves J at q
    predictedC_ = system_.value();
    vStar_ = v;
    previousImpulses_ = impulses_.impulses();
    const double kinetic = verlet ? 0.0 : inverseMass_.kineticEnergy(model_, q, vStar_);
    solveImpulses(v, h);
    // Ideal constraint impulses do no work; a solve linearized at q whose passive rows add much
    // kinetic energy has met a motion too fast for its step (h|v| near a link's length, as in a
    // whipping cloth). Redo it linearized at the prediction, which cannot add energy there.
    // (Not with Verlet, whose symmetry the relinearization would break; holdPositions instead.
    // Not with contacts, whose push out of penetrations and bounces do work by design.)
    if (!verlet && !contacts && passiveWork(v) > 0.01 * kinetic + 1e-12) {
      v = vStar_;
      impulses_.impulses() = previousImpulses_;
      system_.evaluate({time + h, predicted_, v}, kJacobian);
      VelocityTargets::timeRate(system_, v, timeRate_);
      solveImpulses(v, h);
      ++tally_.relinearized;
    }
    if (verlet) holdPositions(time, q, v, h);
    if (restitute) contacts_.restitute(v);
    constraintWork_.add(system_, impulses_.impulses(), startVelocity_, v, work_);
    lambda_ = impulses_.impulses() / h;
    system_.jacobian().multiplyTransposed(lambda_, force_);
  }
  // The contacts' impulses do work as the rows' do (a bounce, friction, a push out of a penetration).
  if (contacts) contacts_.bookWork(startVelocity_, v, work_);

  // 4. Symplectic Euler, with Baumgarte's pseudo velocity in the positions only.
  q += h * v;
  const bool pushing = system_.rows() > 0 || (contacts && contacts_.pointCount() > 0);
  if (pushing && settings_.velocity.positionCorrection == PositionCorrection::Baumgarte) {
    pseudo_.setZero();
    solvePasses(pseudo_, ImpulsePass::Position);
    q += h * pseudo_;
  }
  time += h;

  // 5. Projection onto C = 0 at the new positions.
  ProjectionResult result;
  if (contacts && global_ && !contactFinder_.found().empty()) {
    // The exact mode: the joints and every manifold's gaps at once (GlobalVelocitySolve).
    const double speculative = 2.0 * contacts_.material().slop + contacts_.deepestPenetration();
    result = global_->project(system_, contacts_, contactFinder_, W, time, q, v, settings_.projection, speculative,
                              tally_);
    evaluatedAtEnd_ = true;
  } else if (system_.rows() > 0 && settings_.velocity.positionCorrection == PositionCorrection::Projection) {
    if (sequential_) {
      impulses_.projectPositions(system_, W, time, q, v, settings_.velocity.iterations,
                                 settings_.projection.tolerance);
    } else {
      result = global_->project(system_, W, time, q, v, settings_.projection, tally_);
      evaluatedAtEnd_ = true;
    }
  }
  // 6–7. Verlet's second half.
  if (verlet) velocityStage(time, q, v, h);
  return result;
}

void VelocityFormulation::kick(double time, const Eigen::VectorXd& q, const Eigen::VectorXd& forcesAt,
                               Eigen::VectorXd& v, double length) {
  applied_.evaluate(model_, {time, q, forcesAt}, Q_);
  inverseMass_.matrix().multiply(Q_, WQ_);
  v += length * WQ_;
  if (islands_.anyAsleep()) islands_.hold(v);
}

// The solve's targets are linear in v about the prediction q + h v*, so after it C(q + h v⁺)
// misses its target by the curvature of C times |h (v⁺ − v*)|²: O(h⁴) per substep, enough for a
// secular energy drift over long runs. Each further solve, with J where the first was made
// and the prediction updated to q + h v⁺, removes the miss's leading part (simplified Newton,
// contracting by about h |v| κ for constraints of curvature κ). The targets: an equality row
// keeps C(q); an inequality row the solve pushes (impulse > 0) lands on min(C(q), 0), and one
// it does not push must not cross below it. A solve that does not lower the miss is undone.
void VelocityFormulation::holdPositions(double time, const Eigen::VectorXd& q, Eigen::VectorXd& v, double h) {
  const std::span<const RowKind> kinds = system_.kinds();
  double previousMiss = INFINITY;
  for (int iteration = 0;; ++iteration) {
    predicted_ = q + h * v;
    system_.evaluate({time + h, predicted_, v}, kValues);  // keeps J
    predictedC_ = system_.value();
    const Eigen::VectorXd& impulses = impulses_.impulses();
    double miss = 0.0;
    for (Eigen::Index r = 0; r < predictedC_.size(); ++r) {
      double rowMiss = 0.0;
      switch (kinds[static_cast<std::size_t>(r)]) {
        case RowKind::Equality:
          rowMiss = std::abs(predictedC_[r] - current_[r]);
          break;
        case RowKind::Inequality: {
          const double floor = std::min(current_[r], 0.0);
          rowMiss = impulses[r] > 0.0 ? std::abs(predictedC_[r] - floor) : std::max(0.0, floor - predictedC_[r]);
          break;
        }
        case RowKind::Motor:
        case RowKind::Spring:
          break;
      }
      if (!(rowMiss <= miss)) miss = rowMiss;  // a NaN wins
    }
    if (miss <= settings_.projection.tolerance) return;
    if (!(miss < previousMiss)) {  // no better (or not finite): J at q is too far from where the bodies went
      if (iteration > 0) {
        v = velocityBeforeSolve_;
        impulses_.impulses() = impulsesBeforeSolve_;
      }
      return;
    }
    if (iteration == settings_.projection.maxIterations || miss > 0.5 * previousMiss) return;  // slow: keep it
    previousMiss = miss;
    velocityBeforeSolve_ = v;
    impulsesBeforeSolve_ = impulses;
    // J, W and the effective masses are those of the first solve; only the targets move.
    targets_.compute(system_, v, current_, timeRate_, predictedC_, h, settings_.velocity);
    solvePasses(v, ImpulsePass::Velocity);
  }
}

void VelocityFormulation::velocityStage(double time, const Eigen::VectorXd& q, Eigen::VectorXd& v, double h) {
  inverseMass_.update(model_, q);
  const BlockDiagonalMatrix& W = inverseMass_.matrix();
  // The forces at the substep's end, with the velocity there extrapolated from the start and the
  // middle, v(t + h) ≈ 2 v(t + h/2) − v(t) + O(h²): second order for velocity-dependent forces
  // too (drag, a parametric body's inertial term); forces that do not depend on v see no change.
  extrapolated_ = 2.0 * v - startVelocity_;
  stageVelocity_ = v;
  kick(time, q, extrapolated_, v, 0.5 * h);
  evaluatedAtEnd_ = false;  // Ċ changes with v below
  if (system_.rows() == 0) return;
  system_.evaluate({time, q, v}, kJacobian);
  VelocityTargets::timeRate(system_, v, timeRate_);
  Eigen::VectorXd& impulses = impulses_.impulses();
  substepImpulses_ = impulses;
  targets_.computeVelocityStage(system_, system_.value(), timeRate_, substepImpulses_, h);
  impulses_.prepare(system_, W, targets_);
  impulses = stageImpulses_;  // the last stage's impulses, a warm start like the substep's own
  warmStart(v);
  solvePasses(v, ImpulsePass::Velocity);
  constraintWork_.add(system_, impulses, stageVelocity_, v, work_);
  stageImpulses_ = impulses;
  // λ: both impulses over h; Q̂: the substep's along J at its start (already in force_) and the
  // stage's along J here.
  lambda_ = (substepImpulses_ + impulses) / h;
  system_.jacobian().multiplyTransposed(impulses, JtLambda_);
  force_ += JtLambda_ / h;
  impulses.swap(substepImpulses_);  // the substep's impulses warm-start the next substep
}

// The impulses changed v* into v⁺ = v* + W Jᵀ λ, and the kinetic energy by
//   ΔK = ½ (v⁺ − v*)ᵀ M (v⁺ + v*) = Σ_r λ_r J_r v̄,   v̄ = (v* + v⁺) / 2,
// row by row (J's columns of a kinematic body carry its prescribed velocity, which W leaves
// alone, so a row's term there is the work that body does through it). Motor and spring rows do
// work on purpose; the equality and inequality rows should do none, up to their bias towards
// C = 0. Their sum is what the energy safeguard weighs.
double VelocityFormulation::passiveWork(const Eigen::VectorXd& v) {
  meanVelocity_ = 0.5 * (vStar_ + v);
  system_.jacobian().multiply(meanVelocity_, rowRates_);
  const Eigen::VectorXd& lambda = impulses_.impulses();
  const std::span<const RowKind> kinds = system_.kinds();
  double work = 0.0;
  for (Eigen::Index r = 0; r < lambda.size(); ++r) {
    const RowKind kind = kinds[static_cast<std::size_t>(r)];
    if (kind == RowKind::Equality || kind == RowKind::Inequality) work += lambda[r] * rowRates_[r];
  }
  return work;
}

void VelocityFormulation::solveImpulses(Eigen::VectorXd& v, double h) {
  targets_.compute(system_, v, current_, timeRate_, predictedC_, h, settings_.velocity);
  impulses_.prepare(system_, inverseMass_.matrix(), targets_);
  warmStart(v);
  solvePasses(v, ImpulsePass::Velocity);
}

void VelocityFormulation::warmStart(Eigen::VectorXd& v) {
  Eigen::VectorXd& lambda = impulses_.impulses();
  if (!settings_.velocity.warmStart) {
    lambda.setZero();
    return;
  }
  system_.jacobian().multiplyTransposed(lambda, JtLambda_);
  inverseMass_.matrix().multiply(JtLambda_, warmStart_);
  v += warmStart_;
}

// One pass of the joints then one of the contacts, `iterations` times, so that each sees what the
// other did. Without contact points (or contacts) the joints' passes run in one call, which packs
// the velocities once.
void VelocityFormulation::interleavedPasses(Eigen::VectorXd& v, ImpulsePass pass, ContactPass contactPass) {
  const int iterations = settings_.velocity.iterations;
  const bool constrained = system_.rows() > 0;
  if (contacts_.pointCount() == 0) {
    if (constrained) impulses_.solve(v, pass, iterations);
    return;
  }
  for (int k = 0; k < iterations; ++k) {
    if (constrained) impulses_.solve(v, pass, 1);
    contacts_.solve(v, contactPass);
  }
}

void VelocityFormulation::solvePasses(Eigen::VectorXd& v, ImpulsePass pass) {
  const int iterations = settings_.velocity.iterations;
  if (settings_.velocity.collisions && global_ && contacts_.pointCount() > 0) {  // the exact mode
    global_->solveImpulses(system_, targets_, contacts_, inverseMass_.matrix(), impulses_.impulses(), v, impulses_,
                           iterations, tally_);
    return;
  }
  if (settings_.velocity.collisions && !global_) {
    interleavedPasses(v, pass, pass == ImpulsePass::Velocity ? ContactPass::Solve : ContactPass::Position);
    tally_.add({iterations, 0.0});
    return;
  }
  if (sequential_) {
    impulses_.solve(v, pass, iterations);
    tally_.add({iterations, 0.0});
    return;
  }
  if (system_.rows() == 0) return;  // the exact mode between contacts
  global_->solveImpulses(system_, inverseMass_.matrix(), targets_, pass, impulses_.impulses(pass), v, impulses_,
                         iterations, tally_);
}

}  // namespace tinkertoy
