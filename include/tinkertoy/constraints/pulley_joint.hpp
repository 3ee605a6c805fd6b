// PulleyJoint: a rope from point a over a fixed pulley at ground point g_a, across to a second
// fixed pulley at g_b and down to point b. Its length is conserved, with a mechanical ratio r:
//
//   C = |x_a − g_a| + r |x_b − g_b| − L            (two distance terms)
//
// so pulling a up by δ lowers b by δ / r. Equality: the rope never slackens.
//
//   model.addConstraint(std::make_unique<PulleyJoint>(left, right, Eigen::Vector2d(-1, 2),
//                                                     Eigen::Vector2d(1, 2), 1.0, 4.0));
#pragma once

#include <array>

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy {

class PulleyJoint final : public Constraint {
 public:
  // ratio > 0; length > 0, m.
  PulleyJoint(BodyPoint a, BodyPoint b, const Eigen::Vector2d& groundA, const Eigen::Vector2d& groundB,
              double ratio, double length);
  explicit PulleyJoint(const PulleyJointSettings& s)
      : PulleyJoint(s.a, s.b, s.groundA, s.groundB, s.ratio, s.length) {}

  [[nodiscard]] std::string_view type() const override { return PulleyJointSettings::type; }
  [[nodiscard]] int rows() const override { return 1; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return points_; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override {
    return PulleyJointSettings{.a = points_[0], .b = points_[1], .groundA = groundA_, .groundB = groundB_,
                               .ratio = ratio_, .length = length_};
  }

  [[nodiscard]] const Eigen::Vector2d& groundA() const { return groundA_; }
  [[nodiscard]] const Eigen::Vector2d& groundB() const { return groundB_; }
  [[nodiscard]] double ratio() const { return ratio_; }
  [[nodiscard]] double length() const { return length_; }

 private:
  std::array<BodyPoint, 2> points_;
  Eigen::Vector2d groundA_, groundB_;
  double ratio_, length_;
};

}  // namespace tinkertoy
