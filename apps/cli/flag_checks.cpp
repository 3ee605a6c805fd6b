// Validators for numeric command-line flags (flag_checks.hpp).
#include "flag_checks.hpp"

#include <cmath>
#include <string>

namespace tinkertoy::cli {

CLI::Validator finiteNumber(Sign sign) {
  const char* name = sign == Sign::Positive ? "positive NUMBER" : sign == Sign::NonNegative ? "non-negative NUMBER" : "NUMBER";
  return CLI::Validator(
      [sign](std::string& text) -> std::string {
        double x = 0.0;
        std::size_t used = 0;
        try {
          x = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size()) return "expected a number, got '" + text + "'";
        if (!std::isfinite(x)) return "must be finite, got '" + text + "'";
        if (sign == Sign::Positive && !(x > 0.0)) return "must be positive, got '" + text + "'";
        if (sign == Sign::NonNegative && x < 0.0) return "must not be negative, got '" + text + "'";
        return {};
      },
      name);
}

CLI::Validator integerAtLeast(long minimum) {
  return CLI::Validator(
      [minimum](std::string& text) -> std::string {
        long x = 0;
        std::size_t used = 0;
        try {
          x = std::stol(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size()) return "expected a whole number, got '" + text + "'";
        if (x < minimum) return "must be at least " + std::to_string(minimum) + ", got '" + text + "'";
        return {};
      },
      "INTEGER >= " + std::to_string(minimum));
}

}  // namespace tinkertoy::cli
