// makeConstraint: a built-in constraint or joint from its settings (constraints/constraint_settings.hpp).
//
//   model.addConstraint(makeConstraint(RevoluteJointSettings{.connection = {.a = {rod, Eigen::Vector2d(-0.5, 0)}},
//                                                            .motor = JointMotor{.speed = 2.0, .maxForce = 10.0}}));
#pragma once

#include <memory>

#include "tinkertoy/constraints/constraint.hpp"

namespace tinkertoy {

// The constraint the settings describe. Throws std::invalid_argument for std::monostate (the
// settings of a constraint defined outside the library). Its parameters are checked when it joins a
// model (Constraint::validate), as a constraint built by its constructor is.
[[nodiscard]] std::unique_ptr<Constraint> makeConstraint(const ConstraintSettings& settings);

}  // namespace tinkertoy
