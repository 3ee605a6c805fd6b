// Factorization: a direct factorization of A = J W Jᵀ + S (solvers/constraint_matrix.hpp) that
// DirectSolver drives, in three parts with different lifetimes:
//
//   analyze(A)       once per layout of J and W (bodies or constraints added or removed): the
//                    ordering, the symbolic factorization and the assembly plan
//   factorize(A)     once per matrix the solver chooses to factor: the numeric factorization,
//                    throwing SingularSystemError naming the row at a zero pivot
//   solveInPlace(x)  any number of times: x ← A_f⁻¹ x with the matrix A_f last factorized
//
// The implementations (docs/theory.md, "Solving for λ"):
//
//   SimplicialLdlt       Davis.s simplicial LDLᵀ of J W Jᵀ (SuiteSparse LDL): best where the
//                        factor is thin (chains, small models)
//   SupernodalCholesky   CHOLMOD's supernodal LLᵀ of J W Jᵀ in a nested-dissection ordering,
//                        dense blocks through BLAS: best where the factor is wide (grids)
//   TreeFactorization    Baraff's LDLᵀ of the primal–dual matrix [M Jᵀ; J −S] in a tree
//                        ordering: linear time on any forest, loops closed through a small dense
//                        Schur complement; never forms J W Jᵀ, so a body shared by many joints
//                        (a star) costs no dense block
//
//   SimplicialLdlt f;
//   f.analyze(A);
//   f.factorize(A);
//   Eigen::VectorXd x = b;
//   f.solveInPlace(x);
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string_view>

#include "tinkertoy/solvers/constraint_matrix.hpp"

namespace tinkertoy {

class StateArchive;

// Which factorization a direct solve uses; Automatic picks by the model's structure and size
// (makeFactorization).
enum class FactorizationKind { Automatic, Simplicial, Supernodal, Tree };

// Floating-point operations of one numeric factorization and of one solve with it, counted from
// the symbolic analysis: what DirectSolver weighs a refactorization against.
struct FactorizationCost {
  double factorize = 0.0;
  double solve = 0.0;
};

class Factorization {
 public:
  virtual ~Factorization() = default;
  [[nodiscard]] virtual FactorizationKind kind() const = 0;
  // Prepares for the block layout of A's J and W.
  virtual void analyze(const ConstraintMatrix& A) = 0;
  // Factors A (same layout as analyzed). Throws SingularSystemError at a zero pivot.
  virtual void factorize(const ConstraintMatrix& A) = 0;
  // x ← A_f⁻¹ x.  x: [m]
  virtual void solveInPlace(Eigen::VectorXd& x) = 0;
  [[nodiscard]] virtual FactorizationCost cost() const = 0;
  // diag(A) of the matrix the last factorize() assembled, where the factorization keeps it
  // (then true); false where it does not. d: [m]
  virtual bool factoredDiagonal(Eigen::VectorXd& /*d*/) const { return false; }
  // The numeric factor of the last factorize(), saved or restored (Simulator::saveState); a
  // restore needs the same layout analyzed, and leaves solveInPlace() as it was when saved.
  virtual void serialize(StateArchive& archive) = 0;
};

// "auto" / "simplicial" / "supernodal" / "tree", as scenes and the command line spell them.
std::string_view factorizationName(FactorizationKind kind);
std::optional<FactorizationKind> parseFactorization(std::string_view name);

}  // namespace tinkertoy
