// InverseMass: W = M(q)⁻¹ of a model at a state (docs/theory.md, "The block-sparse Jacobian").
//
// M is block-diagonal with one block per body, so W is too: W_b = M_b(q_b)⁻¹. A particle's
// block is m⁻¹ I: diagonal and the same at every configuration (a body with a diagonal mass
// matrix always has a constant one), so it is computed only after build() or invalidate(),
// i.e. once per step. A parametric body's block is the inverse of its reduced mass matrix
// Jᵀ M J (Witkin, "Constrained Dynamics", eq. 13), which changes with the configuration, so update() recomputes it at
// every state the dynamics is evaluated at. A driven (static or kinematic) body's block is 0.
// Dense blocks are inverted through a Cholesky factorization; one that is not positive
// definite (a bead where its wire has zero speed, c'(u) = 0) throws SingularMassError naming
// the body.
//
//   InverseMass W;
//   W.build(model);
//   W.update(model, q);            // at every new configuration
//   W.invalidate();                // when masses may have changed (before each step)
//   W.matrix().multiply(Q, a);     // a = W Q
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <stdexcept>
#include <string>
#include <vector>

#include "tinkertoy/math/block_diagonal_matrix.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

class SingularMassError : public std::runtime_error {
 public:
  SingularMassError(const std::string& what, std::size_t body) : std::runtime_error(what), body_(body) {}
  // Dense index of the body whose mass matrix is singular.
  [[nodiscard]] std::size_t body() const { return body_; }

 private:
  std::size_t body_;
};

// What is wrong with a body's mass matrix M(q) at coordinates q, or "": not finite (its
// parametrization is not defined there: a formula curve's sqrt(u) at u < 0), or not positive
// definite (a bead where its curve stands still, c'(u) = 0), so that no W = M⁻¹ exists. The
// scene loader asks it at the initial state; InverseMass at every state it inverts.
std::string massMatrixProblem(const Body& body, BodyCoordinates q);

class InverseMass {
 public:
  // Lays out one block per body (after bodies were added or removed).
  void build(const Model& model);
  // Recomputes the configuration-dependent (dense) blocks at coordinates q [n], and the constant
  // ones too if they are stale.
  void update(const Model& model, const Eigen::VectorXd& q);
  // Marks the constant blocks stale, e.g. because a particle's mass was edited.
  void invalidate() { constantCurrent_ = false; }

  [[nodiscard]] const BlockDiagonalMatrix& matrix() const { return W_; }

  // ½ vᵀ M v over the bodies that move, at the configuration of the last update() (its q):
  // bodies with a diagonal mass from it in one vectorized sum, the others by their own formula.
  // Driven bodies count nothing. v: [n]
  [[nodiscard]] double kineticEnergy(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) const;

 private:
  void updateBlock(const Model& model, const Eigen::VectorXd& q, std::size_t body);

  BlockDiagonalMatrix W_;
  std::vector<std::size_t> dense_;                    // bodies whose mass depends on q
  Eigen::VectorXd massDiagonal_;                      // [n] M's diagonal for diagonal bodies, 0 elsewhere
  bool constantCurrent_ = false;                      // the diagonal blocks are up to date
  Eigen::MatrixXd M_;                                 // scratch, widest body × widest body
  std::vector<Eigen::LLT<Eigen::MatrixXd>> cholesky_;  // per body; used by dense blocks only
};

}  // namespace tinkertoy
