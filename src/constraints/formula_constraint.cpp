#include "tinkertoy/constraints/formula_constraint.hpp"

#include <cmath>
#include <stdexcept>

namespace tinkertoy {

namespace {

// The settings' rows parsed over their points' variables.
std::vector<Formula> parsedRows(const FormulaConstraintSettings& settings) {
  requireNamedPoints(settings.points, kMaxConstraintPoints);
  const std::vector<std::string> variables = namedPointVariables(settings.points);
  std::vector<Formula> rows;
  for (const std::string& row : settings.rows) rows.emplace_back(row, variables, settings.parameters);
  return rows;
}

}  // namespace

FormulaConstraint::FormulaConstraint(FormulaConstraintSettings settings)
    : FormulaConstraint(settings.points, parsedRows(settings), settings.kind) {
  settings_ = std::move(settings);
}

FormulaConstraint::FormulaConstraint(NamedPoints points, std::vector<Formula> rows, RowKind kind)
    : kind_(kind), formulas_(std::move(rows)) {
  requireNamedPoints(points, kMaxConstraintPoints);
  variables_ = namedPointVariables(points);
  for (std::size_t k = 0; k < points.size(); ++k) {
    names_.push_back(points[k].first);
    points_[k] = points[k].second;
  }
  for (const Formula& f : formulas_) {
    if (f.variableCount() != variables_.size()) {
      throw std::invalid_argument("the formula " + f.text() + " was built over " + std::to_string(f.variableCount()) +
                                  " variables, not the " + std::to_string(variables_.size()) + " of these points");
    }
  }
  noteVariablesUsed();
}

void FormulaConstraint::noteVariablesUsed() {
  if (formulas_.empty()) throw std::invalid_argument("a formula constraint needs at least one row");
  for (const Formula& f : formulas_) {
    for (std::size_t k = 0; k < names_.size(); ++k) {
      usesAngle_[k] = usesAngle_[k] || f.uses(kVariablesPerPoint * k + kAngleVariable);
      usesZ_ = usesZ_ || f.uses(kVariablesPerPoint * k + kZVariable);
    }
    usesTime_ = usesTime_ || f.uses(variables_.size() - 1);
  }
}

ConstraintSettings FormulaConstraint::settings() const {
  if (settings_) return *settings_;
  return std::monostate{};
}

void FormulaConstraint::validate(int dimension) const {
  if (dimension == 2 && usesZ_) throw std::invalid_argument("a formula of a 2D model cannot read a z coordinate");
  if (kind_ != RowKind::Equality && kind_ != RowKind::Inequality) {
    throw std::invalid_argument("a formula's rows are equalities (C = 0) or inequalities (C >= 0)");
  }
}

// One pass with Jets per row (see the header): the gradient's x, y, z and φ entries of point k
// are G_k and ∂C/∂φ_k, the rate's gradient's are Ġ_k, and the time's entries ∂C/∂t and Ctt.
void FormulaConstraint::evaluate(const ConstraintInput& input, ConstraintOutput& output) const {
  const std::size_t n = names_.size(), count = kVariablesPerPoint * n + 1;
  std::array<double, kMaxJetVariables> values{}, rates{};
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t a = 0; a < 3; ++a) {
      values[kVariablesPerPoint * k + a] = input.positions[k][static_cast<Eigen::Index>(a)];
      rates[kVariablesPerPoint * k + a] = input.velocities[k][static_cast<Eigen::Index>(a)];
    }
    values[kVariablesPerPoint * k + kAngleVariable] = input.angles[k];
    rates[kVariablesPerPoint * k + kAngleVariable] = input.angularVelocities[k];
  }
  values[count - 1] = input.time;
  rates[count - 1] = 1.0;
  const std::span<const double> s(values.data(), count), sDot(rates.data(), count);
  for (std::size_t r = 0; r < formulas_.size(); ++r) {
    const Formula& f = formulas_[r];
    const Jet c = f.jet(s, sDot);
    if (!allFinite(c)) {
      if (std::string reason = undefinedFormulaReason(f, variables_, s, sDot); !reason.empty()) {
        throw UndefinedConstraintError(reason, static_cast<int>(r));
      }
    }
    const int row = static_cast<int>(r);
    // The entry of variable v in the gradient g (or the rate's gradient): 0 if f does not read v.
    const auto entry = [&](const std::array<double, kMaxJetVariables>& g, std::size_t v) {
      const int slot = f.slotOf(v);
      return slot < 0 ? 0.0 : g[static_cast<std::size_t>(slot)];
    };
    output.setValue(row, c.value);
    output.setVelocity(row, c.rate);
    output.setTimeTerm(row, entry(c.rateGradient, count - 1));
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t v = kVariablesPerPoint * k;
      output.setJacobian(k, row, {entry(c.gradient, v), entry(c.gradient, v + 1), entry(c.gradient, v + 2)});
      output.setJacobianDot(k, row, {entry(c.rateGradient, v), entry(c.rateGradient, v + 1), entry(c.rateGradient, v + 2)});
      if (usesAngle_[k]) {
        output.setAngleJacobian(k, row, entry(c.gradient, v + kAngleVariable));
        output.setAngleJacobianDot(k, row, entry(c.rateGradient, v + kAngleVariable));
      }
    }
  }
}

}  // namespace tinkertoy
