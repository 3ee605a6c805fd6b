// RowBlock: the rows of a constraint system that are not spring rows (equality, inequality and
// motor rows) as a matrix of their own, J_B, for the velocity level's global solves
// (docs/theory.md §12):
//
//   impulses     J_B W J_Bᵀ δ = −(J_B v + b_B),   v += W J_Bᵀ δ,   λ_B += δ
//   projection   J_B W J_Bᵀ δ = −C_B,             q += W J_Bᵀ δ
//
// with a LinearSolver (LDLᵀ or CG) in place of sequential impulses. The layout is fixed when
// built, so the solver analyzes it once; a row can still be left out of one solve with
// holdOut(), which zeroes its row of J_B and puts 1 on its diagonal (ConstraintMatrix's S), so
// that it reads δ_i = rhs_i, and the caller passes rhs_i = 0. That is how the solves keep an
// active set: an inequality row that is slack, a row whose impulse sits at a bound, a motor
// during the projection.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/math/block_diagonal_matrix.hpp"
#include "tinkertoy/solvers/constraint_matrix.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {

class RowBlock {
 public:
  // W: the inverse mass matrix the solves use, which must outlive this block.
  RowBlock(const SolverSettings& settings, const BlockDiagonalMatrix& W)
      : solver_(makeLinearSolver(settings)), W_(W), matrix_(J_, W, &shift_) {}

  // Lays out J_B for the system's current layout.
  void build(const ConstraintSystem& system);
  // Copies the selected rows of the evaluated J into J_B, every row taking part.
  void gather(const ConstraintSystem& system);
  // Leaves row i out of the solves until the next gather().
  void holdOut(Eigen::Index i);

  [[nodiscard]] Eigen::Index rows() const { return J_.rows(); }
  // The system row of J_B's row i.
  [[nodiscard]] Eigen::Index systemRow(Eigen::Index i) const { return rows_[static_cast<std::size_t>(i)].system; }
  // out = J_B x.  x: [n], out: [rows()]
  void multiply(const Eigen::VectorXd& x, Eigen::VectorXd& out) const { J_.multiply(x, out); }
  // Solves J_B W J_Bᵀ δ = rhs (δ is the warm start on entry) and adds W J_Bᵀ δ to target.
  SolveStats solveAndApply(const Eigen::VectorXd& rhs, Eigen::VectorXd& delta, Eigen::VectorXd& target);
  // Solves J_B W J_Bᵀ δ = rhs and writes the displacement W J_Bᵀ δ [n] it calls for.
  SolveStats solveForDisplacement(const Eigen::VectorXd& rhs, Eigen::VectorXd& delta, Eigen::VectorXd& displacement);

 private:
  struct Copy {
    std::size_t from, to, count;  // one row of one block: J.values() → J_B.values()
  };
  struct Row {
    Eigen::Index system;           // its row in the system
    std::size_t firstCopy, copies;  // its copies
  };

  std::unique_ptr<LinearSolver> solver_;
  const BlockDiagonalMatrix& W_;
  BlockSparseMatrix J_;
  Eigen::VectorXd shift_;  // S: 1 for the rows held out, else 0
  ConstraintMatrix matrix_;
  std::vector<Copy> copies_;
  std::vector<Row> rows_;
  Eigen::VectorXd JtDelta_, WJtDelta_;  // [n] scratch
};

}  // namespace tinkertoy
