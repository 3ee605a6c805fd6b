// Spring: a damped spring between two points, or between a point and a fixed world point.
//
// With d = x_a − x_b, ℓ = |d| and n = d/ℓ, the force on a is
//   f_a = −[ k (ℓ − r) + c (ḋ·n) ] n,    f_b = −f_a,
// so the damping acts along the spring only (the damped spring of Witkin's "Constrained Dynamics"). The potential
// energy is V = ½ k (ℓ − r)². When ℓ = 0 the direction is undefined and the force is zero.
//
//   model.addForce(std::make_unique<Spring>(a, b, SpringParameters{.stiffness = 50, .rest_length = 1}));
#pragma once

#include <array>
#include <optional>

#include "tinkertoy/forces/force.hpp"
#include "tinkertoy/forces/force_settings.hpp"

namespace tinkertoy {

class Spring final : public Force {
 public:
  Spring(BodyPoint a, BodyPoint b, SpringParameters parameters);
  // A spring from point a to a fixed world point [dimension].
  Spring(BodyPoint a, Eigen::VectorXd anchor, SpringParameters parameters);
  explicit Spring(const SpringSettings& settings);

  [[nodiscard]] std::string_view type() const override { return SpringSettings::type; }
  [[nodiscard]] ForceSettings settings() const override;
  [[nodiscard]] std::span<const BodyPoint> points() const override;
  void validate(int dimension) const override;
  void accumulate(const Bodies& bodies, const StateView& state,
                  Eigen::Ref<Eigen::VectorXd> Q) const override;
  [[nodiscard]] double potentialEnergy(const Bodies& bodies, const StateView& state) const override;
  // ℓ − r, m: how far the spring is longer (> 0) or shorter (< 0) than its rest length.
  [[nodiscard]] double stretch(const Bodies& bodies, const StateView& state) const;
  // The damping's power, P = −c (ḋ·n)²; the rest of the force is −∇V.
  [[nodiscard]] double power(const Bodies& bodies, const StateView& state) const override;

  [[nodiscard]] const SpringParameters& parameters() const { return parameters_; }
  // The fixed end, if the spring is anchored to the world.
  [[nodiscard]] const std::optional<Eigen::VectorXd>& anchor() const { return anchor_; }

 private:
  struct Ends;
  [[nodiscard]] Ends ends(const Bodies& bodies, const StateView& state) const;

  std::array<BodyPoint, 2> points_;
  int pointCount_;
  std::optional<Eigen::VectorXd> anchor_;
  SpringParameters parameters_;
};

}  // namespace tinkertoy
