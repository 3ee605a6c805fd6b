#include "tinkertoy/dynamics/constraint_system.hpp"

#include "common/parallel_loop.hpp"

#include <algorithm>
#include <cmath>

#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

namespace {

bool touchesADrivenBody(const Model& model, const Constraint& constraint) {
  const auto points = constraint.points();
  return std::any_of(points.begin(), points.end(), [&](const BodyPoint& p) { return model.body(p.body).isDriven(); });
}

}  // namespace

void ConstraintSystem::build(const Model& model) {
  const std::size_t count = model.constraintCount();
  dimension_ = model.dimension();
  bodies_ = &model.bodies();
  entries_.assign(count, Entry{});
  Eigen::Index rows = 0;
  int widest = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const ConstraintId id = model.constraintAt(k);
    entries_[k].blocks.row = rows;
    entries_[k].id = id;
    const Constraint& constraint = model.constraint(id);
    entries_[k].constraint = &constraint;
    // A constraint no body can move (a joint between two static bodies) gets no rows: in J W Jᵀ they
    // would be zero rows and columns (its error is measured apart: ImmovableConstraints).
    entries_[k].blocks.rows = model.isEnabled(id) && model.movesAny(constraint.points()) ? constraint.rows() : 0;
    rows += entries_[k].blocks.rows;
    widest = std::max(widest, entries_[k].blocks.rows);
  }
  jacobian_.reset(rows, model.q().size());
  jacobianDot_.reset(rows, model.q().size());
  kinds_.assign(static_cast<std::size_t>(rows), RowKind::Equality);
  parameters_.assign(static_cast<std::size_t>(rows), RowParameters{});
  workSources_.assign(static_cast<std::size_t>(rows), WorkSource::Impulses);
  allEquality_ = true;
  hasDrivenRows_ = false;
  for (std::size_t k = 0; k < count; ++k) {
    const Constraint& constraint = model.constraint(model.constraintAt(k));
    Entry& e = entries_[k];
    ConstraintBlocks& b = e.blocks;
    if (b.rows == 0) continue;  // disabled or immovable: no rows, no blocks
    const auto points = constraint.points();
    const bool drivenBody = touchesADrivenBody(model, constraint);
    for (int r = 0; r < b.rows; ++r) {
      const auto row = static_cast<std::size_t>(b.row + r);
      const RowKind kind = constraint.rowKind(r);
      kinds_[row] = kind;
      allEquality_ = allEquality_ && kind == RowKind::Equality;
      WorkSource source = constraint.workSource(r);
      if (drivenBody && source == WorkSource::Impulses) source = WorkSource::Driven;
      workSources_[row] = source;
      hasDrivenRows_ = hasDrivenRows_ || source == WorkSource::Driven;
    }
    e.pointCount = points.size();
    std::array<std::size_t, kMaxConstraintPoints> blockBody{};
    for (std::size_t p = 0; p < points.size(); ++p) {
      PointSlot& slot = e.points[p];
      const Body& body = model.body(points[p].body);
      slot.body = model.indexOf(points[p].body);
      slot.offset = static_cast<Eigen::Index>(model.offsetOf(points[p].body));
      slot.coordinates = body.coordinateCount();
      slot.site = points[p].site;
      slot.particle = body.coordinatesArePosition();
      // One block per distinct body: two points on one body share its block.
      const auto* found = std::find(blockBody.begin(), blockBody.begin() + b.count, slot.body);
      slot.block = static_cast<std::size_t>(found - blockBody.begin());
      if (slot.block == b.count) {
        blockBody[b.count] = slot.body;
        b.column[b.count] = slot.offset;
        b.width[b.count] = slot.coordinates;
        b.offset[b.count] = jacobian_.reserveBlock(b.row, slot.offset, b.rows, slot.coordinates);
        jacobianDot_.reserveBlock(b.row, slot.offset, b.rows, slot.coordinates);
        ++b.count;
      }
    }
    // A particle is written straight into its block unless another point shares the block.
    for (std::size_t p = 0; p < e.pointCount; ++p) {
      PointSlot& slot = e.points[p];
      const auto sharing = std::count_if(e.points.begin(), e.points.begin() + static_cast<std::ptrdiff_t>(e.pointCount),
                                         [&](const PointSlot& other) { return other.block == slot.block; });
      slot.direct = slot.particle && sharing == 1;
    }
  }
  C_.setZero(rows);
  Cdot_.setZero(rows);
  Ctt_.setZero(rows);
  sizeScratch(static_cast<std::size_t>(widest) * kMaxConstraintPoints);
  rowScratch_.assign(3 * static_cast<std::size_t>(widest), 0.0);
  rowParameterScratch_.assign(static_cast<std::size_t>(widest), RowParameters{});
}

void ConstraintSystem::evaluate(const StateView& state, Evaluation what) {
  if (what != Evaluation::ValuesOnly) jacobian_.setZero();
  if (what == Evaluation::Full) jacobianDot_.setZero();
  C_.setZero();
  Cdot_.setZero();
  Ctt_.setZero();
  const auto evaluateShare = [&](std::size_t begin, std::size_t end, int thread) {
    Scratch& scratch = scratch_[static_cast<std::size_t>(thread)];
    for (std::size_t k = begin; k < end; ++k) evaluateInto(state, k, what, scratch);
  };
  if (parallel_) {
    parallel_->run(entries_.size(), evaluateShare);
  } else {
    evaluateShare(0, entries_.size(), 0);
  }
}

void ConstraintSystem::useThreads(ParallelLoop* loop) {
  parallel_ = loop;
  sizeScratch(scratch_.empty() ? 0 : scratch_.front().gradients.size());
}

void ConstraintSystem::sizeScratch(std::size_t gradients) {
  scratch_.resize(parallel_ ? static_cast<std::size_t>(parallel_->threads()) : 1);
  for (Scratch& scratch : scratch_) {
    scratch.gradients.assign(gradients, Eigen::Vector4d::Zero());
    scratch.gradientDots.assign(gradients, Eigen::Vector4d::Zero());
  }
}

void ConstraintSystem::evaluate(const StateView& state, std::size_t k, Evaluation what) {
  const ConstraintBlocks& b = entries_[k].blocks;
  for (std::size_t i = 0; i < b.count; ++i) {
    const auto size = static_cast<std::size_t>(b.rows * b.width[i]);
    const auto first = static_cast<std::ptrdiff_t>(b.offset[i]);
    if (what != Evaluation::ValuesOnly) std::fill_n(jacobian_.values().begin() + first, size, 0.0);
    if (what == Evaluation::Full) std::fill_n(jacobianDot_.values().begin() + first, size, 0.0);
  }
  C_.segment(b.row, b.rows).setZero();
  Cdot_.segment(b.row, b.rows).setZero();
  Ctt_.segment(b.row, b.rows).setZero();
  evaluateInto(state, k, what, scratch_.front());
}

ConstraintInput ConstraintSystem::gather(const StateView& state, std::size_t k, int d, Scratch& s) const {
  const Entry& e = entries_[k];
  for (std::size_t p = 0; p < e.pointCount; ++p) {
    const PointSlot& slot = e.points[p];
    if (slot.particle) {  // its coordinates are its position
      const double* x = state.q.data() + slot.offset;
      const double* u = state.v.data() + slot.offset;
      s.positions[p] = {x[0], x[1], d == 3 ? x[2] : 0.0};
      s.velocities[p] = {u[0], u[1], d == 3 ? u[2] : 0.0};
      s.angles[p] = s.angularVelocities[p] = 0.0;
      continue;
    }
    PointKinematics& kin = s.kinematics[p];
    bodies_->at(slot.body).pointKinematics(slot.site, state.q.segment(slot.offset, slot.coordinates),
                                           state.v.segment(slot.offset, slot.coordinates), kin);
    s.positions[p] = kin.position;
    s.velocities[p] = kin.velocity;
    s.angles[p] = kin.oriented ? kin.angle : 0.0;
    s.angularVelocities[p] = kin.oriented ? kin.angularVelocity : 0.0;
  }
  return {state.time,
          d,
          {s.positions.data(), e.pointCount},
          {s.velocities.data(), e.pointCount},
          {s.angles.data(), e.pointCount},
          {s.angularVelocities.data(), e.pointCount}};
}

// C, Ċ and Ctt go straight into the system's zeroed vectors. With a Jacobian, a particle's gradients go straight into its
// zeroed block and the other points' into zeroed scratch, from which the chain rule adds them
// into their blocks; for values only, the gradients land in scratch that nobody reads.
void ConstraintSystem::evaluateConstraint(std::size_t k, const ConstraintInput& input, ConstraintOutput& output) const {
  try {
    entries_[k].constraint->evaluate(input, output);
  } catch (UndefinedConstraintError& e) {
    e.setConstraintIndex(k);
    throw;
  }
}

void ConstraintSystem::evaluateInto(const StateView& state, std::size_t k, Evaluation what, Scratch& scratch) {
  const Entry& e = entries_[k];
  const ConstraintBlocks& b = e.blocks;
  if (b.rows == 0) return;
  const ConstraintInput input = gather(state, k, dimension_, scratch);
  ConstraintOutput output(C_.data() + b.row, Cdot_.data() + b.row, Ctt_.data() + b.row, scratch.gradients.data(),
                          scratch.gradientDots.data(), parameters_.data() + b.row, b.rows);
  if (what == Evaluation::ValuesOnly) {
    evaluateConstraint(k, input, output);
    return;
  }
  const bool withJacobianDot = what == Evaluation::Full;
  const auto rows = static_cast<std::size_t>(b.rows);
  for (std::size_t p = 0; p < e.pointCount; ++p) {
    const PointSlot& slot = e.points[p];
    if (slot.direct) {
      double* J = jacobian_.values().data() + b.offset[slot.block];
      double* Jdot = withJacobianDot ? jacobianDot_.values().data() + b.offset[slot.block] : nullptr;
      output.writeDirectly(p, J, Jdot, b.width[slot.block]);
    } else {
      std::fill_n(scratch.gradients.begin() + static_cast<std::ptrdiff_t>(p * rows), rows, Eigen::Vector4d::Zero());
      std::fill_n(scratch.gradientDots.begin() + static_cast<std::ptrdiff_t>(p * rows), rows, Eigen::Vector4d::Zero());
    }
  }
  evaluateConstraint(k, input, output);
  for (std::size_t p = 0; p < e.pointCount; ++p) {
    if (!e.points[p].direct) applyChainRule(e, p, dimension_, withJacobianDot, scratch);
  }
}

Eigen::Vector4d ConstraintSystem::pointForce(const Model& /*model*/, const StateView& state, std::size_t k,
                                             std::size_t p, std::span<const double> lambda) {
  const ConstraintBlocks& b = entries_[k].blocks;
  Eigen::Vector4d force = Eigen::Vector4d::Zero();
  if (b.rows == 0) return force;
  const auto rows = static_cast<std::size_t>(b.rows);
  std::fill_n(rowScratch_.begin(), 3 * rows, 0.0);
  const std::size_t used = rows * entries_[k].pointCount;
  Scratch& scratch = scratch_.front();
  std::fill_n(scratch.gradients.begin(), used, Eigen::Vector4d::Zero());
  std::fill_n(scratch.gradientDots.begin(), used, Eigen::Vector4d::Zero());
  ConstraintOutput output(rowScratch_.data(), rowScratch_.data() + rows, rowScratch_.data() + 2 * rows,
                          scratch.gradients.data(), scratch.gradientDots.data(), rowParameterScratch_.data(), b.rows);
  evaluateConstraint(k, gather(state, k, dimension_, scratch), output);
  for (std::size_t r = 0; r < rows; ++r) force += lambda[r] * scratch.gradients[p * rows + r];
  return force;
}

void ConstraintSystem::applyChainRule(const Entry& e, std::size_t p, int dimension, bool withJacobianDot,
                                      const Scratch& scratch) {
  const PointSlot& slot = e.points[p];
  const ConstraintBlocks& b = e.blocks;
  const int width = b.width[slot.block];
  double* J = jacobian_.values().data() + b.offset[slot.block];
  double* Jdot = jacobianDot_.values().data() + b.offset[slot.block];
  for (int r = 0; r < b.rows; ++r) {
    const std::size_t at = p * static_cast<std::size_t>(b.rows) + static_cast<std::size_t>(r);
    const Eigen::Vector4d& G = scratch.gradients[at];
    const Eigen::Vector4d& Gdot = scratch.gradientDots[at];
    double* Jrow = J + static_cast<std::ptrdiff_t>(r * width);
    double* JdotRow = Jdot + static_cast<std::ptrdiff_t>(r * width);
    if (slot.particle) {  // J_k = I, J̇_k = 0
      for (int c = 0; c < dimension; ++c) Jrow[c] += G[c];
      if (withJacobianDot) {
        for (int c = 0; c < dimension; ++c) JdotRow[c] += Gdot[c];
      }
      continue;
    }
    const PointKinematics& k = scratch.kinematics[p];
    const Eigen::Vector3d g = G.head<3>();
    for (int c = 0; c < width; ++c) Jrow[c] += g.dot(k.jacobian.col(c));
    if (k.oriented) {  // Model rejects angle gradients on points without a frame
      for (int c = 0; c < width; ++c) Jrow[c] += G[3] * k.angleJacobian[c];
    }
    if (!withJacobianDot) continue;
    const Eigen::Vector3d gDot = Gdot.head<3>();
    for (int c = 0; c < width; ++c) JdotRow[c] += gDot.dot(k.jacobian.col(c)) + g.dot(k.jacobianDot.col(c));
    if (k.oriented) {
      for (int c = 0; c < width; ++c) JdotRow[c] += Gdot[3] * k.angleJacobian[c] + G[3] * k.angleJacobianDot[c];
    }
  }
}

double ConstraintSystem::violation(Eigen::Index row) const {
  return rowViolation(kinds_[static_cast<std::size_t>(row)], C_[row]);
}

double ConstraintSystem::velocityViolation(Eigen::Index row) const {
  return rowVelocityViolation(kinds_[static_cast<std::size_t>(row)], C_[row], Cdot_[row]);
}

// A NaN anywhere makes the maximum NaN, so the simulator's blow-up check sees it.
double ConstraintSystem::maxViolation() const {
  double worst = 0.0;
  for (Eigen::Index r = 0; r < rows(); ++r) {
    const double v = violation(r);
    if (std::isnan(v)) return v;
    worst = std::max(worst, v);
  }
  return worst;
}

double ConstraintSystem::maxVelocityViolation() const {
  double worst = 0.0;
  for (Eigen::Index r = 0; r < rows(); ++r) {
    const double v = velocityViolation(r);
    if (std::isnan(v)) return v;
    worst = std::max(worst, v);
  }
  return worst;
}

std::size_t ConstraintSystem::constraintOfRow(Eigen::Index row) const {
  const auto after = std::upper_bound(entries_.begin(), entries_.end(), row,
                                      [](Eigen::Index r, const Entry& e) { return r < e.blocks.row; });
  return static_cast<std::size_t>(after - entries_.begin()) - 1;
}

}  // namespace tinkertoy
