#include "tinkertoy/dynamics/velocity_targets.hpp"

#include <algorithm>
#include <limits>
#include <numbers>

namespace tinkertoy {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

}  // namespace

void VelocityTargets::resize(Eigen::Index rows) {
  for (Eigen::VectorXd* x : {&bias_, &positionBias_, &lower_, &upper_, &positionLower_, &positionUpper_, &massScale_,
                             &impulseScale_, &Jv_}) {
    x->setZero(rows);
  }
}

void VelocityTargets::timeRate(const ConstraintSystem& system, const Eigen::VectorXd& v, Eigen::VectorXd& timeRate) {
  system.jacobian().multiply(v, timeRate);
  timeRate = system.velocity() - timeRate;
}

void VelocityTargets::compute(const ConstraintSystem& system, const Eigen::VectorXd& v, const Eigen::VectorXd& current,
                              const Eigen::VectorXd& timeRate, const Eigen::VectorXd& predicted, double h,
                              const VelocitySettings& settings) {
  const double beta = settings.positionCorrection == PositionCorrection::Baumgarte ? settings.baumgarte : 0.0;
  const auto kinds = system.kinds();
  const auto parameters = system.parameters();
  const Eigen::VectorXd& C = current;
  system.jacobian().multiply(v, Jv_);
  for (Eigen::Index row = 0; row < system.rows(); ++row) {
    const RowParameters& p = parameters[static_cast<std::size_t>(row)];
    const double Jv = Jv_[row];
    const double Ct = timeRate[row];
    lower_[row] = -kInfinity;
    upper_[row] = kInfinity;
    positionBias_[row] = 0.0;
    positionLower_[row] = positionUpper_[row] = 0.0;
    switch (kinds[static_cast<std::size_t>(row)]) {
      case RowKind::Equality:
        bias_[row] = (predicted[row] - C[row]) / h - Jv;
        positionBias_[row] = beta * C[row] / h;
        positionLower_[row] = -kInfinity;
        positionUpper_[row] = kInfinity;
        break;
      case RowKind::Inequality:
        bias_[row] = (predicted[row] - std::min(C[row], 0.0)) / h - Jv;
        positionBias_[row] = beta * std::min(C[row], 0.0) / h;
        lower_[row] = 0.0;
        positionUpper_[row] = kInfinity;
        break;
      case RowKind::Motor:
        bias_[row] = Ct - p.targetSpeed;
        lower_[row] = -p.maxForce * h;
        upper_[row] = p.maxForce * h;
        break;
      case RowKind::Spring: {
        const double omega = 2.0 * std::numbers::pi * p.frequency;
        const double a1 = 2.0 * p.dampingRatio + h * omega, a2 = h * omega * a1;
        bias_[row] = Ct + omega / a1 * C[row];
        massScale_[row] = a2 / (1.0 + a2);
        impulseScale_[row] = 1.0 / (1.0 + a2);
        upper_[row] = p.maxForce * h;
        break;
      }
    }
  }
}

std::pair<double, double> VelocityTargets::bounds(Eigen::Index row, ImpulsePass pass) const {
  if (pass == ImpulsePass::Velocity) return {lower_[row], upper_[row]};
  return {positionLower_[row], positionUpper_[row]};
}

}  // namespace tinkertoy
