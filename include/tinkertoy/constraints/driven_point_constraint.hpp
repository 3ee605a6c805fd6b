// DrivenPointConstraint: the point follows a prescribed path p(t), e.g. a crank pin.
// This is the time-dependent constraint of Witkin, Gleicher and Welch's "Interactive Dynamics": d rows,
//
//   C = x − p(t),  J = I,  ∂C/∂t = −ṗ(t),  Ctt = −p̈(t)
//
// so Ċ = ẋ − ṗ and the solve's right-hand side gains −∂²C/∂t² = p̈. The path does work on
// the model, so energy is not conserved.
//
//   auto crank = std::make_shared<CurvePath>(std::make_shared<CircleCurve>(Eigen::Vector2d(0, 0), 0.3), 2.0);
//   model.addConstraint(std::make_unique<DrivenPointConstraint>(pin, crank));
#pragma once

#include <memory>

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/constraints/path.hpp"

namespace tinkertoy {

class DrivenPointConstraint final : public Constraint {
 public:
  DrivenPointConstraint(BodyPoint point, std::shared_ptr<const Path> path);
  explicit DrivenPointConstraint(const DrivenPointConstraintSettings& s) : DrivenPointConstraint(s.point, s.path) {}

  [[nodiscard]] std::string_view type() const override { return DrivenPointConstraintSettings::type; }
  [[nodiscard]] int rows() const override { return path_->dimension(); }
  [[nodiscard]] bool dependsOnTime() const override { return true; }
  [[nodiscard]] std::span<const BodyPoint> points() const override { return {&point_, 1}; }
  void validate(int dimension) const override;
  void evaluate(const ConstraintInput& input, ConstraintOutput& output) const override;
  [[nodiscard]] ConstraintSettings settings() const override {
    return DrivenPointConstraintSettings{.point = point_, .path = path_};
  }

  [[nodiscard]] const Path& path() const { return *path_; }

 private:
  BodyPoint point_;
  std::shared_ptr<const Path> path_;
};

}  // namespace tinkertoy
