// The value axis of the Studio's plots: its range over the samples and its labels. A log axis
// spans whole decades and is labelled by them ("1e-12", "1"); only positive values have a
// logarithm, so a series that is all zero (‖C‖ of a model without constraints) has no axis
// and no curve, rather than one flat at an arbitrary floor.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace tinkertoy::studio {

// Where a value sits on the axis: itself, or on a log axis its decade (none for v ≤ 0).
inline std::optional<double> axisCoordinate(double v, bool logScale) {
  const double x = logScale ? (v > 0.0 ? std::log10(v) : NAN) : v;
  return std::isfinite(x) ? std::optional(x) : std::nullopt;
}

struct AxisRange {
  double lo = INFINITY, hi = -INFINITY;  // axis coordinates

  void add(std::optional<double> x) {
    if (x) lo = std::min(lo, *x), hi = std::max(hi, *x);
  }
  [[nodiscard]] bool empty() const { return !(lo <= hi); }
  // Widened to whole decades on a log axis, and to a visible height where it is flat.
  [[nodiscard]] AxisRange framed(bool logScale) const {
    AxisRange r = *this;
    if (logScale) {
      r.lo = std::floor(lo);
      r.hi = std::max(std::ceil(hi), r.lo + 1.0);
    } else if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) {
      r.lo -= 0.5;
      r.hi += 0.5;
    }
    return r;
  }
};

// Where a plot of the last `window` seconds starts, for a history from `first` to `last`.
inline double windowStart(double first, double last, double window) { return std::max(first, last - window); }

// The label of axis coordinate x: a decade on a log axis ("1e-3", "1", "1e+2"), else the value.
inline std::string axisLabel(double x, bool logScale) {
  char text[48];
  if (!logScale) {
    std::snprintf(text, sizeof text, "%.3g", x);
  } else if (const long decade = std::lround(x); decade == 0) {
    std::snprintf(text, sizeof text, "1");
  } else {
    std::snprintf(text, sizeof text, "1e%+ld", decade);
  }
  return text;
}

}  // namespace tinkertoy::studio
