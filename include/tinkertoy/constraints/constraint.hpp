// Constraint: an implicit constraint C(x_1, …, x_k, t) = 0 on a few points (seed 000 §4).
//
// Each constraint owns rows() consecutive rows of the global constraint vector. It is written
// against the world positions x_k of its points() (particles, beads, the masses of a chain)
// and evaluates, at the local state of those points:
//
//   C      the constraint value                                  [rows]
//   Ċ      its time derivative, Σ_k G_k ẋ_k + ∂C/∂t              [rows]
//   G_k    ∂C/∂x_k, the gradient for its k-th point              [rows × 3]
//   Ġ_k    dG_k/dt, the total time derivative of that gradient   [rows × 3]
//   Ctt    d(∂C/∂t)/dt, the total time derivative of ∂C/∂t       [rows]
//
// For a constraint that does not depend on time Ctt = 0. The ConstraintSystem turns the point
// gradients into Jacobian blocks of the bodies by the chain rule (docs/theory.md §7):
//
//   J_b = Σ_{k on b} G_k J_k,     J̇_b = Σ_{k on b} (Ġ_k J_k + G_k J̇_k),     J_k = ∂x_k/∂q_b
//
// so that C̈ = J q̈ + J̇ q̇ + Ctt. The derivation of each constraint is written in its .cpp
// file, next to the code.
//
// A constraint sees only its own points, through ConstraintInput, and writes through
// ConstraintOutput. The engine zeroes the outputs first, so a constraint writes only the
// entries that can be non-zero.
//
//   model.addConstraint(std::make_unique<tinkertoy::DistanceConstraint>(a, b, 1.0));
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <span>
#include <string_view>

#include "tinkertoy/model/body.hpp"

namespace tinkertoy {

// Largest number of points a single constraint may touch.
inline constexpr std::size_t kMaxConstraintPoints = 4;

// The state of the points one constraint touches, in the order of points().
// In 2D every point has z = 0.
struct ConstraintInput {
  double time = 0.0;
  int dimension = 2;
  std::span<const Eigen::Vector3d> positions;
  std::span<const Eigen::Vector3d> velocities;
};

// Where a constraint writes its evaluation. Gradient rows are stored point by point:
// row r of G_k is gradients[k * rows + r].
class ConstraintOutput {
 public:
  ConstraintOutput(double* C, double* Cdot, double* Ctt, Eigen::Vector3d* gradients,
                   Eigen::Vector3d* gradientDots, int rows)
      : C_(C), Cdot_(Cdot), Ctt_(Ctt), gradients_(gradients), gradientDots_(gradientDots),
        rows_(rows) {}

  void setValue(int row, double value) { C_[row] = value; }
  void setVelocity(int row, double value) { Cdot_[row] = value; }
  void setTimeTerm(int row, double value) { Ctt_[row] = value; }
  // Row `row` of G_k: the gradient of C_row with respect to point k's position.
  void setJacobian(std::size_t point, int row, const Eigen::Vector3d& gradient) {
    gradients_[point * static_cast<std::size_t>(rows_) + static_cast<std::size_t>(row)] = gradient;
  }
  // Row `row` of Ġ_k.
  void setJacobianDot(std::size_t point, int row, const Eigen::Vector3d& gradientDot) {
    gradientDots_[point * static_cast<std::size_t>(rows_) + static_cast<std::size_t>(row)] = gradientDot;
  }

 private:
  double* C_;
  double* Cdot_;
  double* Ctt_;
  Eigen::Vector3d* gradients_;
  Eigen::Vector3d* gradientDots_;
  int rows_;
};

class Constraint {
 public:
  virtual ~Constraint() = default;

  // The scene-file type name, e.g. "distance".
  [[nodiscard]] virtual std::string_view type() const = 0;

  // Number of scalar rows this constraint adds to C.
  [[nodiscard]] virtual int rows() const = 0;

  // The points this constraint touches, at most kMaxConstraintPoints.
  [[nodiscard]] virtual std::span<const BodyPoint> points() const = 0;

  // Throws std::invalid_argument if a parameter does not fit a model of this dimension.
  virtual void validate(int dimension) const = 0;

  // Writes C, Ċ, J, J̇ and Ctt at `input`. Outputs arrive zeroed.
  virtual void evaluate(const ConstraintInput& input, ConstraintOutput& output) const = 0;
};

}  // namespace tinkertoy
