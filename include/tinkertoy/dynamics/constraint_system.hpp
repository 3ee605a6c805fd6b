// ConstraintSystem: the global constraint vectors and block-sparse matrices of a model.
//
// build() lays out the rows (constraint k owns rows [rowOffset(k), rowOffset(k) + rows_k))
// and reserves one block of J and one of J̇ for every (constraint, body) pair, at the body's
// columns (seed 000 §4.3): rows_k × n_b. evaluate() then loops over the constraints (seed 000
// §4.5): it gathers the position, velocity and Jacobian of each constraint point from its
// body, lets the constraint write C, Ċ, Ctt and its point gradients G_k, Ġ_k, and applies
// the chain rule into the body blocks (docs/theory.md §7):
//
//   J_b += G_k J_k            J̇_b += Ġ_k J_k + G_k J̇_k          J_k = ∂x_k/∂q_b
//
// For a particle J_k = I and J̇_k = 0, so its blocks are the gradients themselves.
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
  // Lays out rows and reserves blocks for the model's current constraints and bodies.
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
  // Where one point of a constraint lives.
  struct PointSlot {
    const Body* body = nullptr;   // valid until the model's structure changes
    Eigen::Index offset = 0;      // the body's slice of q and v
    int coordinates = 0;          // n_b
    int index = 0;                // the point's index on its body
    bool particle = false;        // J_k = I: gather straight from q and v
    std::size_t block = 0;        // which of the constraint's blocks is its body's
  };
  struct Entry {
    Eigen::Index row = 0;
    int rows = 0;
    std::size_t pointCount = 0;
    std::array<PointSlot, kMaxConstraintPoints> points{};
    std::array<std::size_t, kMaxConstraintPoints> blockOffset{};  // offset in J values
    std::array<int, kMaxConstraintPoints> blockWidth{};           // n_b of the block's body
  };

  // Adds G_k J_k into J_b and Ġ_k J_k + G_k J̇_k into J̇_b for point p of entry e.
  void applyChainRule(const Entry& e, std::size_t p, int dimension);

  std::vector<Entry> entries_;
  BlockSparseMatrix jacobian_, jacobianDot_;
  Eigen::VectorXd C_, Cdot_, Ctt_;
  // Per-evaluation scratch: the points of one constraint and its gradients G, Ġ [rows × points].
  std::array<PointKinematics, kMaxConstraintPoints> kinematics_;
  std::array<Eigen::Vector3d, kMaxConstraintPoints> positions_, velocities_;
  std::vector<Eigen::Vector3d> gradients_, gradientDots_;
};

}  // namespace tinkertoy
