// Constraint: an implicit constraint C(q, t) = 0 on a few particles (seed 000 §4).
//
// Each constraint owns rows() consecutive rows of the global constraint vector and one
// Jacobian block per particle it touches (seed 000 §4.2, figure 3). It evaluates, at the
// local state of its particles:
//
//   C      the constraint value                                  [rows]
//   Ċ      its time derivative, J q̇ + ∂C/∂t                     [rows]
//   J_k    ∂C/∂x_k, the block for its k-th particle              [rows × dimension]
//   J̇_k    dJ_k/dt, the total time derivative of that block      [rows × dimension]
//   Ctt    d(∂C/∂t)/dt, the total time derivative of ∂C/∂t       [rows]
//
// so that C̈ = J q̈ + J̇ q̇ + Ctt. For a constraint that does not depend on time Ctt = 0.
// The derivation of each constraint is written in its .cpp file, next to the code.
//
// A constraint sees only its own particles, through ConstraintInput, and writes through
// ConstraintOutput. The engine zeroes the outputs first, so a constraint writes only the
// entries that can be non-zero.
//
//   model.addConstraint(std::make_unique<tinkertoy::DistanceConstraint>(a, b, 1.0));
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <span>
#include <string_view>

#include "tinkertoy/model/handles.hpp"

namespace tinkertoy {

// Largest number of particles a single constraint may touch.
inline constexpr std::size_t kMaxConstraintParticles = 4;

// The state of the particles one constraint touches, in the order of particles().
// In 2D every point has z = 0.
struct ConstraintInput {
  double time = 0.0;
  int dimension = 2;
  std::span<const Eigen::Vector3d> positions;
  std::span<const Eigen::Vector3d> velocities;
};

// Where a constraint writes its evaluation. Blocks are row-major, rows() × dimension, so
// row r of the block of particle k starts at jacobian + blockOffsets[k] + r * dimension.
class ConstraintOutput {
 public:
  ConstraintOutput(double* C, double* Cdot, double* Ctt, double* jacobian, double* jacobianDot,
                   const std::size_t* blockOffsets, int dimension)
      : C_(C), Cdot_(Cdot), Ctt_(Ctt), jacobian_(jacobian), jacobianDot_(jacobianDot),
        blockOffsets_(blockOffsets), dimension_(dimension) {}

  void setValue(int row, double value) { C_[row] = value; }
  void setVelocity(int row, double value) { Cdot_[row] = value; }
  void setTimeTerm(int row, double value) { Ctt_[row] = value; }
  // Row `row` of J_k: the gradient of C_row with respect to particle k's position.
  void setJacobian(std::size_t particle, int row, const Eigen::Vector3d& gradient) {
    writeRow(jacobian_, particle, row, gradient);
  }
  // Row `row` of J̇_k.
  void setJacobianDot(std::size_t particle, int row, const Eigen::Vector3d& gradientDot) {
    writeRow(jacobianDot_, particle, row, gradientDot);
  }

 private:
  void writeRow(double* blocks, std::size_t particle, int row, const Eigen::Vector3d& g) const {
    double* out = blocks + blockOffsets_[particle] + static_cast<std::size_t>(row * dimension_);
    for (int i = 0; i < dimension_; ++i) out[i] = g[i];
  }

  double* C_;
  double* Cdot_;
  double* Ctt_;
  double* jacobian_;
  double* jacobianDot_;
  const std::size_t* blockOffsets_;
  int dimension_;
};

class Constraint {
 public:
  virtual ~Constraint() = default;

  // The scene-file type name, e.g. "distance".
  [[nodiscard]] virtual std::string_view type() const = 0;

  // Number of scalar rows this constraint adds to C.
  [[nodiscard]] virtual int rows() const = 0;

  // The particles this constraint touches, at most kMaxConstraintParticles.
  [[nodiscard]] virtual std::span<const ParticleId> particles() const = 0;

  // Throws std::invalid_argument if a parameter does not fit a model of this dimension.
  virtual void validate(int dimension) const = 0;

  // Writes C, Ċ, J, J̇ and Ctt at `input`. Outputs arrive zeroed.
  virtual void evaluate(const ConstraintInput& input, ConstraintOutput& output) const = 0;
};

}  // namespace tinkertoy
