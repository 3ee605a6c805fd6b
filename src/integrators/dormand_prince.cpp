#include "tinkertoy/integrators/dormand_prince.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "tinkertoy/archive/state_archive.hpp"

namespace tinkertoy {

namespace {

// The Dormand–Prince 5(4) tableau (Dormand & Prince 1980; Hairer, Nørsett & Wanner Table II.5.2).
constexpr int kStages = DormandPrince::kStages;
constexpr double kC[kStages] = {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
constexpr double kA[kStages][kStages - 1] = {
    {},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    // The last row is the fifth-order weights b: stage 7 is evaluated at the new state itself,
    // which is what makes the pair "first same as last".
    {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
};
// b − b̂: the fifth-order weights minus the embedded fourth-order ones.
constexpr double kE[kStages] = {71.0 / 57600,      0.0,          -71.0 / 16695, 71.0 / 1920,
                                -17253.0 / 339200, 22.0 / 525, -1.0 / 40};
// The continuous extension's fourth-order correction (Hairer, Nørsett & Wanner §II.6; the
// coefficients of their code DOPRI5).
constexpr double kD[kStages] = {-12715105075.0 / 11282082432.0, 0.0,
                                87487479700.0 / 32700410799.0,  -10690763975.0 / 1880347072.0,
                                701980252875.0 / 199316789632.0, -1453857185.0 / 822651844.0,
                                69997945.0 / 29380423.0};

constexpr double kSafety = 0.9;
constexpr double kShrinkMost = 0.2, kGrowMost = 10.0;
// The PI controller's exponents: err^(−(1/5 − 0.75 β)) err_prev^β with β = 0.04.
constexpr double kBeta = 0.04;
constexpr double kErrorExponent = 0.2 - 0.75 * kBeta;
// Hairer's NMAX: steps (accepted or not) one advance() may take before it gives up. And the
// longest step, in requested intervals: an error estimate near zero (free fall) would otherwise
// grow the step tenfold a step, past anything time-dependent in the model.
constexpr int kMostStepsPerCall = 100'000;
constexpr double kLongestStepInIntervals = 100.0;

// The scaled RMS norm of (eq, ev) with the scale atol + rtol max(|y₀|, |y₁|) per coordinate.
double scaledRms(const ErrorTolerance& tol, const Eigen::VectorXd& eq, const Eigen::VectorXd& ev,
                 const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, const Eigen::VectorXd& v0,
                 const Eigen::VectorXd& v1) {
  const Eigen::Index n = eq.size();
  if (n == 0) return 0.0;
  const auto sum = [&](const Eigen::VectorXd& e, const Eigen::VectorXd& y0, const Eigen::VectorXd& y1) {
    return (e.array() / (tol.absolute + tol.relative * y0.array().abs().max(y1.array().abs()))).square().sum();
  };
  return std::sqrt((sum(eq, q0, q1) + sum(ev, v0, v1)) / static_cast<double>(2 * n));
}

}  // namespace

void ErrorTolerance::validate() const {
  if (!(std::isfinite(relative) && relative >= kFinestRelative && relative < 1.0)) {
    throw std::invalid_argument("rtol must be from 1e-14 (what double precision resolves) to below 1");
  }
  if (!(std::isfinite(absolute) && absolute > 0.0)) {
    throw std::invalid_argument("atol must be positive and finite (a coordinate passing through zero needs an absolute floor)");
  }
}

DormandPrince::DormandPrince(const ErrorTolerance& tolerance) : tolerance_(tolerance) { tolerance_.validate(); }

AdaptiveTally DormandPrince::advance(AccelerationField& field, StateCorrector* corrector, double& time,
                                     Eigen::VectorXd& q, Eigen::VectorXd& v, double tEnd) {
  if (!(tEnd > time)) throw std::invalid_argument("dopri5 advances to a later time only");
  const bool resumes = continuing_ && time == returnedTime_ && q.size() == returnedQ_.size() && q == returnedQ_ &&
                       v == returnedV_;
  continuing_ = false;  // until this call returns normally: a call that throws leaves nothing to resume
  if (!resumes) start(field, time, q, v);
  longestStep_ = kLongestStepInIntervals * (tEnd - time);

  AdaptiveTally tally;
  while (t_ < tEnd) {
    if (tally.accepted + tally.rejected >= kMostStepsPerCall) {
      std::ostringstream message;
      message << "dopri5 took " << kMostStepsPerCall << " steps without reaching t = " << tEnd << " s from t = " << t_
              << " s (steps of " << h_ << " s): the model is too stiff for an explicit method at this tolerance";
      throw AdaptiveStepError(message.str());
    }
    if (attempt(field, corrector == nullptr)) {
      ++tally.accepted;
      if (corrector) corrector->correct(t_, q_, v_);
    } else {
      ++tally.rejected;
    }
  }
  if (t_ == tEnd) {
    q = q_;
    v = v_;
  } else {
    interpolate(tEnd, q, v);
    if (corrector) corrector->correct(tEnd, q, v);
  }
  tally.lastStep = lastStep_;
  time = tEnd;
  returnedTime_ = time;
  returnedQ_ = q;
  returnedV_ = v;
  continuing_ = true;
  return tally;
}

void DormandPrince::size(Eigen::Index n) {
  for (int i = 0; i < kStages; ++i) {
    V_[i].resize(n);
    A_[i].resize(n);
  }
  for (int i = 0; i < kTerms; ++i) {
    rq_[i].resize(n);
    rv_[i].resize(n);
  }
  qNew_.resize(n);
  vNew_.resize(n);
  eq_.resize(n);
  ev_.resize(n);
}

void DormandPrince::serialize(StateArchive& archive, Eigen::Index n) {
  archive.flag(continuing_);
  if (!continuing_) return;
  if (archive.reading()) size(n);
  archive.flag(needsFirstStage_);
  archive.flag(lastRejected_);
  for (double* x : {&t_, &h_, &lastStep_, &previousError_, &returnedTime_, &stepStart_}) archive.number(*x);
  for (Eigen::VectorXd* x : {&q_, &v_, &returnedQ_, &returnedV_}) archive.numbers(*x, n);
  if (!needsFirstStage_) archive.numbers(A_[0], n);
  for (int i = 0; i < kTerms; ++i) {
    archive.numbers(rq_[i], n);
    archive.numbers(rv_[i], n);
  }
}

// The initial step size of Hairer, Nørsett & Wanner §II.4: a step whose first-order
// increment h f is 1 % of y, refined by a difference estimate of the second derivative.
void DormandPrince::start(AccelerationField& field, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  t_ = t;
  q_ = q;
  v_ = v;
  size(q.size());
  field.stepStart({t_, q_, v_}, A_[0]);
  needsFirstStage_ = false;
  const double d0 = scaledRms(tolerance_, q_, v_, q_, q_, v_, v_);
  const double d1 = scaledRms(tolerance_, v_, A_[0], q_, q_, v_, v_);
  const double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
  qNew_ = q_ + h0 * v_;
  vNew_ = v_ + h0 * A_[0];
  field.acceleration({t_ + h0, qNew_, vNew_}, A_[1]);
  eq_ = vNew_ - v_;  // the change of the slope over h0
  ev_ = A_[1] - A_[0];
  const double d2 = scaledRms(tolerance_, eq_, ev_, q_, q_, v_, v_) / h0;
  const double largest = std::max(d1, d2);
  const double h1 = largest <= 1e-15 ? std::max(1e-6, 1e-3 * h0) : std::pow(0.01 / largest, 0.2);
  h_ = std::min(100.0 * h0, h1);
  lastStep_ = 0.0;
  lastRejected_ = false;
  previousError_ = 1e-4;
}

bool DormandPrince::attempt(AccelerationField& field, bool reuseLastStage) {
  const double h = std::min(h_, longestStep_);
  if (!(h > 16.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t_)))) {
    std::ostringstream message;
    message << "dopri5's step size fell to " << h << " s at t = " << t_
            << " s without meeting the error tolerance (a blow-up, or rtol/atol finer than the arithmetic resolves)";
    throw AdaptiveStepError(message.str());
  }
  if (needsFirstStage_) {
    field.stepStart({t_, q_, v_}, A_[0]);
    needsFirstStage_ = false;
  }
  V_[0] = v_;
  for (int i = 1; i < kStages; ++i) {
    qNew_ = q_;
    vNew_ = v_;
    for (int j = 0; j < i; ++j) {
      if (kA[i][j] == 0.0) continue;
      qNew_ += (h * kA[i][j]) * V_[j];
      vNew_ += (h * kA[i][j]) * A_[j];
    }
    V_[i] = vNew_;
    field.acceleration({t_ + kC[i] * h, qNew_, vNew_}, A_[i]);
  }
  // qNew_, vNew_ now hold the fifth-order solution (the last stage's state).
  eq_.setZero();
  ev_.setZero();
  for (int j = 0; j < kStages; ++j) {
    if (kE[j] == 0.0) continue;
    eq_ += (h * kE[j]) * V_[j];
    ev_ += (h * kE[j]) * A_[j];
  }
  double error = scaledRms(tolerance_, eq_, ev_, q_, qNew_, v_, vNew_);
  if (!std::isfinite(error)) error = std::numeric_limits<double>::infinity();

  if (error > 1.0) {
    h_ = h * std::max(kShrinkMost, kSafety * std::pow(error, -kErrorExponent));
    lastRejected_ = true;
    return false;
  }

  // Accepted: keep the continuous extension of [t_, t_ + h], then move to its end.
  for (int part = 0; part < 2; ++part) {
    const Eigen::VectorXd& y0 = part == 0 ? q_ : v_;
    const Eigen::VectorXd& y1 = part == 0 ? qNew_ : vNew_;
    Eigen::VectorXd* f = part == 0 ? V_ : A_;
    Eigen::VectorXd* r = part == 0 ? rq_ : rv_;
    r[0] = y0;
    r[1] = y1 - y0;
    r[2] = h * f[0] - r[1];
    r[3] = r[1] - h * f[kStages - 1] - r[2];
    r[4].setZero();
    for (int j = 0; j < kStages; ++j) {
      if (kD[j] != 0.0) r[4] += (h * kD[j]) * f[j];
    }
  }
  stepStart_ = t_;
  lastStep_ = h;
  t_ += h;
  q_.swap(qNew_);
  v_.swap(vNew_);
  // The last stage was evaluated at the new state itself: it is the next step's first, unless
  // a corrector is about to move that state.
  if (reuseLastStage) {
    A_[0].swap(A_[kStages - 1]);
  } else {
    needsFirstStage_ = true;
  }

  const double errorFactor = std::pow(std::max(error, 1e-10), -kErrorExponent) * std::pow(previousError_, kBeta);
  double factor = std::clamp(kSafety * errorFactor, kShrinkMost, kGrowMost);
  if (lastRejected_) factor = std::min(factor, 1.0);
  h_ = h * factor;
  previousError_ = std::max(error, 1e-4);
  lastRejected_ = false;
  return true;
}

void DormandPrince::interpolate(double t, Eigen::VectorXd& q, Eigen::VectorXd& v) const {
  const double theta = (t - stepStart_) / lastStep_;
  const double rest = 1.0 - theta;
  q = rq_[0] + theta * (rq_[1] + rest * (rq_[2] + theta * (rq_[3] + rest * rq_[4])));
  v = rv_[0] + theta * (rv_[1] + rest * (rv_[2] + theta * (rv_[3] + rest * rv_[4])));
}

}  // namespace tinkertoy
