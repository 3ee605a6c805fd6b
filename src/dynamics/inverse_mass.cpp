#include "tinkertoy/dynamics/inverse_mass.hpp"

#include <algorithm>

namespace tinkertoy {

void InverseMass::build(const Model& model) {
  W_.reset(model.q().size());
  int widest = 0;
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    const Body& body = model.body(id);
    W_.addBlock(static_cast<Eigen::Index>(model.offsetOf(id)), body.coordinateCount(),
                body.hasDiagonalMass() || body.isDriven(), body.isDriven());
    widest = std::max(widest, body.coordinateCount());
  }
  M_.resize(widest, widest);
  massDiagonal_.setZero(model.q().size());
  // Built in place: copying a default-constructed LLT reads its uninitialized status.
  cholesky_.clear();
  cholesky_.resize(model.bodyCount());
  dense_.clear();
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    if (!model.body(model.bodyAt(i)).hasDiagonalMass()) dense_.push_back(i);
  }
  constantCurrent_ = false;
}

void InverseMass::update(const Model& model, const Eigen::VectorXd& q) {
  if (!constantCurrent_) {
    for (std::size_t i = 0; i < model.bodyCount(); ++i) updateBlock(model, q, i);
    constantCurrent_ = true;
    return;
  }
  for (const std::size_t i : dense_) updateBlock(model, q, i);
}

std::string massMatrixProblem(const Body& body, BodyCoordinates q) {
  const int n = body.coordinateCount();
  Eigen::MatrixXd M(n, n);
  body.massMatrix(q, M);
  if (!M.allFinite()) {
    return "is not finite at its current coordinates: its parametrization (a curve's formula, say) is not defined "
           "there";
  }
  if (Eigen::LLT<Eigen::MatrixXd>(M).info() != Eigen::Success) {
    return "is singular at its current coordinates (a bead where its curve stands still, c'(u) = 0)";
  }
  return {};
}

void InverseMass::updateBlock(const Model& model, const Eigen::VectorXd& q, std::size_t i) {
  const Body& body = model.body(model.bodyAt(i));
  const int n = body.coordinateCount();
  auto M = M_.topLeftCorner(n, n);
  body.massMatrix(model.slice(q, i), M);
  if (body.isDriven()) {  // static or kinematic: nothing moves it
    W_.diagonalBlock(i).setZero();
    return;
  }
  if (body.hasDiagonalMass()) {
    W_.diagonalBlock(i) = M.diagonal().cwiseInverse();
    massDiagonal_.segment(static_cast<Eigen::Index>(model.offsetOf(model.bodyAt(i))), n) = M.diagonal();
    return;
  }
  Eigen::LLT<Eigen::MatrixXd>& llt = cholesky_[i];
  llt.compute(M);
  if (llt.info() != Eigen::Success || !M.allFinite()) {
    throw SingularMassError("the mass matrix of " + model.describe(model.bodyAt(i)) + " " +
                                massMatrixProblem(body, model.slice(q, i)),
                            i);
  }
  auto W = W_.denseBlock(i);
  W.setIdentity();
  llt.solveInPlace(W);
}

double InverseMass::kineticEnergy(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
  double twice = (massDiagonal_.array() * v.array().square()).sum();
  for (const std::size_t i : dense_) twice += 2.0 * model.body(model.bodyAt(i)).kineticEnergy(model.slice(q, i), model.slice(v, i));
  return 0.5 * twice;
}

}  // namespace tinkertoy
