// MouseSpring: a damped zero-length spring pulling a point toward a movable target.
//
//   f = k (target − x) − c v,   V = ½ k |x − target|²
//
// This is how a user drags a model: the Studio moves the target with the cursor every frame.
// The damping is absolute (against the point's velocity), which keeps a dragged model calm.
//
//   auto id = model.addForce(std::make_unique<MouseSpring>(p, cursor, 200.0, 5.0));
//   static_cast<MouseSpring&>(model.force(id)).setTarget(newCursor);
#pragma once

#include "tinkertoy/forces/force.hpp"

namespace tinkertoy {

class MouseSpring final : public Force {
 public:
  // target [dimension]; stiffness k in N/m; damping c in N·s/m.
  MouseSpring(BodyPoint point, Eigen::VectorXd target, double stiffness, double damping);

  [[nodiscard]] std::string_view type() const override { return "mouse"; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {&point_, 1}; }
  void validate(int dimension) const override;
  void accumulate(const Model& model, const StateView& state,
                  Eigen::Ref<Eigen::VectorXd> Q) const override;
  [[nodiscard]] double potentialEnergy(const Model& model, const StateView& state) const override;

  [[nodiscard]] const Eigen::VectorXd& target() const { return target_; }
  void setTarget(Eigen::VectorXd target);
  // The force the spring currently applies, f [dimension], for drawing.
  [[nodiscard]] Eigen::VectorXd currentForce(const Model& model) const;

 private:
  [[nodiscard]] Eigen::Vector3d forceAt(const Model& model, const StateView& state) const;

  BodyPoint point_;
  Eigen::VectorXd target_;
  double stiffness_;
  double damping_;
};

}  // namespace tinkertoy
