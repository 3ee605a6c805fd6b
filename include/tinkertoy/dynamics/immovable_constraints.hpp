// The constraints nothing can move: every point they name is on a static or kinematic body (or
// a fixed point). They get no rows in the solve (dynamics/constraint_system.cpp), since no
// impulse or force could change them, but their error is real: a kinematic body driven away
// from a joint to a static one violates it, whatever the solver does. The simulator measures
// them here, so that ‖C‖∞ and ‖Ċ‖∞ in the diagnostics count them (issue #16, class 4). The
// scene loader refuses such a constraint; a model built in code may still have one.
//
//   immovable.build(model);                               // after every change of structure
//   const Violations v = immovable.measure(model, state);  // allocates nothing
#pragma once

#include <Eigen/Core>
#include <array>
#include <vector>

#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

class ImmovableConstraints {
 public:
  struct Violations {
    double position = 0.0;  // max over their rows of |C| (equality) or max(0, −C) (inequality)
    double velocity = 0.0;  // max of |Ċ| over their equality rows
  };

  void build(const Model& model);
  [[nodiscard]] bool empty() const { return constraints_.empty(); }
  [[nodiscard]] Violations measure(const Model& model, const StateView& state);

 private:
  std::vector<ConstraintId> constraints_;
  // Scratch for one constraint's evaluation, sized by build for the widest of them.
  std::vector<double> C_, Cdot_, Ctt_;
  std::vector<Eigen::Vector4d> gradients_, gradientDots_;
  std::vector<RowParameters> parameters_;
  std::array<Eigen::Vector3d, kMaxConstraintPoints> positions_, velocities_;
  std::array<double, kMaxConstraintPoints> angles_{}, angularVelocities_{};
  PointKinematics kinematics_;
};

}  // namespace tinkertoy
