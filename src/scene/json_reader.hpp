// JsonObject: checked access to one JSON object of a scene file, by JSON path.
//
// Every accessor validates type, size and finiteness and throws SceneError naming the
// exact path ("particles[2].mass") and the reason. allowOnly() rejects unknown fields and
// suggests the closest known one, so a typo never silently falls back to a default.
#pragma once

#include <Eigen/Core>
#include <array>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/closest_match.hpp"

namespace tinkertoy::scene {

// "number", "string", ... for messages.
std::string_view typeName(const nlohmann::json& value);

class JsonObject {
 public:
  // Throws unless `value` is an object.
  JsonObject(const nlohmann::json& value, std::string path);

  [[nodiscard]] const std::string& path() const { return path_; }
  // "<path>.<key>", or "<key>" at the root.
  [[nodiscard]] std::string pathOf(std::string_view key) const;
  [[nodiscard]] bool has(std::string_view key) const;
  [[nodiscard]] const nlohmann::json& at(std::string_view key) const;  // required

  // Rejects every key that is not in `allowed`.
  void allowOnly(std::initializer_list<std::string_view> allowed) const {
    allowOnly(std::span<const std::string_view>(allowed.begin(), allowed.size()));
  }
  void allowOnly(std::span<const std::string_view> allowed) const;

  [[nodiscard]] double number(std::string_view key) const;
  [[nodiscard]] std::optional<double> optionalNumber(std::string_view key) const;
  // A number > 0.
  [[nodiscard]] double positive(std::string_view key) const;
  // A mass or moment of inertia: a number > 0 whose inverse is finite (detail::requireMass).
  [[nodiscard]] double mass(std::string_view key) const;
  // A number ≥ 0; `fallback` if the key is absent and a fallback is given.
  [[nodiscard]] double nonNegative(std::string_view key, std::optional<double> fallback = std::nullopt) const;
  [[nodiscard]] std::string string(std::string_view key) const;
  [[nodiscard]] std::optional<std::string> optionalString(std::string_view key) const;
  [[nodiscard]] std::optional<bool> optionalBoolean(std::string_view key) const;
  [[nodiscard]] std::optional<std::int64_t> optionalInteger(std::string_view key) const;
  // A coordinate array of exactly `dimension` finite numbers.
  [[nodiscard]] Eigen::VectorXd vector(std::string_view key, int dimension) const;
  [[nodiscard]] std::optional<Eigen::VectorXd> optionalVector(std::string_view key,
                                                              int dimension) const;
  // An array of finite numbers of any length (one per link of a chain, say).
  [[nodiscard]] Eigen::VectorXd numbers(std::string_view key) const;
  // An array of coordinate arrays, each of `dimension` finite numbers.
  [[nodiscard]] std::vector<Eigen::VectorXd> vectors(std::string_view key, int dimension) const;
  [[nodiscard]] JsonObject object(std::string_view key) const;
  // The elements of an optional array as objects, with paths "<key>[i]".
  [[nodiscard]] std::vector<JsonObject> objects(std::string_view key) const;

 private:
  [[nodiscard]] const nlohmann::json& array(std::string_view key) const;

  const nlohmann::json& value_;
  std::string path_;
};

// 'text', for messages: control characters and bytes that are not UTF-8 as \xHH.
std::string inQuotes(std::string_view text);

// The scene-file names of the kinds `Settings...` (each settings struct's `type`), in order: the
// known types unknownType lists.
template <class... Settings>
constexpr std::array<std::string_view, sizeof...(Settings)> typeNames() {
  return {Settings::type...};
}

// Throws SceneError at object.type: an unknown `kind` ("force", "curve", ...) type, with the
// closest known type as a suggestion or else the list of known types.
[[noreturn]] void unknownType(const JsonObject& object, std::string_view kind, const std::string& type,
                              std::span<const std::string_view> known);

// Reads `value` as a coordinate array of `dimension` finite numbers; `path` for messages.
Eigen::VectorXd readVector(const nlohmann::json& value, const std::string& path, int dimension);

}  // namespace tinkertoy::scene
