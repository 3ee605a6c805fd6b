// RowKind: how one row of a constraint constrains the motion, and what the diagnostics count as
// its error.
#pragma once

#include <cmath>

namespace tinkertoy {

// How a row constrains the motion (docs/theory.md, "Row kinds"). The acceleration level (Witkin's
// formulation) solves Equality rows only; the velocity level solves all four, clamping each
// row's accumulated impulse into its range.
enum class RowKind {
  Equality,    // C = 0; λ of either sign
  Inequality,  // C ≥ 0 (a rope, a limit); λ ≥ 0, it can only push C back up
  Motor,       // no position term: drives Ċ toward a target speed, |λ| ≤ a maximum force
  Spring,      // soft: pulls C toward 0 like a damped spring of a given frequency and damping
               // ratio, |λ| ≤ a maximum force (the Spring rows of one constraint share it as a norm)
};

// What the diagnostics count as a row's error: |C| for an Equality row, how far an Inequality
// row is below 0; for its rate |Ċ|, and an Inequality row's Ċ < 0 while it is at or below 0.
// Motor and Spring rows have no error. A NaN C or Ċ gives NaN, so a maximum can keep it.
inline double rowViolation(RowKind kind, double C) {
  switch (kind) {
    case RowKind::Equality:
      return std::abs(C);
    case RowKind::Inequality:
      return C > 0.0 ? 0.0 : -C;  // NaN > 0 is false: NaN stays
    case RowKind::Motor:
    case RowKind::Spring:
      break;
  }
  return 0.0;
}
inline double rowVelocityViolation(RowKind kind, double C, double Cdot) {
  switch (kind) {
    case RowKind::Equality:
      return std::abs(Cdot);
    case RowKind::Inequality:
      return C <= 0.0 && !(Cdot >= 0.0) ? -Cdot : 0.0;
    case RowKind::Motor:
    case RowKind::Spring:
      break;
  }
  return 0.0;
}

}  // namespace tinkertoy
