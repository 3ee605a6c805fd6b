// Validators for numeric command-line flags (flag_checks.hpp).
#include "flag_checks.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cmath>
#include <optional>
#include <string>

namespace tinkertoy::cli {

namespace {

// The number that is all of `text`, read by `parse` (std::stod, std::stol), or nothing.
template <class Parse>
auto readNumber(const std::string& text, Parse parse) -> std::optional<decltype(parse(text, nullptr))> {
  try {
    std::size_t used = 0;
    const auto value = parse(text, &used);
    if (used > 0 && used == text.size()) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// A decimal number, all of `text` ("0x10" is not 16, nor "inf" a number): the value, or why
// not. A number too small or too large for a double says so.
struct RealRead {
  std::optional<double> value;
  std::string problem;
};

RealRead readDecimal(const std::string& text) {
  // strtod, not from_chars: the browser build's C++ library has no from_chars for doubles. The
  // program never sets a locale, so the decimal point is '.'; what strtod takes beyond a decimal
  // number (hexadecimal, "inf", "nan", leading spaces, a second sign) is refused before it reads.
  const std::size_t start = text.starts_with('+') ? 1 : 0;
  const char* first = text.c_str() + start;
  const char* last = text.c_str() + text.size();
  const bool word = std::any_of(first, last, [](char c) { return std::isalpha(static_cast<unsigned char>(c)) && c != 'e' && c != 'E'; });
  const bool badStart = first == last || !(std::isdigit(static_cast<unsigned char>(*first)) || *first == '.' ||
                                            (*first == '-' && start == 0));
  char* end = nullptr;
  errno = 0;
  const double value = word || badStart ? 0.0 : std::strtod(first, &end);
  if (word || badStart || end != last) return {std::nullopt, "expected a decimal number, got '" + text + "'"};
  // ERANGE with a subnormal result is a number a double holds; with 0 or ±HUGE_VAL it is not.
  if (errno == ERANGE && (value == 0.0 || std::isinf(value))) {
    return {std::nullopt, "'" + text + "' is " +
                              (value == 0.0 ? "closer to 0 than a double can hold (the smallest is about 4.9e-324)"
                                            : "larger than a double can hold (the largest is about 1.8e308)")};
  }
  return {value, {}};
}

std::optional<double> readReal(const std::string& text) { return readDecimal(text).value; }

std::optional<long> readWhole(const std::string& text) {
  return readNumber(text, [](const std::string& s, std::size_t* used) { return std::stol(s, used); });
}

// Width and height of "WxH", or nothing if the text is not two whole numbers joined by x.
std::optional<PixelSize> readPixelSize(const std::string& text) {
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string::npos) return std::nullopt;
  const std::optional<long> w = readWhole(text.substr(0, x)), h = readWhole(text.substr(x + 1));
  if (!w || !h) return std::nullopt;
  const auto clampToInt = [](long v) { return static_cast<int>(std::clamp<long>(v, -1, kMaxPixels + 1)); };
  return PixelSize{clampToInt(*w), clampToInt(*h)};
}

}  // namespace

std::optional<std::pair<double, double>> readNumberPair(const std::string& text) {
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos) return std::nullopt;
  const std::optional<double> a = readReal(text.substr(0, comma)), b = readReal(text.substr(comma + 1));
  if (!a || !b) return std::nullopt;
  return std::pair{*a, *b};
}

CLI::Validator finiteNumber(Sign sign) {
  const char* name = sign == Sign::Positive ? "positive NUMBER" : sign == Sign::NonNegative ? "non-negative NUMBER" : "NUMBER";
  return CLI::Validator(
      [sign](std::string& text) -> std::string {
        const RealRead read = readDecimal(text);
        if (!read.value) return read.problem;
        const double x = *read.value;  // finite: readDecimal takes no inf or nan
        if (sign == Sign::Positive && !(x > 0.0)) return "must be positive, got '" + text + "'";
        if (sign == Sign::NonNegative && x < 0.0) return "must not be negative, got '" + text + "'";
        return {};
      },
      name);
}

CLI::Validator integerAtLeast(long minimum) {
  return CLI::Validator(
      [minimum](std::string& text) -> std::string {
        const std::optional<long> x = readWhole(text);
        if (!x) return "expected a whole number, got '" + text + "'";
        if (*x < minimum) return "must be at least " + std::to_string(minimum) + ", got '" + text + "'";
        return {};
      },
      "INTEGER >= " + std::to_string(minimum));
}

CLI::Validator integerBetween(long minimum, long maximum) {
  return CLI::Validator(
      [minimum, maximum](std::string& text) -> std::string {
        const std::optional<long> x = readWhole(text);
        if (!x) return "expected a whole number, got '" + text + "'";
        if (*x < minimum || *x > maximum) {
          return "must be from " + std::to_string(minimum) + " to " + std::to_string(maximum) + ", got '" + text + "'";
        }
        return {};
      },
      "INTEGER in [" + std::to_string(minimum) + ", " + std::to_string(maximum) + "]");
}

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

CLI::Validator cameraAngles() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::optional<std::pair<double, double>> angles = readNumberPair(text);
        if (!angles) return "expected AZIMUTH,ELEVATION in degrees, such as 35,25, got '" + text + "'";
        if (std::abs(angles->second) > 90.0) return "the elevation must be from -90 to 90 degrees, got '" + text + "'";
        return {};
      },
      "AZ,EL");
}

std::pair<double, double> parseCameraAngles(const std::string& text) { return readNumberPair(text).value(); }

}  // namespace tinkertoy::cli
