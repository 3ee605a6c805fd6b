// The combinations of formulation, solver, position correction, factorization, integrator,
// scheme and threads that the tests step every scene with: each formulation with each solver
// it accepts, each position correction, RATTLE, dopri5, Verlet, an explicit factorization and
// two threads. Used by the allocation test and the save-and-restore test.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "tinkertoy/dynamics/simulation_settings.hpp"

namespace tinkertoy {

struct Configuration {
  FormulationKind formulation;
  SolverKind solver;
  PositionCorrection correction = PositionCorrection::Baumgarte;
  FactorizationKind factorization = FactorizationKind::Automatic;
  bool project = false;  // acceleration level
  int threads = 1;
  IntegratorKind integrator = IntegratorKind::RungeKutta4;  // acceleration level
  VelocityScheme scheme = VelocityScheme::SymplecticEuler;  // velocity level

  // Sets these over a scene's settings.
  void applyTo(SimulationSettings& s) const {
    s.formulation = formulation;
    s.solver.kind = solver;
    s.solver.factorization = factorization;
    s.solver.regularization = 1e-10;  // cloth-like scenes may be redundant for the direct solve
    s.velocity.positionCorrection = correction;
    s.projection.enabled = project;
    s.threads = threads;
    s.integrator = integrator;
    s.velocity.scheme = scheme;
    if (integrator == IntegratorKind::Rattle) s.ks = s.kd = 0.0;  // RATTLE refuses feedback
  }
};

// Built by appending: GCC 12 warns falsely (-Wrestrict) on chains of string +.
inline std::string label(const Configuration& c) {
  std::string name(formulationName(c.formulation));
  name.append("_").append(solverName(c.solver));
  if (c.formulation == FormulationKind::Velocity) name.append("_").append(positionCorrectionName(c.correction));
  if (c.solver == SolverKind::SparseLdlt) name.append("_").append(factorizationName(c.factorization));
  if (c.project) name.append("_projected");
  if (c.integrator != IntegratorKind::RungeKutta4) name.append("_").append(integratorName(c.integrator));
  if (c.scheme != VelocityScheme::SymplecticEuler) name.append("_").append(velocitySchemeName(c.scheme));
  if (c.threads > 1) name.append("_").append(std::to_string(c.threads)).append("_threads");
  std::replace(name.begin(), name.end(), '-', '_');  // "symplectic-euler": a test name may not hold '-'
  return name;
}

inline std::vector<Configuration> configurations() {
  std::vector<Configuration> all;
  for (const SolverKind solver : {SolverKind::ConjugateGradient, SolverKind::SparseLdlt}) {
    for (const bool project : {false, true}) {
      all.push_back({FormulationKind::Acceleration, solver, PositionCorrection::None, FactorizationKind::Automatic, project});
    }
  }
  for (const SolverKind solver : {SolverKind::SequentialImpulses, SolverKind::ConjugateGradient, SolverKind::SparseLdlt}) {
    for (const PositionCorrection correction : {PositionCorrection::Baumgarte, PositionCorrection::Projection}) {
      all.push_back({FormulationKind::Velocity, solver, correction});
    }
  }
  all.push_back({FormulationKind::Velocity, SolverKind::SequentialImpulses, PositionCorrection::SoftStep});
  for (const SolverKind solver : {SolverKind::ConjugateGradient, SolverKind::SparseLdlt}) {
    all.push_back({FormulationKind::Acceleration, solver, PositionCorrection::None, FactorizationKind::Automatic, false, 1,
                   IntegratorKind::Rattle});
  }
  for (const bool project : {false, true}) {
    all.push_back({FormulationKind::Acceleration, SolverKind::SparseLdlt, PositionCorrection::None,
                   FactorizationKind::Automatic, project, 1, IntegratorKind::DormandPrince5});
  }
  for (const SolverKind solver : {SolverKind::SequentialImpulses, SolverKind::SparseLdlt}) {
    for (const PositionCorrection correction : {PositionCorrection::Baumgarte, PositionCorrection::Projection}) {
      all.push_back({FormulationKind::Velocity, solver, correction, FactorizationKind::Automatic, false, 1,
                     IntegratorKind::RungeKutta4, VelocityScheme::Verlet});
    }
  }
  for (const FactorizationKind kind : {FactorizationKind::Simplicial}) {
    all.push_back({FormulationKind::Acceleration, SolverKind::SparseLdlt, PositionCorrection::None, kind, true});
    all.push_back({FormulationKind::Velocity, SolverKind::SparseLdlt, PositionCorrection::Projection, kind});
  }
  // The step's threads wait between loops and take their shares without allocating.
  all.push_back({FormulationKind::Acceleration, SolverKind::ConjugateGradient, PositionCorrection::None,
                 FactorizationKind::Automatic, true, 2});
  all.push_back({FormulationKind::Velocity, SolverKind::SparseLdlt, PositionCorrection::Projection,
                 FactorizationKind::Automatic, false, 2});
  return all;
}

}  // namespace tinkertoy
