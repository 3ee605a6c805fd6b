#include "tinkertoy/dynamics/constraint_system.hpp"

#include <algorithm>

#include "tinkertoy/model/point.hpp"

namespace tinkertoy {

void ConstraintSystem::build(const Model& model) {
  const int d = model.dimension();
  const std::size_t count = model.constraintCount();
  entries_.assign(count, Entry{});
  Eigen::Index rows = 0;
  for (std::size_t k = 0; k < count; ++k) {
    entries_[k].row = rows;
    rows += model.constraint(model.constraintAt(k)).rows();
  }
  const auto columns = static_cast<Eigen::Index>(model.particleCount()) * d;
  jacobian_.reset(rows, columns);
  jacobianDot_.reset(rows, columns);
  for (std::size_t k = 0; k < count; ++k) {
    const Constraint& constraint = model.constraint(model.constraintAt(k));
    Entry& e = entries_[k];
    const auto particles = constraint.particles();
    e.count = particles.size();
    for (std::size_t p = 0; p < particles.size(); ++p) {
      e.stateOffset[p] = model.offsetOf(particles[p]);
      const auto column = static_cast<Eigen::Index>(e.stateOffset[p]);
      e.blockOffset[p] = jacobian_.reserveBlock(e.row, column, constraint.rows(), d);
      jacobianDot_.reserveBlock(e.row, column, constraint.rows(), d);
    }
  }
  C_.setZero(rows);
  Cdot_.setZero(rows);
  Ctt_.setZero(rows);
}

void ConstraintSystem::evaluate(const Model& model, const StateView& state) {
  const int d = model.dimension();
  jacobian_.setZero();
  jacobianDot_.setZero();
  C_.setZero();
  Cdot_.setZero();
  Ctt_.setZero();
  std::array<Eigen::Vector3d, kMaxConstraintParticles> positions;
  std::array<Eigen::Vector3d, kMaxConstraintParticles> velocities;
  double* J = jacobian_.values().data();
  double* Jdot = jacobianDot_.values().data();
  for (std::size_t k = 0; k < entries_.size(); ++k) {
    const Entry& e = entries_[k];
    for (std::size_t p = 0; p < e.count; ++p) {
      positions[p] = readPoint(state.q, e.stateOffset[p], d);
      velocities[p] = readPoint(state.v, e.stateOffset[p], d);
    }
    const ConstraintInput input{state.time, d, {positions.data(), e.count},
                                {velocities.data(), e.count}};
    ConstraintOutput output(C_.data() + e.row, Cdot_.data() + e.row, Ctt_.data() + e.row, J, Jdot,
                            e.blockOffset.data(), d);
    model.constraint(model.constraintAt(k)).evaluate(input, output);
  }
}

std::size_t ConstraintSystem::constraintOfRow(Eigen::Index row) const {
  const auto after = std::upper_bound(entries_.begin(), entries_.end(), row,
                                      [](Eigen::Index r, const Entry& e) { return r < e.row; });
  return static_cast<std::size_t>(after - entries_.begin()) - 1;
}

}  // namespace tinkertoy
