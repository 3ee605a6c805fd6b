#include "tinkertoy/model/joint_anchor.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace tinkertoy {

BodyPoint pointAtAnchor(const Model& model, const BodyPoint& point, const Eigen::Vector2d& anchor) {
  if (model.body(point.body).hasFrame()) {
    const Eigen::VectorXd q = model.coordinates(point.body);  // x, y, θ
    return {point.body, Eigen::Vector2d(Eigen::Rotation2Dd(-q[2]) * (anchor - Eigen::Vector2d(q[0], q[1])))};
  }
  const Eigen::VectorXd at = model.position(point);
  if ((Eigen::Vector2d(at[0], at[1]) - anchor).norm() > 1e-9 * std::max(1.0, anchor.norm())) {
    throw std::invalid_argument(model.describe(point) + " has no frame, so it can be held only at its own position (" +
                                std::to_string(at[0]) + ", " + std::to_string(at[1]) + "), not at the anchor (" +
                                std::to_string(anchor.x()) + ", " + std::to_string(anchor.y()) + ")");
  }
  return point;
}

JointConnection connectAt(const Model& model, const BodyPoint& a, const std::optional<BodyPoint>& b,
                          const Eigen::Vector2d& anchor) {
  JointConnection link{.a = pointAtAnchor(model, a, anchor)};
  if (b) {
    link.b = pointAtAnchor(model, *b, anchor);
  } else {
    link.ground = anchor;
  }
  return link;
}

double frameAngle(const Model& model, const std::optional<BodyPoint>& point) {
  if (!point || !model.body(point->body).hasFrame()) return 0.0;
  return model.coordinates(point->body)[2];
}

double relativeAngle(const Model& model, const JointConnection& connection) {
  return frameAngle(model, connection.a) - frameAngle(model, connection.b);
}

}  // namespace tinkertoy
