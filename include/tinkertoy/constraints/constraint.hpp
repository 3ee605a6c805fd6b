// Constraint: an implicit constraint C(x_1, …, x_k, t) = 0 on a few points (Witkin, "Constrained Dynamics", §4).
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
// For a constraint that does not depend on time Ctt = 0. A constraint on orientations (a weld)
// also has gradients with respect to the angles φ_k of its points' frames. The ConstraintSystem
// turns the point gradients into Jacobian blocks of the bodies by the chain rule
// (docs/theory.md, "Hybrid models: implicit constraints on parametric bodies"):
//
//   J_b = Σ_{k on b} G_k J_k,     J̇_b = Σ_{k on b} (Ġ_k J_k + G_k J̇_k),     J_k = ∂(x_k, φ_k)/∂q_b
//
// so that C̈ = J q̈ + J̇ q̇ + Ctt. The derivation of each constraint is written in its .cpp
// file, next to the code.
//
// A constraint sees only its own points, through ConstraintInput, and writes through
// ConstraintOutput. The engine zeroes the outputs it will read first, so a constraint writes
// only the entries that can be non-zero.
//
//   model.addConstraint(std::make_unique<tinkertoy::DistanceConstraint>(a, b, 1.0));
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>

#include "tinkertoy/constraints/constraint_settings.hpp"
#include "tinkertoy/constraints/row_kind.hpp"
#include "tinkertoy/core/work_source.hpp"
#include "tinkertoy/core/body.hpp"

namespace tinkertoy {

// Largest number of points a single constraint may touch.
inline constexpr std::size_t kMaxConstraintPoints = 4;

// What a Motor or Spring row needs besides C and J, written at every evaluation.
struct RowParameters {
  double targetSpeed = 0.0;                                   // Motor: target Ċ, units of C per s
  double maxForce = std::numeric_limits<double>::infinity();  // Motor, Spring: bound on |λ|
  double frequency = 0.0;                                     // Spring: Hz
  double dampingRatio = 0.0;                                  // Spring: 1 is critical
};

// The state of the points one constraint touches, in the order of points(). In 2D every point
// has z = 0. Angles are those of the points' frames (rigid bodies), 0 for points without one.
struct ConstraintInput {
  double time = 0.0;
  int dimension = 2;
  std::span<const Eigen::Vector3d> positions;
  std::span<const Eigen::Vector3d> velocities;
  std::span<const double> angles;
  std::span<const double> angularVelocities;
};

// Where a constraint writes its evaluation. A point's gradient has four entries: ∂C/∂x, ∂C/∂y,
// ∂C/∂z and ∂C/∂φ, the last for constraints on the angle of a point's frame. Gradients are
// stored point by point: row r of G_k is gradients[k * rows + r]. The engine may instead send a
// point's gradients straight into its body's block of J (and J̇): for a particle, whose J_k = I,
// G_k is the block itself (writeDirectly); its angle entries are then dropped, since a particle
// has no frame.
class ConstraintOutput {
 public:
  ConstraintOutput(double* C, double* Cdot, double* Ctt, Eigen::Vector4d* gradients,
                   Eigen::Vector4d* gradientDots, RowParameters* parameters, int rows)
      : C_(C), Cdot_(Cdot), Ctt_(Ctt), gradients_(gradients), gradientDots_(gradientDots),
        parameters_(parameters), rows_(rows) {}

  // Sends point k's gradient rows into a row-major [rows × width] block of J, and of J̇ unless
  // Jdot is null (then Ġ_k is dropped).
  void writeDirectly(std::size_t point, double* J, double* Jdot, int width) { direct_[point] = {J, Jdot, width}; }

  void setValue(int row, double value) { C_[row] = value; }
  void setVelocity(int row, double value) { Cdot_[row] = value; }
  void setTimeTerm(int row, double value) { Ctt_[row] = value; }
  // Row `row` of G_k: the gradient of C_row with respect to point k's position.
  void setJacobian(std::size_t point, int row, const Eigen::Vector3d& gradient) {
    if (const Direct& d = direct_[point]; d.J) {
      write(d.J, d.width, row, gradient);
    } else {
      at(gradients_, point, row).head<3>() = gradient;
    }
  }
  // Row `row` of Ġ_k.
  void setJacobianDot(std::size_t point, int row, const Eigen::Vector3d& gradientDot) {
    if (const Direct& d = direct_[point]; d.J) {
      if (d.Jdot) write(d.Jdot, d.width, row, gradientDot);
    } else {
      at(gradientDots_, point, row).head<3>() = gradientDot;
    }
  }
  // ∂C_row/∂φ_k and its time derivative, for a constraint on the angle of point k's frame.
  void setAngleJacobian(std::size_t point, int row, double gradient) {
    if (!direct_[point].J) at(gradients_, point, row)[3] = gradient;
  }
  void setAngleJacobianDot(std::size_t point, int row, double gradientDot) {
    if (!direct_[point].J) at(gradientDots_, point, row)[3] = gradientDot;
  }
  // The parameters of a Motor or Spring row.
  void setParameters(int row, const RowParameters& parameters) { parameters_[row] = parameters; }

 private:
  struct Direct {
    double* J = nullptr;
    double* Jdot = nullptr;
    int width = 0;
  };

  Eigen::Vector4d& at(Eigen::Vector4d* rows, std::size_t point, int row) const {
    return rows[point * static_cast<std::size_t>(rows_) + static_cast<std::size_t>(row)];
  }
  static void write(double* block, int width, int row, const Eigen::Vector3d& g) {
    double* entries = block + static_cast<std::ptrdiff_t>(row) * width;
    for (int c = 0; c < width; ++c) entries[c] = g[c];
  }

  double* C_;
  double* Cdot_;
  double* Ctt_;
  Eigen::Vector4d* gradients_;
  Eigen::Vector4d* gradientDots_;
  RowParameters* parameters_;
  int rows_;
  std::array<Direct, kMaxConstraintPoints> direct_{};
};

class Constraint {
 public:
  virtual ~Constraint() = default;

  // The scene-file type name, e.g. "distance".
  [[nodiscard]] virtual std::string_view type() const = 0;

  // Number of scalar rows this constraint adds to C.
  [[nodiscard]] virtual int rows() const = 0;

  // What kind of row `row` is. It must not change while the constraint is in a model (the
  // solvers lay out their work by it); Equality unless a constraint says otherwise.
  [[nodiscard]] virtual RowKind rowKind(int /*row*/) const { return RowKind::Equality; }

  // Whether C depends on time itself (∂C/∂t ≠ 0, a driven constraint): its force then does work.
  [[nodiscard]] virtual bool dependsOnTime() const { return false; }

  // The work ledger's entry for what row `row`'s force does (dynamics/work_ledger.hpp): Motors
  // and Springs for those kinds of rows; for the others Driven if the constraint depends on time,
  // else Impulses (ConstraintSystem also makes Driven the rows that touch a kinematic body).
  [[nodiscard]] virtual WorkSource workSource(int row) const {
    switch (rowKind(row)) {
      case RowKind::Motor: return WorkSource::Motors;
      case RowKind::Spring: return WorkSource::Springs;
      default: return dependsOnTime() ? WorkSource::Driven : WorkSource::Impulses;
    }
  }

  // The points this constraint touches, at most kMaxConstraintPoints.
  [[nodiscard]] virtual std::span<const BodyPoint> points() const = 0;

  // Whether the constraint reads the angle of point k's frame; that point must then be on a
  // body with a frame (a rigid body).
  [[nodiscard]] virtual bool usesAngle(std::size_t /*point*/) const { return false; }

  // Throws std::invalid_argument if a parameter does not fit a model of this dimension.
  virtual void validate(int dimension) const = 0;

  // Writes C, Ċ, the gradients and their derivatives, Ctt, and the parameters of Motor and
  // Spring rows at `input`. Outputs arrive zeroed.
  virtual void evaluate(const ConstraintInput& input, ConstraintOutput& output) const = 0;

  // Everything it joins and every parameter, as plain data (constraints/constraint_settings.hpp):
  // makeConstraint(settings()) builds an equal constraint. A constraint defined outside the
  // library has none (std::monostate). A constraint never changes once built: a model changes one
  // by replacing it from edited settings (Model::editConstraint).
  [[nodiscard]] virtual ConstraintSettings settings() const { return std::monostate{}; }
};

// What a constraint's evaluate() throws at a state where it is not defined although the state is
// finite: a formula's square root of a negative number, a division by zero. The simulator refuses
// the step with a SimulationError naming the constraint, and the model keeps its last good state.
// The engine notes which constraint threw (its dense index) as the exception passes.
class UndefinedConstraintError : public std::invalid_argument {
 public:
  // `row`: the constraint's row that is undefined, where the constraint knows it.
  explicit UndefinedConstraintError(const std::string& what, std::optional<int> row = std::nullopt)
      : std::invalid_argument(what), row_(row) {}
  [[nodiscard]] std::optional<std::size_t> constraintIndex() const { return constraintIndex_; }
  void setConstraintIndex(std::size_t index) { constraintIndex_ = index; }
  [[nodiscard]] std::optional<int> row() const { return row_; }

 private:
  std::optional<std::size_t> constraintIndex_;
  std::optional<int> row_;
};

// Whether every row of `c` is an equality: what Witkin's acceleration level can solve (limits,
// motors, springs and ropes need the velocity level).
inline bool onlyEqualityRows(const Constraint& c) {
  for (int r = 0; r < c.rows(); ++r) {
    if (c.rowKind(r) != RowKind::Equality) return false;
  }
  return true;
}

}  // namespace tinkertoy
