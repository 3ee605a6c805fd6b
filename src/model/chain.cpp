#include "tinkertoy/model/chain.hpp"

#include <cassert>
#include <cmath>
#include <stdexcept>

#include "common/vector_checks.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy {

Chain::Chain(Eigen::VectorXd pivot, std::vector<double> lengths, std::vector<double> masses)
    : pivot_(std::move(pivot)), lengths_(std::move(lengths)), masses_(std::move(masses)) {}

void Chain::validate(int dimension) const {
  detail::requireDimension(pivot_, dimension, "chain pivot");
  if (lengths_.empty()) throw std::invalid_argument("a chain needs at least one link");
  if (lengths_.size() > static_cast<std::size_t>(kMaxBodyCoordinates)) {
    throw std::invalid_argument("a chain has at most " + std::to_string(kMaxBodyCoordinates) +
                                " links; use particles and rods for longer chains");
  }
  if (masses_.size() != lengths_.size()) {
    throw std::invalid_argument("a chain needs one mass per link: " + std::to_string(lengths_.size()) +
                                " lengths but " + std::to_string(masses_.size()) + " masses");
  }
  for (std::size_t j = 0; j < lengths_.size(); ++j) {
    detail::requirePositive(lengths_[j], "chain link length " + std::to_string(j));
    detail::requireMass(masses_[j], "chain mass " + std::to_string(j));
  }
}

void Chain::pointKinematics(const Site& site, BodyCoordinates q, BodyCoordinates v,
                            PointKinematics& out) const {
  const int n = coordinateCount();
  const int point = site.index;
  assert(point >= 0 && point < n && "Model checks point indices");
  out.position = padTo3d(pivot_);
  out.velocity.setZero();
  out.jacobian.setZero(3, n);
  out.jacobianDot.setZero(3, n);
  for (int j = 0; j <= point; ++j) {
    const double L = lengths_[static_cast<std::size_t>(j)];
    const double s = std::sin(q[j]), c = std::cos(q[j]);
    const Eigen::Vector3d along(s, -c, 0.0);   // e_j
    const Eigen::Vector3d normal(c, s, 0.0);   // ∂e_j/∂θ_j
    out.position += L * along;
    out.jacobian.col(j) = L * normal;
    out.jacobianDot.col(j) = -L * v[j] * along;
    out.velocity += L * v[j] * normal;
  }
}

}  // namespace tinkertoy
