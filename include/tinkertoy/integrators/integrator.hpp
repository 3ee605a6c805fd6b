// Integrator: advances the first-order system y = (q, v), ẏ = (v, a(t, q, v)) by one step.
//
// The acceleration a comes from an AccelerationField, which for Tinkertoy is Witkin's
// derivative loop (clear forces, apply forces, constraint forces, a = W(Q + Q̂); Witkin, "Constrained Dynamics"
// §4.1). Each integrator calls it once per stage:
//
//   kind              stages  order  update
//   explicit Euler      1       1    q += h v,  v += h a
//   symplectic Euler    1       1    v += h a,  q += h v (new v)
//   midpoint            2       2    evaluate at t + h/2 with an Euler half step
//   RK4                 4       4    classical Runge–Kutta
//
// Two more methods are named here but are not fixed-step Integrators, which refuse them:
//   dopri5   Dormand–Prince 5(4), adaptive steps and dense output (integrators/dormand_prince.hpp)
//   rattle   RATTLE, order 2; it solves for the constraint forces itself (dynamics/rattle.hpp)
// The acceleration formulation runs both.
//
//   Integrator rk4(IntegratorKind::RungeKutta4);
//   rk4.step(dynamics, t, q, v, 1e-3);
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string_view>

#include "tinkertoy/core/state_view.hpp"

namespace tinkertoy {

// q̈ = a(t, q, v).  a: [n], resized by the callee if needed.
class AccelerationField {
 public:
  virtual ~AccelerationField() = default;
  virtual void acceleration(const StateView& state, Eigen::VectorXd& a) = 0;
  // The first stage of a step: the evaluation at the state the step starts from. Integrators
  // call this for it, so a field can keep what that evaluation solved (λ at the step's start).
  virtual void stepStart(const StateView& state, Eigen::VectorXd& a) { acceleration(state, a); }
};

enum class IntegratorKind { ExplicitEuler, SymplecticEuler, Midpoint, RungeKutta4, DormandPrince5, Rattle };

// "euler", "symplectic-euler", "midpoint", "rk4", "dopri5", "rattle": the names scenes and the
// CLI use.
std::string_view integratorName(IntegratorKind kind);
std::optional<IntegratorKind> parseIntegrator(std::string_view name);
// The global order of accuracy p: the error after a fixed time shrinks like h^p.
int integratorOrder(IntegratorKind kind);

class Integrator {
 public:
  // Throws std::invalid_argument for IntegratorKind::DormandPrince5 and Rattle.
  explicit Integrator(IntegratorKind kind);

  [[nodiscard]] IntegratorKind kind() const { return kind_; }
  // Advances time, q and v by h. q, v: [n].
  void step(AccelerationField& field, double& time, Eigen::VectorXd& q, Eigen::VectorXd& v,
            double h);

 private:
  void explicitEuler(AccelerationField& field, double t, Eigen::VectorXd& q, Eigen::VectorXd& v,
                     double h);
  void symplecticEuler(AccelerationField& field, double t, Eigen::VectorXd& q,
                       Eigen::VectorXd& v, double h);
  void midpoint(AccelerationField& field, double t, Eigen::VectorXd& q, Eigen::VectorXd& v,
                double h);
  void rungeKutta4(AccelerationField& field, double t, Eigen::VectorXd& q, Eigen::VectorXd& v,
                   double h);

  IntegratorKind kind_;
  // Stage scratch [n], kept between steps so stepping does not allocate.
  Eigen::VectorXd a1_, a2_, a3_, a4_, qStage_, vStage2_, vStage3_, vStage4_;
};

}  // namespace tinkertoy
