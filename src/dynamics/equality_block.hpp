// EqualityBlock: the equality rows of a constraint system as a matrix of their own, J_E, for the
// velocity level's global solve (docs/theory.md §12): every substep
//
//   J_E W J_Eᵀ δ = −(J_E v + b_E),   v += W J_Eᵀ δ,   λ_E += δ
//
// with a LinearSolver (LDLᵀ or CG) in place of sequential impulses, and likewise δ = −C_E for
// the Gauss–Newton position projection. Each constraint's equality rows lead its rows, so
// J_E's blocks are the top rows of J's, copied by gather().
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/math/block_diagonal_matrix.hpp"
#include "tinkertoy/solvers/constraint_matrix.hpp"
#include "tinkertoy/solvers/linear_solver.hpp"

namespace tinkertoy {

class EqualityBlock {
 public:
  // W: the inverse mass matrix the solves use, which must outlive this block.
  EqualityBlock(const SolverSettings& settings, const BlockDiagonalMatrix& W)
      : solver_(makeLinearSolver(settings)), W_(W), matrix_(J_, W) {}

  // Lays out J_E for the system's current layout.
  void build(const ConstraintSystem& system);
  // Copies the equality rows of the evaluated J into J_E.
  void gather(const ConstraintSystem& system);

  [[nodiscard]] Eigen::Index rows() const { return J_.rows(); }
  // The system row of J_E's row i.
  [[nodiscard]] Eigen::Index systemRow(Eigen::Index i) const { return systemRows_[static_cast<std::size_t>(i)]; }
  // out = J_E x.  x: [n], out: [rows()]
  void multiply(const Eigen::VectorXd& x, Eigen::VectorXd& out) const { J_.multiply(x, out); }
  // Solves J_E W J_Eᵀ δ = rhs (δ is the warm start on entry) and adds W J_Eᵀ δ to target.
  SolveStats solveAndApply(const Eigen::VectorXd& rhs, Eigen::VectorXd& delta, Eigen::VectorXd& target);
  // Solves J_E W J_Eᵀ δ = rhs and writes the displacement W J_Eᵀ δ [n] it calls for.
  SolveStats solveForDisplacement(const Eigen::VectorXd& rhs, Eigen::VectorXd& delta, Eigen::VectorXd& displacement);

 private:
  struct Copy {
    std::size_t from, to, count;  // values of a block's leading rows
  };

  std::unique_ptr<LinearSolver> solver_;
  const BlockDiagonalMatrix& W_;
  BlockSparseMatrix J_;
  ConstraintMatrix matrix_;
  std::vector<Copy> copies_;
  std::vector<Eigen::Index> systemRows_;
  Eigen::VectorXd JtDelta_, WJtDelta_;  // [n] scratch
};

}  // namespace tinkertoy
