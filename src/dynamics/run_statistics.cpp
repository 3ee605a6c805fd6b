#include "tinkertoy/dynamics/run_statistics.hpp"

#include <algorithm>
#include <cmath>

namespace tinkertoy {

RunStatistics::RunStatistics(const StepDiagnostics& initial)
    : energyInitial(initial.totalEnergy()), energyFinal(initial.totalEnergy()),
      constraintErrorMax(initial.constraintError), constraintErrorFinal(initial.constraintError),
      velocityErrorMax(initial.velocityError) {}

void RunStatistics::add(const StepDiagnostics& step) {
  ++steps;
  energyFinal = step.totalEnergy();
  energyDriftMax = std::max(energyDriftMax, std::abs(energyFinal - energyInitial));
  work += step.work;
  energyErrorMax = std::max(energyErrorMax, std::abs(energyFinal - energyInitial - work.total()));
  constraintErrorMax = std::max(constraintErrorMax, step.constraintError);
  constraintErrorFinal = step.constraintError;
  velocityErrorMax = std::max(velocityErrorMax, step.velocityError);
  solves += step.solves;
  iterations += step.solverIterations;
  factorizations += step.factorizations;
  projectionIterations += step.projectionIterations;
  unconvergedProjections += step.projectionConverged ? 0 : 1;
  substepSplits += step.substepSplits;
  adaptiveSteps += step.adaptiveSteps;
  rejectedSteps += step.rejectedSteps;
  residualMax = std::max(residualMax, step.solverResidual);
  contactsMax = std::max(contactsMax, step.contactPoints);
  penetrationMax = std::max(penetrationMax, step.penetration);
  asleepFinal = step.asleep;
}

}  // namespace tinkertoy
