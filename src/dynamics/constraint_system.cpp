#include "tinkertoy/dynamics/constraint_system.hpp"

#include <algorithm>

#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

void ConstraintSystem::build(const Model& model) {
  const std::size_t count = model.constraintCount();
  entries_.assign(count, Entry{});
  Eigen::Index rows = 0;
  int widest = 0;
  for (std::size_t k = 0; k < count; ++k) {
    entries_[k].row = rows;
    entries_[k].rows = model.constraint(model.constraintAt(k)).rows();
    rows += entries_[k].rows;
    widest = std::max(widest, entries_[k].rows);
  }
  jacobian_.reset(rows, model.q().size());
  jacobianDot_.reset(rows, model.q().size());
  for (std::size_t k = 0; k < count; ++k) {
    const auto points = model.constraint(model.constraintAt(k)).points();
    Entry& e = entries_[k];
    e.pointCount = points.size();
    std::array<const Body*, kMaxConstraintPoints> blockBody{};
    std::size_t blocks = 0;
    for (std::size_t p = 0; p < points.size(); ++p) {
      PointSlot& slot = e.points[p];
      slot.body = &model.body(points[p].body);
      slot.offset = static_cast<Eigen::Index>(model.offsetOf(points[p].body));
      slot.coordinates = slot.body->coordinateCount();
      slot.index = points[p].index;
      slot.particle = slot.body->type() == "particle";
      // One block per distinct body: two points on one body share its block.
      const auto* found = std::find(blockBody.begin(), blockBody.begin() + blocks, slot.body);
      slot.block = static_cast<std::size_t>(found - blockBody.begin());
      if (slot.block == blocks) {
        blockBody[blocks++] = slot.body;
        e.blockWidth[slot.block] = slot.coordinates;
        e.blockOffset[slot.block] = jacobian_.reserveBlock(e.row, slot.offset, e.rows, slot.coordinates);
        jacobianDot_.reserveBlock(e.row, slot.offset, e.rows, slot.coordinates);
      }
    }
  }
  C_.setZero(rows);
  Cdot_.setZero(rows);
  Ctt_.setZero(rows);
  gradients_.assign(static_cast<std::size_t>(widest) * kMaxConstraintPoints, Eigen::Vector3d::Zero());
  gradientDots_ = gradients_;
}

void ConstraintSystem::evaluate(const Model& model, const StateView& state) {
  const int d = model.dimension();
  jacobian_.setZero();
  jacobianDot_.setZero();
  C_.setZero();
  Cdot_.setZero();
  Ctt_.setZero();
  for (std::size_t k = 0; k < entries_.size(); ++k) {
    const Entry& e = entries_[k];
    for (std::size_t p = 0; p < e.pointCount; ++p) {
      const PointSlot& slot = e.points[p];
      if (slot.particle) {
        positions_[p] = readPoint(state.q, static_cast<std::size_t>(slot.offset), d);
        velocities_[p] = readPoint(state.v, static_cast<std::size_t>(slot.offset), d);
      } else {
        slot.body->pointKinematics(slot.index, state.q.segment(slot.offset, slot.coordinates),
                                   state.v.segment(slot.offset, slot.coordinates), kinematics_[p]);
        positions_[p] = kinematics_[p].position;
        velocities_[p] = kinematics_[p].velocity;
      }
    }
    const std::size_t used = static_cast<std::size_t>(e.rows) * e.pointCount;
    std::fill_n(gradients_.begin(), used, Eigen::Vector3d::Zero());
    std::fill_n(gradientDots_.begin(), used, Eigen::Vector3d::Zero());
    const ConstraintInput input{state.time, d, {positions_.data(), e.pointCount},
                                {velocities_.data(), e.pointCount}};
    ConstraintOutput output(C_.data() + e.row, Cdot_.data() + e.row, Ctt_.data() + e.row,
                            gradients_.data(), gradientDots_.data(), e.rows);
    model.constraint(model.constraintAt(k)).evaluate(input, output);
    for (std::size_t p = 0; p < e.pointCount; ++p) applyChainRule(e, p, d);
  }
}

void ConstraintSystem::applyChainRule(const Entry& e, std::size_t p, int dimension) {
  const PointSlot& slot = e.points[p];
  const int width = e.blockWidth[slot.block];
  double* J = jacobian_.values().data() + e.blockOffset[slot.block];
  double* Jdot = jacobianDot_.values().data() + e.blockOffset[slot.block];
  for (int r = 0; r < e.rows; ++r) {
    const std::size_t at = p * static_cast<std::size_t>(e.rows) + static_cast<std::size_t>(r);
    const Eigen::Vector3d& G = gradients_[at];
    const Eigen::Vector3d& Gdot = gradientDots_[at];
    double* Jrow = J + static_cast<std::ptrdiff_t>(r * width);
    double* JdotRow = Jdot + static_cast<std::ptrdiff_t>(r * width);
    if (slot.particle) {  // J_k = I, J̇_k = 0
      for (int c = 0; c < dimension; ++c) {
        Jrow[c] += G[c];
        JdotRow[c] += Gdot[c];
      }
      continue;
    }
    const PointKinematics& k = kinematics_[p];
    for (int c = 0; c < width; ++c) {
      Jrow[c] += G.dot(k.jacobian.col(c));
      JdotRow[c] += Gdot.dot(k.jacobian.col(c)) + G.dot(k.jacobianDot.col(c));
    }
  }
}

std::size_t ConstraintSystem::constraintOfRow(Eigen::Index row) const {
  const auto after = std::upper_bound(entries_.begin(), entries_.end(), row,
                                      [](Eigen::Index r, const Entry& e) { return r < e.row; });
  return static_cast<std::size_t>(after - entries_.begin()) - 1;
}

}  // namespace tinkertoy
