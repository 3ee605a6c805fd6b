#include "scene/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "common/utf8.hpp"
#include "common/vector_checks.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::scene {

namespace {

std::string describeNumber(const nlohmann::json& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

double finiteNumber(const nlohmann::json& value, const std::string& path) {
  if (!value.is_number()) {
    throw SceneError(path, "expected a number, got " + std::string(typeName(value)));
  }
  const double x = value.get<double>();
  if (!std::isfinite(x)) throw SceneError(path, "must be a finite number, got " + describeNumber(value));
  return x;
}

}  // namespace

std::string_view typeName(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float: return "a number";
    default: return "an unsupported value";
  }
}

// Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "'" + std::string(text) + "'".
std::string inQuotes(std::string_view text) {
  std::string result(1, '\'');
  result += detail::printableUtf8(text);  // a NUL would end the message there
  result += '\'';
  return result;
}

void unknownType(const JsonObject& object, std::string_view kind, const std::string& type,
                 std::span<const std::string_view> known) {
  std::string reason = "unknown " + std::string(kind) + " type " + inQuotes(type);
  if (const auto match = closestMatch(type, known)) {
    reason += "; did you mean " + inQuotes(*match) + "?";
  } else {
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    reason += " (known types: " + list + ")";
  }
  throw SceneError(object.pathOf("type"), reason);
}

Eigen::VectorXd readVector(const nlohmann::json& value, const std::string& path, int dimension) {
  if (!value.is_array()) {
    throw SceneError(path, "expected an array of " + std::to_string(dimension) + " numbers, got " +
                               std::string(typeName(value)));
  }
  if (value.size() != static_cast<std::size_t>(dimension)) {
    throw SceneError(path, "expected " + std::to_string(dimension) + " numbers for a " +
                               std::to_string(dimension) + "D scene, got " +
                               std::to_string(value.size()));
  }
  Eigen::VectorXd x(dimension);
  for (int i = 0; i < dimension; ++i) {
    x[i] = finiteNumber(value[static_cast<std::size_t>(i)], path + "[" + std::to_string(i) + "]");
  }
  return x;
}

JsonObject::JsonObject(const nlohmann::json& value, std::string path)
    : value_(value), path_(std::move(path)) {
  if (!value_.is_object()) {
    throw SceneError(path_, "expected an object, got " + std::string(typeName(value_)));
  }
}

std::string JsonObject::pathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

bool JsonObject::has(std::string_view key) const { return value_.contains(key); }

const nlohmann::json& JsonObject::at(std::string_view key) const {
  const auto it = value_.find(key);
  if (it == value_.end()) throw SceneError(pathOf(key), "required field is missing");
  return *it;
}

void JsonObject::allowOnly(std::span<const std::string_view> allowed) const {
  for (const auto& [key, unused] : value_.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string reason = "unknown field";
    if (const auto suggestion = closestMatch(key, allowed)) {
      reason += "; did you mean '" + std::string(*suggestion) + "'?";
    } else {
      std::string list;
      for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      reason += " (known fields: " + list + ")";
    }
    throw SceneError(pathOf(key), reason, {}, SceneError::Kind::UnknownField);
  }
}

double JsonObject::number(std::string_view key) const { return finiteNumber(at(key), pathOf(key)); }

std::optional<double> JsonObject::optionalNumber(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return number(key);
}

double JsonObject::positive(std::string_view key) const {
  const double x = number(key);
  if (!(x > 0.0)) throw SceneError(pathOf(key), "must be positive, got " + describeNumber(at(key)));
  return x;
}

double JsonObject::mass(std::string_view key) const {
  const double x = positive(key);
  try {
    detail::requireMass(x, "it");
  } catch (const std::invalid_argument& e) {
    throw SceneError(pathOf(key), e.what());
  }
  return x;
}

double JsonObject::nonNegative(std::string_view key, std::optional<double> fallback) const {
  if (fallback && !has(key)) return *fallback;
  const double x = number(key);
  if (x < 0.0) throw SceneError(pathOf(key), "must not be negative, got " + describeNumber(at(key)));
  return x;
}

std::string JsonObject::string(std::string_view key) const {
  const nlohmann::json& value = at(key);
  if (!value.is_string()) {
    throw SceneError(pathOf(key), "expected a string, got " + std::string(typeName(value)));
  }
  return value.get<std::string>();
}

std::optional<std::string> JsonObject::optionalString(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return string(key);
}

std::optional<bool> JsonObject::optionalBoolean(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  const nlohmann::json& value = at(key);
  if (!value.is_boolean()) {
    throw SceneError(pathOf(key), "expected true or false, got " + std::string(typeName(value)));
  }
  return value.get<bool>();
}

std::optional<std::int64_t> JsonObject::optionalInteger(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  const nlohmann::json& value = at(key);
  if (!value.is_number_integer()) {
    throw SceneError(pathOf(key), "expected an integer, got " +
                                      (value.is_number() ? describeNumber(value) : std::string(typeName(value))));
  }
  return value.get<std::int64_t>();
}

Eigen::VectorXd JsonObject::vector(std::string_view key, int dimension) const {
  return readVector(at(key), pathOf(key), dimension);
}

std::optional<Eigen::VectorXd> JsonObject::optionalVector(std::string_view key, int dimension) const {
  if (!has(key)) return std::nullopt;
  return vector(key, dimension);
}

// The array at `key`, or a SceneError naming its path.
const nlohmann::json& JsonObject::array(std::string_view key) const {
  const nlohmann::json& value = at(key);
  if (!value.is_array()) {
    throw SceneError(pathOf(key), "expected an array, got " + std::string(typeName(value)));
  }
  return value;
}

Eigen::VectorXd JsonObject::numbers(std::string_view key) const {
  const nlohmann::json& values = array(key);
  Eigen::VectorXd x(static_cast<Eigen::Index>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i) {
    x[static_cast<Eigen::Index>(i)] = finiteNumber(values[i], pathOf(key) + "[" + std::to_string(i) + "]");
  }
  return x;
}

std::vector<Eigen::VectorXd> JsonObject::vectors(std::string_view key, int dimension) const {
  const nlohmann::json& values = array(key);
  std::vector<Eigen::VectorXd> result;
  for (std::size_t i = 0; i < values.size(); ++i) {
    result.push_back(readVector(values[i], pathOf(key) + "[" + std::to_string(i) + "]", dimension));
  }
  return result;
}

JsonObject JsonObject::object(std::string_view key) const { return {at(key), pathOf(key)}; }

std::vector<JsonObject> JsonObject::objects(std::string_view key) const {
  std::vector<JsonObject> result;
  if (!has(key)) return result;
  const nlohmann::json& values = array(key);
  for (std::size_t i = 0; i < values.size(); ++i) {
    result.emplace_back(values[i], pathOf(key) + "[" + std::to_string(i) + "]");
  }
  return result;
}

}  // namespace tinkertoy::scene
