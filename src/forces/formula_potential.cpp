#include "tinkertoy/forces/formula_potential.hpp"

#include <stdexcept>

#include "tinkertoy/core/bodies.hpp"

namespace tinkertoy {

FormulaPotential::FormulaPotential(FormulaPotentialSettings settings)
    : settings_((requireNamedPoints(settings.points, kMaxConstraintPoints), std::move(settings))),
      formula_(settings_.V, namedPointVariables(settings_.points), settings_.parameters) {
  for (std::size_t k = 0; k < settings_.points.size(); ++k) points_[k] = settings_.points[k].second;
}

FormulaPotential::FormulaPotential(NamedPoints points, Formula V)
    : settings_{.points = (requireNamedPoints(points, kMaxConstraintPoints), std::move(points)), .V = V.text(), .parameters = {}},
      formula_(std::move(V)) {
  if (formula_.variableCount() != kVariablesPerPoint * settings_.points.size() + 1) {
    throw std::invalid_argument("the potential " + formula_.text() + " was built over " +
                                std::to_string(formula_.variableCount()) + " variables, not those of these points");
  }
  for (std::size_t k = 0; k < settings_.points.size(); ++k) points_[k] = settings_.points[k].second;
}

ForceSettings FormulaPotential::settings() const {
  if (!formula_.fromText()) return std::monostate{};
  return settings_;
}

void FormulaPotential::validate(int dimension) const {
  for (std::size_t k = 0; k < settings_.points.size() && dimension == 2; ++k) {
    if (formula_.uses(kVariablesPerPoint * k + kZVariable)) {
      throw std::invalid_argument("a formula potential of a 2D model cannot read a z coordinate");
    }
  }
}

std::size_t FormulaPotential::gather(const Bodies& bodies, const StateView& state,
                                     std::array<double, kMaxJetVariables>& values) const {
  const std::size_t n = settings_.points.size(), count = kVariablesPerPoint * n + 1;
  PointKinematics k;
  for (std::size_t p = 0; p < n; ++p) {
    bodies.pointKinematics(points_[p], state, k);
    for (std::size_t a = 0; a < 3; ++a) values[kVariablesPerPoint * p + a] = k.position[static_cast<Eigen::Index>(a)];
    values[kVariablesPerPoint * p + kAngleVariable] = k.oriented ? k.angle : 0.0;
  }
  values[count - 1] = state.time;
  return count;
}

Jet FormulaPotential::evaluate(const Bodies& bodies, const StateView& state) const {
  std::array<double, kMaxJetVariables> values{}, rates{};
  const std::size_t count = gather(bodies, state, values);
  const std::span<const double> s(values.data(), count), sDot(rates.data(), count);
  const Jet V = formula_.jet(s, sDot);
  if (!allFinite(V)) {
    if (std::string reason = undefinedFormulaReason(formula_, namedPointVariables(settings_.points), s, sDot); !reason.empty()) {
      throw UndefinedForceError("formula potential: " + reason);
    }
  }
  return V;
}

// f_k = −∂V/∂x_k at each point, and −∂V/∂φ_k as a torque on a rigid body's frame.
void FormulaPotential::accumulate(const Bodies& bodies, const StateView& state, Eigen::Ref<Eigen::VectorXd> Q) const {
  const Jet V = evaluate(bodies, state);
  const auto entry = [&](std::size_t v) {
    const int slot = formula_.slotOf(v);
    return slot < 0 ? 0.0 : V.gradient[static_cast<std::size_t>(slot)];
  };
  for (std::size_t p = 0; p < settings_.points.size(); ++p) {
    const std::size_t v = kVariablesPerPoint * p;
    bodies.addPointForce(points_[p], state, -Eigen::Vector3d(entry(v), entry(v + 1), entry(v + 2)), Q);
    if (usesAngle(p)) bodies.addPointTorque(points_[p], state, -entry(v + kAngleVariable), Q);
  }
}

double FormulaPotential::potentialEnergy(const Bodies& bodies, const StateView& state) const {
  return evaluate(bodies, state).value;  // checked: a V not finite is refused as the force is
}

double FormulaPotential::power(const Bodies& bodies, const StateView& state) const {
  const int slot = formula_.slotOf(kVariablesPerPoint * settings_.points.size());
  return slot < 0 ? 0.0 : evaluate(bodies, state).gradient[static_cast<std::size_t>(slot)];
}

}  // namespace tinkertoy
