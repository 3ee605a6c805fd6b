// Joint: the base of the constraints that join two ends (JointConnection): a body point a, and
// a body point b or a fixed point of the world. Revolute, weld, prismatic and angle joints
// derive from it; the rows come from small reusable terms in src/constraints/parts/ (axis,
// angle, distance), one derivation each (docs/theory.md, "Joint parts").
#pragma once

#include <array>

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/constraints/joint_settings.hpp"

namespace tinkertoy {

class Joint : public Constraint {
 public:
  explicit Joint(const JointConnection& connection);

  [[nodiscard]] std::span<const BodyPoint> points() const override {
    return {points_.data(), connection_.b ? 2u : 1u};
  }
  [[nodiscard]] const JointConnection& connection() const { return connection_; }

 protected:
  // Rigid-body joints are planar: throws unless dimension is 2.
  void requirePlanar(int dimension) const;

 private:
  JointConnection connection_;
  std::array<BodyPoint, 2> points_;
};

}  // namespace tinkertoy
