#include "tinkertoy/curves/formula_curve.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace tinkertoy {

namespace {

const std::vector<std::string> kCurveVariables = {"u"};

void requireTwoOrThree(std::size_t coordinates) {
  if (coordinates != 2 && coordinates != 3) {
    throw std::invalid_argument("a formula curve has 2 or 3 coordinates (x, y [, z]), not " + std::to_string(coordinates));
  }
}

}  // namespace

FormulaCurve::FormulaCurve(std::vector<std::string> coordinates, FormulaParameters parameters, double period)
    : parameters_(std::move(parameters)), period_(period) {
  requireTwoOrThree(coordinates.size());
  for (const std::string& text : coordinates) coordinates_.emplace_back(text, kCurveVariables, parameters_);
}

FormulaCurve::FormulaCurve(std::vector<Formula> coordinates, double period)
    : coordinates_(std::move(coordinates)), period_(period) {
  requireTwoOrThree(coordinates_.size());
  for (const Formula& f : coordinates_) {
    if (f.variableCount() != 1) throw std::invalid_argument("a curve's coordinate " + f.text() + " must be a function of u alone");
  }
}

CurveSettings FormulaCurve::settings() const {
  FormulaCurveSettings s{.parameters = parameters_, .period = period_};
  for (const Formula& f : coordinates_) {
    if (!f.fromText()) return std::monostate{};
    s.coordinates.push_back(f.text());
  }
  return s;
}

void FormulaCurve::validate() const {
  if (!std::isfinite(period_) || period_ < 0.0) {
    throw std::invalid_argument("a formula curve's period must be 0 (open) or a positive number");
  }
  if (period_ == 0.0) return;
  // A closed curve returns to its start: check c(u + P) = c(u) at a few u across a period, to
  // within kClosure of the curve's size. That check means something only if the curve goes
  // somewhere in between: any smooth curve "closes" after a period of 1e-12, having barely moved.
  constexpr int kSamples = 7;
  constexpr double kClosure = 1e-9;
  const Eigen::Vector3d start = evaluate(0.0).position;
  double travel = 0.0, size = std::max(1.0, start.norm());
  for (int k = 0; k < kSamples; ++k) {
    const double u = period_ * k / kSamples;
    const Eigen::Vector3d a = evaluate(u).position, b = evaluate(u + period_).position;
    travel = std::max(travel, (a - start).norm());
    size = std::max(size, a.norm());
    if (!((a - b).norm() <= kClosure * std::max(1.0, a.norm()))) {
      std::ostringstream message;
      message << "a formula curve does not close after its period " << period_
              << ": c(u) and c(u + period) differ at u = " << u;
      throw std::invalid_argument(message.str());
    }
  }
  if (!(travel > 1e3 * kClosure * size)) {
    std::ostringstream message;
    message << "a formula curve hardly moves over its period " << period_ << " (by " << travel
            << " across it), so its closing there tells nothing: give the period after which the curve comes back";
    throw std::invalid_argument(message.str());
  }
}

// Each coordinate's Jet with u moving at u̇ = 1: value c_i, gradient c_i', rate's gradient c_i''.
CurvePoint FormulaCurve::evaluate(double u) const {
  CurvePoint p;
  const double rate = 1.0;
  for (std::size_t i = 0; i < coordinates_.size(); ++i) {
    const Formula& f = coordinates_[i];
    const Jet c = f.jet({&u, 1}, {&rate, 1});
    const auto k = static_cast<Eigen::Index>(i);
    p.position[k] = c.value;
    if (f.uses(0)) {
      p.tangent[k] = c.gradient[0];
      p.curvature[k] = c.rateGradient[0];
    }
  }
  return p;
}

}  // namespace tinkertoy
