// Validators for numeric command-line flags (flag_checks.hpp).
#include "flag_checks.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
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

namespace {

// Width and height of "WxH", or nothing if the text is not two whole numbers joined by x.
std::optional<PixelSize> readPixelSize(const std::string& text) {
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string::npos || x == 0 || x + 1 == text.size()) return std::nullopt;
  const auto whole = [](const std::string& part) -> std::optional<long> {
    if (part.find_first_not_of("-0123456789") != std::string::npos) return std::nullopt;
    try {
      std::size_t used = 0;
      const long value = std::stol(part, &used);
      return used == part.size() ? std::optional<long>(value) : std::nullopt;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  const auto w = whole(text.substr(0, x)), h = whole(text.substr(x + 1));
  if (!w || !h) return std::nullopt;
  const auto clampToInt = [](long v) { return static_cast<int>(std::clamp<long>(v, -1, kMaxPixels + 1)); };
  return PixelSize{clampToInt(*w), clampToInt(*h)};
}

}  // namespace

CLI::Validator pixelSize(int minimum) {
  return CLI::Validator(
      [minimum](std::string& text) -> std::string {
        const std::optional<PixelSize> size = readPixelSize(text);
        if (!size) return "expected WIDTHxHEIGHT in pixels, such as 960x720, got '" + text + "'";
        if (size->width <= 0 || size->height <= 0) return "width and height must be positive, got '" + text + "'";
        if (size->width < minimum || size->height < minimum) {
          return "width and height must be at least " + std::to_string(minimum) + " pixels, got '" + text + "'";
        }
        if (size->width > kMaxPixels || size->height > kMaxPixels) {
          return "width and height must be at most " + std::to_string(kMaxPixels) + ", got '" + text + "'";
        }
        return {};
      },
      "WxH");
}

PixelSize parsePixelSize(const std::string& text) { return readPixelSize(text).value(); }

}  // namespace tinkertoy::cli
