// MouseSpring: a damped zero-length spring pulling a point toward a movable target.
//
//   f = k (target − x) − c v
//
// This is how a user drags a model: the Studio moves the target with the cursor every frame.
// The damping is absolute (against the point's velocity), which keeps a dragged model calm.
// The spring is the user's hand, not part of the model: its energy ½ k |x − target|² is not in
// the model's V. The work it does goes to the work ledger's mouse entry: what that energy loses
// over each step (the target held still during it), and the damping's −c |ẋ|².
//
//   auto id = model.addForce(std::make_unique<MouseSpring>(p, cursor, 200.0, 5.0));
//   model.editForce<MouseSpringSettings>(id, [&](auto& s) { s.target = newCursor; });
#pragma once

#include "tinkertoy/forces/force.hpp"

namespace tinkertoy {

class MouseSpring final : public Force {
 public:
  // target [dimension]; stiffness k in N/m; damping c in N·s/m.
  MouseSpring(BodyPoint point, Eigen::VectorXd target, double stiffness, double damping);
  explicit MouseSpring(MouseSpringSettings s) : s_(std::move(s)) {}

  [[nodiscard]] std::string_view type() const override { return MouseSpringSettings::type; }
  [[nodiscard]] ForceSettings settings() const override { return s_; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {&s_.point, 1}; }
  void validate(int dimension) const override;
  void accumulate(const Bodies& bodies, const StateView& state,
                  Eigen::Ref<Eigen::VectorXd> Q) const override;
  // The damping's power, −c |ẋ|², and the spring's energy ½ k |x − target|², both the hand's.
  [[nodiscard]] double power(const Bodies& bodies, const StateView& state) const override;
  [[nodiscard]] double externalEnergy(const Bodies& bodies, const StateView& state) const override;
  [[nodiscard]] WorkSource workSource() const override { return WorkSource::Mouse; }

 private:
  MouseSpringSettings s_;
};

// The force f a mouse spring applies at a state (z = 0 in 2D).
[[nodiscard]] Eigen::Vector3d mouseSpringForce(const MouseSpringSettings& s, const Bodies& bodies, const StateView& state);

}  // namespace tinkertoy
