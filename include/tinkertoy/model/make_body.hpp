// makeBody: a built-in body from its settings (core/body_settings.hpp).
//
//   model.addBody(makeBody(RigidBodySettings{.mass = 2.0, .shape = Shape::box(1.0, 0.2)}), q, v, "plank");
#pragma once

#include <memory>

#include "tinkertoy/core/body.hpp"

namespace tinkertoy {

// The body the settings describe. Throws std::invalid_argument for std::monostate (the settings of
// a body defined outside the library). Its parameters are checked when it joins a model
// (Body::validate), as a body built by its constructor is.
[[nodiscard]] std::unique_ptr<Body> makeBody(const BodySettings& settings);

}  // namespace tinkertoy
