// Validators for numeric command-line flags. CLI11's own range checks let "nan" through, so
// every numeric flag goes through one of these, and each failure names the value and the rule.
#pragma once

#include <CLI/CLI.hpp>

namespace tinkertoy::cli {

enum class Sign { Any, Positive, NonNegative };

// A finite number with the given sign.
CLI::Validator finiteNumber(Sign sign);
// A whole number ≥ minimum.
CLI::Validator integerAtLeast(long minimum);

}  // namespace tinkertoy::cli
