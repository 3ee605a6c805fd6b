// DormandPrince: the adaptive embedded Runge–Kutta pair of Dormand and Prince, order 5 with an
// order-4 error estimate ("dopri5"), with step-size control and dense output (Hairer, Nørsett
// and Wanner, Solving ODEs I, §II.4–II.6; docs/theory.md, "dopri5: adaptive steps with error control").
//
// It advances y = (q, v), ẏ = (v, a(t, q, v)) to a requested time by its own steps. Each step
// takes seven stages, forms the fifth-order solution y₁ and the difference e = y₁ − ŷ₁ to the
// embedded fourth-order one, and measures it in the scaled RMS norm over q and v together:
//
//   err = √( 1/2n Σᵢ (eᵢ / (atol + rtol max(|y₀ᵢ|, |y₁ᵢ|)))² )
//
// err ≤ 1 accepts the step, and the next is h·fac with fac = 0.9 err^(−0.17) err_prev^(0.04)
// (the PI controller of Hairer's code), kept within [0.2, 10], and not growing right after a
// rejection; err > 1 retries it with h·max(0.2, 0.9 err^(−0.17)). No step is longer than 100
// times the interval advance() was asked for.
//
// Requested times need not be step boundaries: the step that passes one is interpolated by
// the method's order-4 continuous extension, so outputs at fixed times are as accurate as the
// steps themselves, and the steps stay as long as the error allows. After each accepted step a
// StateCorrector (the projection onto C = 0, Ċ = 0) may move the state; the next step then
// starts from the corrected state with a fresh first stage. Without one, the pair's last stage,
// evaluated at the new state, is the next step's first (six evaluations a step, not seven).
//
//   DormandPrince dopri({.relative = 1e-8, .absolute = 1e-10});
//   dopri.advance(field, nullptr, t, q, v, t + 0.01);  // t = t + 0.01 on return
#pragma once

#include <Eigen/Core>
#include <stdexcept>

#include "tinkertoy/integrators/integrator.hpp"

namespace tinkertoy {

class StateArchive;

// The error dopri5 allows per step, per coordinate: atol + rtol |y|.
struct ErrorTolerance {
  double relative = 1e-6;  // rtol
  double absolute = 1e-9;  // atol, in the coordinates' units (m, rad, m/s, rad/s)

  // The smallest rtol: what double precision resolves.
  static constexpr double kFinestRelative = 1e-14;

  // Throws std::invalid_argument unless 1e-14 ≤ rtol < 1 and 0 < atol < ∞.
  void validate() const;
};

// Moves a state (t, q, v) onto the constraint manifold: each accepted step's end, and each
// state advance() returns.
class StateCorrector {
 public:
  virtual ~StateCorrector() = default;
  virtual void correct(double time, Eigen::VectorXd& q, Eigen::VectorXd& v) = 0;
};

// dopri5 could not meet its tolerance: the step size fell below what time resolves (a blow-up,
// or a tolerance finer than the arithmetic), or one call took more than 100 000 steps (a model
// too stiff for an explicit method).
class AdaptiveStepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What advance() did.
struct AdaptiveTally {
  int accepted = 0;       // steps taken
  int rejected = 0;       // steps tried, failed the error test and retried shorter
  double lastStep = 0.0;  // the size of the last accepted step so far, s
};

class DormandPrince {
 public:
  static constexpr int kStages = 7;  // the evaluations of a step (the last at its end)

  // Throws std::invalid_argument for a tolerance validate() refuses.
  explicit DormandPrince(const ErrorTolerance& tolerance);

  // Advances (time, q, v) to tEnd > time; the corrector, if any, corrects every accepted step's
  // end and the state returned. A call that passes the state the previous call returned
  // continues that integration (its step size and its step in progress); any other state
  // starts afresh from it, as does any call after one that threw. q, v: [n]. Throws
  // AdaptiveStepError.
  AdaptiveTally advance(AccelerationField& field, StateCorrector* corrector, double& time, Eigen::VectorXd& q,
                        Eigen::VectorXd& v, double tEnd);
  // Forgets the integration in progress: the next advance() starts afresh.
  void reset() { continuing_ = false; }
  // The integration in progress, if any (its state, step size, first stage and continuous
  // extension), saved or restored (Simulator::saveState). n coordinates.
  void serialize(StateArchive& archive, Eigen::Index n);

 private:
  // Sizes every vector of an integration of n coordinates.
  void size(Eigen::Index n);
  // Starts at (t, q, v): the first stage and an initial step size.
  void start(AccelerationField& field, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  // One attempt of size h_ (at most longestStep_) from (t_, q_, v_); true if accepted (the state
  // then moved to its end). reuseLastStage: the next step's first stage is this one's last.
  bool attempt(AccelerationField& field, bool reuseLastStage);
  // y at time t inside the last accepted step, from its continuous extension.
  void interpolate(double t, Eigen::VectorXd& q, Eigen::VectorXd& v) const;

  ErrorTolerance tolerance_;
  bool continuing_ = false;
  bool needsFirstStage_ = true;  // the next attempt evaluates its first stage afresh
  bool lastRejected_ = false;
  double t_ = 0.0, h_ = 0.0, lastStep_ = 0.0, previousError_ = 1e-4, longestStep_ = 0.0;
  Eigen::VectorXd q_, v_;              // the integration's own state at t_
  double returnedTime_ = 0.0;          // what the last advance() returned
  Eigen::VectorXd returnedQ_, returnedV_;
  // Stage slopes: position slopes are the stage velocities V[i], velocity slopes A[i].
  Eigen::VectorXd V_[kStages], A_[kStages];
  Eigen::VectorXd qNew_, vNew_, eq_, ev_;
  // The continuous extension of the last accepted step [stepStart_, stepStart_ + lastStep_]:
  // y(θ) = r0 + θ(r1 + (1 − θ)(r2 + θ(r3 + (1 − θ) r4))), for q and for v.
  double stepStart_ = 0.0;
  static constexpr int kTerms = 5;
  Eigen::VectorXd rq_[kTerms], rv_[kTerms];
};

}  // namespace tinkertoy
