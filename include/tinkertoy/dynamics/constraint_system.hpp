// ConstraintSystem: the global constraint vectors and block-sparse matrices of a model.
//
// build() lays out the rows (constraint k owns rows [rowOffset(k), rowOffset(k) + rows_k))
// and reserves one block of J and one of J̇ for every (constraint, particle) pair, at
// column offsetOf(particle) (seed 000 §4.3). evaluate() then loops over the constraints and
// lets each fill its slice of the vectors and its blocks (seed 000 §4.5):
//
//   C    [m]        Ċ  [m]        Ctt [m]  (d(∂C/∂t)/dt)
//   J    [m × n]    J̇  [m × n]    block-sparse, same layout
//
//   ConstraintSystem system;
//   system.build(model);
//   system.evaluate(model, StateView{model.time(), model.q(), model.v()});
//   double error = system.value().lpNorm<Eigen::Infinity>();
#pragma once

#include <Eigen/Core>
#include <array>
#include <vector>

#include "tinkertoy/math/block_sparse_matrix.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/model/state_view.hpp"

namespace tinkertoy {

class ConstraintSystem {
 public:
  // Lays out rows and reserves blocks for the model's current constraints and particles.
  void build(const Model& model);
  // Evaluates every constraint at `state`.
  void evaluate(const Model& model, const StateView& state);

  [[nodiscard]] Eigen::Index rows() const { return jacobian_.rows(); }
  [[nodiscard]] const Eigen::VectorXd& value() const { return C_; }
  [[nodiscard]] const Eigen::VectorXd& velocity() const { return Cdot_; }
  [[nodiscard]] const Eigen::VectorXd& timeTerm() const { return Ctt_; }
  [[nodiscard]] const BlockSparseMatrix& jacobian() const { return jacobian_; }
  [[nodiscard]] const BlockSparseMatrix& jacobianDot() const { return jacobianDot_; }

  // First row of the constraint at dense index k.
  [[nodiscard]] Eigen::Index rowOffset(std::size_t k) const { return entries_[k].row; }
  // Dense index of the constraint that owns `row`.
  [[nodiscard]] std::size_t constraintOfRow(Eigen::Index row) const;

 private:
  struct Entry {
    Eigen::Index row = 0;
    std::size_t count = 0;                                        // particles touched
    std::array<std::size_t, kMaxConstraintParticles> stateOffset{};  // offset in q
    std::array<std::size_t, kMaxConstraintParticles> blockOffset{};  // offset in J values
  };

  std::vector<Entry> entries_;
  BlockSparseMatrix jacobian_, jacobianDot_;
  Eigen::VectorXd C_, Cdot_, Ctt_;
};

}  // namespace tinkertoy
