#include "dynamics/acceleration_formulation.hpp"

namespace tinkertoy {

class AccelerationFormulation::FirstStageRecorder final : public AccelerationField {
 public:
  FirstStageRecorder(AccelerationDynamics& dynamics, Eigen::VectorXd& lambda, Eigen::VectorXd& force)
      : dynamics_(dynamics), lambda_(lambda), force_(force) {}

  void acceleration(const StateView& state, Eigen::VectorXd& a) override {
    dynamics_.acceleration(state, a);
    if (first_) {
      lambda_ = dynamics_.lambda();
      force_ = dynamics_.constraintForce();
      first_ = false;
    }
  }

 private:
  AccelerationDynamics& dynamics_;
  Eigen::VectorXd& lambda_;
  Eigen::VectorXd& force_;
  bool first_ = true;
};

AccelerationFormulation::AccelerationFormulation(const Model& model, const SimulationSettings& settings)
    : model_(model), parallel_(makeParallelLoop(settings.threads)),
      dynamics_(model, settings.solver, settings.ks, settings.kd), projection_(settings.projection),
      project_(settings.projection.enabled && settings.integrator != IntegratorKind::Rattle) {
  dynamics_.constraints().useThreads(parallel_.get());
  if (settings.integrator == IntegratorKind::Rattle) {
    rattle_.emplace(settings.projection);
  } else {
    integrator_.emplace(settings.integrator);
  }
}

void AccelerationFormulation::rebuild() {
  dynamics_.rebuild();
  lambda_.setZero(dynamics_.constraints().rows());
  force_.setZero(model_.q().size());
  if (rattle_) rattle_->reset(dynamics_.constraints().rows());
}

void AccelerationFormulation::step(double& time, Eigen::VectorXd& q, Eigen::VectorXd& v, double h) {
  dynamics_.tally() = {};
  projectionTally_ = {};
  if (rattle_) {
    projectionTally_.add(rattle_->step(dynamics_, model_, time, q, v, h));
    lambda_ = rattle_->lambda();
    force_ = rattle_->constraintForce();
    return;
  }
  FirstStageRecorder recorder(dynamics_, lambda_, force_);
  integrator_->step(recorder, time, q, v, h);
  if (project_) projectionTally_.add(projection_.apply(dynamics_, model_, time, q, v));
}

}  // namespace tinkertoy
