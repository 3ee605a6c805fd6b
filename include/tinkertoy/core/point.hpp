// Points in 2D or 3D as Eigen::Vector3d.
//
// Engine-internal point math uses Vector3d for both dimensions, with z = 0 in 2D, so that
// evaluating forces and constraints never allocates. The public API takes and returns
// Eigen::VectorXd of size dimension(); these helpers convert between the two.
//
//   Eigen::Vector3d p = readPoint(q, offset, dimension);   // gather one particle
//   addToPoint(Q, offset, dimension, force);               // scatter a force
#pragma once

#include <Eigen/Core>
#include <cstddef>

namespace tinkertoy {

// The dimension-sized head of q starting at offset, padded with zeros to 3D.
inline Eigen::Vector3d readPoint(const Eigen::VectorXd& x, std::size_t offset, int dimension) {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  for (int i = 0; i < dimension; ++i) p[i] = x[static_cast<Eigen::Index>(offset) + i];
  return p;
}

// Adds the first `dimension` components of f to x at offset.
inline void addToPoint(Eigen::Ref<Eigen::VectorXd> x, std::size_t offset, int dimension,
                       const Eigen::Vector3d& f) {
  for (int i = 0; i < dimension; ++i) x[static_cast<Eigen::Index>(offset) + i] += f[i];
}

// A user-facing vector of size 2 or 3, padded to 3D. Callers validate the size first.
inline Eigen::Vector3d padTo3d(const Eigen::VectorXd& v) {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  for (Eigen::Index i = 0; i < v.size() && i < 3; ++i) p[i] = v[i];
  return p;
}

// The first `dimension` components of p as a user-facing vector.
inline Eigen::VectorXd truncateTo(const Eigen::Vector3d& p, int dimension) {
  return p.head(dimension);
}

}  // namespace tinkertoy
