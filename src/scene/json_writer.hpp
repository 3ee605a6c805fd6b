// What the scene writers share: the JSON type they write (keys in the order written) and numbers
// as JSON arrays.
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <vector>

namespace tinkertoy::scene {

using Json = nlohmann::ordered_json;

inline Json numbers(const Eigen::VectorXd& x) {
  Json out = Json::array();
  for (Eigen::Index i = 0; i < x.size(); ++i) out.push_back(x[i]);
  return out;
}

inline Json numbers(const std::vector<double>& x) { return Json(x); }

}  // namespace tinkertoy::scene
