// Parameter checks shared by forces and constraints: a user vector must match the model's
// dimension and be finite; a scalar must be finite (and non-negative where asked).
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tinkertoy::detail {

inline void requireDimension(const Eigen::VectorXd& x, int dimension, std::string_view what) {
  if (x.size() != dimension) {
    throw std::invalid_argument(std::string(what) + " must have " + std::to_string(dimension) +
                                " components, got " + std::to_string(x.size()));
  }
  if (!x.allFinite()) throw std::invalid_argument(std::string(what) + " must be finite");
}

inline void requireFinite(double x, std::string_view what) {
  if (!std::isfinite(x)) throw std::invalid_argument(std::string(what) + " must be finite");
}

inline void requireNonNegative(double x, std::string_view what) {
  requireFinite(x, what);
  if (x < 0.0) throw std::invalid_argument(std::string(what) + " must not be negative");
}

inline void requirePositive(double x, std::string_view what) {
  requireFinite(x, what);
  if (!(x > 0.0)) throw std::invalid_argument(std::string(what) + " must be positive");
}

// A mass or a moment of inertia: positive, finite, and with a finite inverse (W = M⁻¹), so not a
// subnormal number such as 5e-324.
inline void requireMass(double x, std::string_view what) {
  requirePositive(x, what);
  if (x < std::numeric_limits<double>::min()) {
    throw std::invalid_argument(std::string(what) + " must be at least 2.2e-308 (a smaller number has no finite inverse)");
  }
}

// A gear or pulley ratio couples one body's motion to r times another's. Beyond 1e6 one row's
// gradient dwarfs the other's by more than the solve can resolve next to it (J W Jᵀ spans r²):
// the constraint would be abandoned in all but name.
inline constexpr double kMaxRatio = 1e6;
inline void requireRatio(double x, std::string_view what) {
  requireFinite(x, what);
  if (std::abs(x) > kMaxRatio) {
    throw std::invalid_argument(std::string(what) + " must be at most 1e6 in size; a larger one leaves the lighter " +
                                "side's motion below what the solve resolves");
  }
}

}  // namespace tinkertoy::detail
