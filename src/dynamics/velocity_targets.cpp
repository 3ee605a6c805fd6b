#include "tinkertoy/dynamics/velocity_targets.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "tinkertoy/dynamics/softness.hpp"

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
    makeRigidAndFree(row);
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
      case RowKind::Spring:
        spring(row, p, C[row], Ct, h);
        break;
    }
  }
}

void VelocityTargets::makeRigidAndFree(Eigen::Index row) {
  lower_[row] = -kInfinity;
  upper_[row] = kInfinity;
  massScale_[row] = 1.0;
  impulseScale_[row] = 0.0;
}

void VelocityTargets::spring(Eigen::Index row, const RowParameters& p, double C, double Ct, double h) {
  const Softness soft = soften(p.frequency, p.dampingRatio, h);
  bias_[row] = Ct + soft.biasRate * C;
  massScale_[row] = soft.massScale;
  impulseScale_[row] = soft.impulseScale;
  lower_[row] = -kInfinity;
  upper_[row] = p.maxForce * h;
}

void VelocityTargets::computeVelocityStage(const ConstraintSystem& system, const Eigen::VectorXd& C,
                                           const Eigen::VectorXd& timeRate, const Eigen::VectorXd& impulses, double h) {
  const auto kinds = system.kinds();
  const auto parameters = system.parameters();
  for (Eigen::Index row = 0; row < system.rows(); ++row) {
    bias_[row] = timeRate[row];
    makeRigidAndFree(row);
    switch (kinds[static_cast<std::size_t>(row)]) {
      case RowKind::Equality:
        break;
      case RowKind::Inequality:
        lower_[row] = 0.0;
        if (C[row] > 0.0 && impulses[row] <= 0.0) upper_[row] = 0.0;  // open: no part
        break;
      case RowKind::Motor: {
        const RowParameters& p = parameters[static_cast<std::size_t>(row)];
        bias_[row] -= p.targetSpeed;
        lower_[row] = -p.maxForce * h - impulses[row];
        upper_[row] = p.maxForce * h - impulses[row];
        break;
      }
      case RowKind::Spring:  // equal bounds: no part (its soft impulse scales to zero)
        bias_[row] = 0.0;
        lower_[row] = upper_[row] = 0.0;
        break;
    }
  }
}

double VelocityTargets::softHertz(const VelocitySettings& settings, double h) {
  return std::min(settings.jointHertz, 0.25 / h);
}

void VelocityTargets::computeSoft(const ConstraintSystem& system, const Eigen::VectorXd& C,
                                  const Eigen::VectorXd& timeRate, double h, const VelocitySettings& settings,
                                  SoftPass pass) {
  const Softness joint = soften(softHertz(settings, h), settings.jointDampingRatio, h);
  const bool relax = pass == SoftPass::Relax;
  const auto kinds = system.kinds();
  const auto parameters = system.parameters();
  for (Eigen::Index row = 0; row < system.rows(); ++row) {
    const double Ct = timeRate[row];
    makeRigidAndFree(row);
    switch (kinds[static_cast<std::size_t>(row)]) {
      case RowKind::Inequality:
        lower_[row] = 0.0;
        if (C[row] > 0.0) {  // open: the row may close the gap within the substep, not cross it
          bias_[row] = Ct + C[row] / h;
          break;
        }
        [[fallthrough]];
      case RowKind::Equality:
        bias_[row] = Ct;
        if (!relax) {
          bias_[row] += joint.biasRate * C[row];
          massScale_[row] = joint.massScale;
          impulseScale_[row] = joint.impulseScale;
        }
        break;
      case RowKind::Motor: {
        const RowParameters& p = parameters[static_cast<std::size_t>(row)];
        bias_[row] = Ct - p.targetSpeed;
        lower_[row] = -p.maxForce * h;
        upper_[row] = p.maxForce * h;
        break;
      }
      case RowKind::Spring:
        spring(row, parameters[static_cast<std::size_t>(row)], C[row], Ct, h);
        break;
    }
  }
}

std::pair<double, double> VelocityTargets::bounds(Eigen::Index row, ImpulsePass pass) const {
  if (pass == ImpulsePass::Velocity) return {lower_[row], upper_[row]};
  return {positionLower_[row], positionUpper_[row]};
}

}  // namespace tinkertoy
