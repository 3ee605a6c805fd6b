#include "tinkertoy/integrators/integrator.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace tinkertoy {

namespace {

constexpr std::array<std::pair<IntegratorKind, std::string_view>, 6> kNames = {{
    {IntegratorKind::ExplicitEuler, "euler"},
    {IntegratorKind::SymplecticEuler, "symplectic-euler"},
    {IntegratorKind::Midpoint, "midpoint"},
    {IntegratorKind::RungeKutta4, "rk4"},
    {IntegratorKind::DormandPrince5, "dopri5"},
    {IntegratorKind::Rattle, "rattle"},
}};

}  // namespace

std::string_view integratorName(IntegratorKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::optional<IntegratorKind> parseIntegrator(std::string_view name) {
  for (const auto& [kind, n] : kNames) {
    if (n == name) return kind;
  }
  return std::nullopt;
}

int integratorOrder(IntegratorKind kind) {
  switch (kind) {
    case IntegratorKind::ExplicitEuler:
    case IntegratorKind::SymplecticEuler:
      return 1;
    case IntegratorKind::Midpoint:
    case IntegratorKind::Rattle:
      return 2;
    case IntegratorKind::RungeKutta4:
      return 4;
    case IntegratorKind::DormandPrince5:
      return 5;
  }
  return 0;
}

Integrator::Integrator(IntegratorKind kind) : kind_(kind) {
  if (kind == IntegratorKind::Rattle) {
    throw std::invalid_argument("RATTLE solves for the constraint forces itself; the acceleration formulation runs it");
  }
  if (kind == IntegratorKind::DormandPrince5) {
    throw std::invalid_argument("dopri5 chooses its own steps; it is run by DormandPrince, not by a fixed-step Integrator");
  }
}

void Integrator::step(AccelerationField& field, double& time, Eigen::VectorXd& q,
                      Eigen::VectorXd& v, double h) {
  switch (kind_) {
    case IntegratorKind::ExplicitEuler:
      explicitEuler(field, time, q, v, h);
      break;
    case IntegratorKind::SymplecticEuler:
      symplecticEuler(field, time, q, v, h);
      break;
    case IntegratorKind::Midpoint:
      midpoint(field, time, q, v, h);
      break;
    case IntegratorKind::RungeKutta4:
      rungeKutta4(field, time, q, v, h);
      break;
    case IntegratorKind::DormandPrince5:  // refused by the constructor
    case IntegratorKind::Rattle:
      break;
  }
  time += h;
}

// y_{n+1} = y_n + h f(t_n, y_n).
void Integrator::explicitEuler(AccelerationField& field, double t, Eigen::VectorXd& q,
                               Eigen::VectorXd& v, double h) {
  field.stepStart({t, q, v}, a1_);
  q += h * v;
  v += h * a1_;
}

// Semi-implicit (symplectic) Euler: the position update uses the new velocity.
void Integrator::symplecticEuler(AccelerationField& field, double t, Eigen::VectorXd& q,
                                 Eigen::VectorXd& v, double h) {
  field.stepStart({t, q, v}, a1_);
  v += h * a1_;
  q += h * v;
}

// Explicit midpoint: y_{n+1} = y_n + h f(t_n + h/2, y_n + h/2 f(t_n, y_n)).
void Integrator::midpoint(AccelerationField& field, double t, Eigen::VectorXd& q,
                          Eigen::VectorXd& v, double h) {
  field.stepStart({t, q, v}, a1_);
  qStage_ = q + 0.5 * h * v;
  vStage2_ = v + 0.5 * h * a1_;
  field.acceleration({t + 0.5 * h, qStage_, vStage2_}, a2_);
  q += h * vStage2_;
  v += h * a2_;
}

// Classical RK4 on y = (q, v). The slope of q at stage i is the stage velocity v_i.
void Integrator::rungeKutta4(AccelerationField& field, double t, Eigen::VectorXd& q,
                             Eigen::VectorXd& v, double h) {
  field.stepStart({t, q, v}, a1_);

  qStage_ = q + 0.5 * h * v;
  vStage2_ = v + 0.5 * h * a1_;
  field.acceleration({t + 0.5 * h, qStage_, vStage2_}, a2_);

  qStage_ = q + 0.5 * h * vStage2_;
  vStage3_ = v + 0.5 * h * a2_;
  field.acceleration({t + 0.5 * h, qStage_, vStage3_}, a3_);

  qStage_ = q + h * vStage3_;
  vStage4_ = v + h * a3_;
  field.acceleration({t + h, qStage_, vStage4_}, a4_);

  q += (h / 6.0) * (v + 2.0 * vStage2_ + 2.0 * vStage3_ + vStage4_);
  v += (h / 6.0) * (a1_ + 2.0 * a2_ + 2.0 * a3_ + a4_);
}

}  // namespace tinkertoy
