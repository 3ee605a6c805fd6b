// CoordinateRows: the optional limit and motor rows of one joint coordinate s (a revolute's
// angle, a prismatic's translation), laid out after the joint's equality rows:
//
//   lower limit   C = s − lower ≥ 0         Inequality, if lower is finite
//   upper limit   C = upper − s ≥ 0         Inequality, if upper is finite
//   motor         Ċ = ṡ → speed, |λ| ≤ max  Motor, if a motor is set
#pragma once

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "constraints/parts/scalar_term.hpp"
#include "tinkertoy/constraints/joint_settings.hpp"

namespace tinkertoy::detail {

// No mechanism turns at 1e9 rad/s; far beyond it (1e155) the motor's target swamped the joint's
// other rows, and CG's norms overflowed, so the pin was silently dropped.
inline constexpr double kMaxMotorSpeed = 1e9;

class CoordinateRows {
 public:
  CoordinateRows(const JointLimits& limits, const std::optional<JointMotor>& motor)
      : limits_(limits), motor_(motor) {}

  [[nodiscard]] int count() const {
    return (std::isfinite(limits_.lower) ? 1 : 0) + (std::isfinite(limits_.upper) ? 1 : 0) + (motor_ ? 1 : 0);
  }

  // The kind of the i-th of these rows.
  [[nodiscard]] RowKind kind(int i) const {
    return i < count() - (motor_ ? 1 : 0) ? RowKind::Inequality : RowKind::Motor;
  }

  // Writes the rows from `firstRow` for the coordinate s (already measured from its reference).
  void write(ConstraintOutput& out, int firstRow, const ScalarTerm& s, std::size_t points) const {
    int row = firstRow;
    if (std::isfinite(limits_.lower)) writeRow(out, row++, s, 1.0, limits_.lower, points);
    if (std::isfinite(limits_.upper)) writeRow(out, row++, s, -1.0, -limits_.upper, points);
    if (motor_) {
      writeRow(out, row, s, 1.0, 0.0, points);
      out.setValue(row, 0.0);  // a motor has no position error
      out.setParameters(row, {.targetSpeed = motor_->speed, .maxForce = motor_->maxForce});
    }
  }

  // Throws std::invalid_argument if the settings make no sense; `what` names the coordinate.
  void validate(const std::string& what) const {
    if (std::isnan(limits_.lower) || std::isnan(limits_.upper) || limits_.lower > limits_.upper) {
      throw std::invalid_argument(what + " limits must satisfy lower ≤ upper");
    }
    if (motor_ && (!std::isfinite(motor_->speed) || !std::isfinite(motor_->maxForce) || motor_->maxForce < 0.0)) {
      throw std::invalid_argument(what + " motor needs a finite speed and a finite, non-negative maximum force");
    }
    if (motor_ && std::abs(motor_->speed) > kMaxMotorSpeed) {
      throw std::invalid_argument(what + " motor speed must be at most 1e9 in size (rad/s or m/s): next to a faster "
                                         "target the solve would lose the joint's other rows in round-off");
    }
  }

  [[nodiscard]] const JointLimits& limits() const { return limits_; }
  [[nodiscard]] const std::optional<JointMotor>& motor() const { return motor_; }

 private:
  JointLimits limits_;
  std::optional<JointMotor> motor_;
};

}  // namespace tinkertoy::detail
