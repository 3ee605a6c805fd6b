#include "tinkertoy/model/spring_for_rod.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <utility>

#include "common/article.hpp"

namespace tinkertoy {

namespace {

// Why the distance joint `joint` is not a rigid rod, or "" when it is one.
std::string notARod(const DistanceConstraintSettings& joint) {
  if (joint.spring) return "a distance joint with a spring (frequency), not a rigid rod";
  if (joint.length) return {};
  const bool rope = std::isfinite(joint.maxLength), strut = joint.minLength > 0.0;
  if (rope && strut) return "a distance joint with limits (min_length, max_length), not a rigid rod";
  return rope ? "a rope (max_length), not a rigid rod" : "a strut (min_length), not a rigid rod";
}

}  // namespace

bool isRigidRod(const Constraint& constraint) {
  const ConstraintSettings described = constraint.settings();
  const auto* joint = std::get_if<DistanceConstraintSettings>(&described);
  return joint != nullptr && notARod(*joint).empty();
}

ForceId springForRod(Model& model, ConstraintId rod, SpringParameters parameters) {
  const Constraint& constraint = model.constraint(rod);
  const std::string who = model.describe(rod);
  const ConstraintSettings described = constraint.settings();
  const auto* joint = std::get_if<DistanceConstraintSettings>(&described);
  if (joint == nullptr) {
    throw std::invalid_argument(who + " is a " + std::string(constraint.type()) + " constraint, not a rod");
  }
  if (const std::string why = notARod(*joint); !why.empty()) throw std::invalid_argument(who + " is " + why);
  if (!model.isEnabled(rod)) throw std::invalid_argument(who + " is disabled (broken): a spring in its place would join what it no longer joins");
  parameters.rest_length = *joint->length;
  auto spring = std::make_unique<Spring>(SpringSettings{.a = joint->a, .b = joint->b, .anchor = joint->anchor, .parameters = parameters});
  try {
    spring->validate(model.dimension());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(who + ": " + e.what());
  }
  const ForceId id = model.addForce(std::move(spring));
  model.removeConstraint(rod);
  return id;
}

double largestStretch(const Model& model, std::span<const ForceId> springs) {
  double largest = 0.0;
  for (const ForceId id : springs) {
    const ForceSettings settings = model.force(id).settings();
    const auto* spring = std::get_if<SpringSettings>(&settings);
    if (!spring) throw std::invalid_argument("largestStretch: the force is " + detail::withArticle(model.force(id).type()) + ", not a spring");
    const Eigen::VectorXd b = spring->b ? model.position(*spring->b) : spring->anchor;
    largest = std::max(largest, std::abs((model.position(spring->a) - b).norm() - spring->parameters.rest_length));
  }
  return largest;
}

}  // namespace tinkertoy
