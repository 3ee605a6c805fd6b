// Validators for numeric command-line flags. CLI11's own range checks let "nan" through, so
// every numeric flag goes through one of these, and each failure names the value and the rule.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <utility>

namespace tinkertoy::cli {

enum class Sign { Any, Positive, NonNegative };

// A finite number with the given sign.
CLI::Validator finiteNumber(Sign sign);
// A whole number ≥ minimum.
CLI::Validator integerAtLeast(long minimum);
// A whole number in [minimum, maximum].
CLI::Validator integerBetween(long minimum, long maximum);

// A picture's size in pixels, written WxH on the command line.
struct PixelSize {
  int width = 0, height = 0;
};
inline constexpr int kMaxPixels = 8192;  // per side
// "WxH" with whole numbers in [minimum, kMaxPixels].
CLI::Validator pixelSize(int minimum);
// The size in text that pixelSize() accepted.
PixelSize parsePixelSize(const std::string& text);

// Two numbers written A,B (each all of its part of the text), or nothing.
std::optional<std::pair<double, double>> readNumberPair(const std::string& text);

// A view direction written AZIMUTH,ELEVATION in degrees: finite, the elevation in [−90, 90].
CLI::Validator cameraAngles();
// The azimuth and elevation (degrees) in text that cameraAngles() accepted.
std::pair<double, double> parseCameraAngles(const std::string& text);

}  // namespace tinkertoy::cli
