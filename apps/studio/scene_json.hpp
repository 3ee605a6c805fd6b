// How the Studio's tools write model items into the scene format (docs/scene-format.md).
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "tinkertoy/model/model.hpp"

namespace tinkertoy::studio {

using Json = nlohmann::ordered_json;

// A point or vector: an array of its coordinates.
inline Json vectorJson(const Eigen::VectorXd& p) {
  Json array = Json::array();
  for (const double x : p) array.push_back(x);
  return array;
}

// A body point as the format names it ("Points"): a chain's mass as {"body", "point"}, any other
// by its body's id.
inline Json pointReference(const Model& model, const BodyPoint& p) {
  if (model.body(p.body).pointCount() > 1) return {{"body", model.name(p.body)}, {"point", p.site.index}};
  return model.name(p.body);
}

// Whether the point belongs to a body with a frame (a rigid body), which joints attach to
// through world anchors.
inline bool hasFrame(const Model& model, const BodyPoint& p) { return model.body(p.body).hasFrame(); }

}  // namespace tinkertoy::studio
