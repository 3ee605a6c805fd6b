// WorkLedger: the energy that entered (> 0) or left (< 0) a model through each source that its
// energy E = T + V does not account for, in joules (docs/theory.md, "The work ledger").
//
// A conservative model keeps E constant; anything else that changes E is either one of these
// sources or the integrator's numerical error:
//
//   E(t) − E(0) = W(t) + numerical error,   W = Σ_sources W_s
//
//   damping    springs' damping,                    P = −c (ḋ·n)²
//   drag       viscous drag on every point,         P = −c Σ |ẋ_i|²
//   mouse      the user's hand (the Studio's mouse spring and mouse joint): outside the model
//   motors     motor rows of joints (velocity level), Σ λ_r J_r v̄
//   springs    soft joint rows (a joint's spring settings), Σ λ_r J_r v̄
//   driven     constraints that depend on time or on kinematic bodies: −λᵀ ∂C/∂t; contacts
//              against a kinematic body: its share P · v̄ of their impulses' work
//   impulses   the velocity level's impulses on rigid rows (equalities and inequalities): they
//              should do no work, but a step's impulse removes the velocity it cancels, and its
//              bias towards C = 0 adds some
//   sleep      the kinetic energy of the bodies that fell asleep (dynamics/sleeping_islands.hpp),
//              set to 0 with their velocities
//
// Forces report their power at a state (Force::power) and the simulator sums it over each step
// by the trapezoid rule; the velocity level sums its impulses' work exactly, row by row, from
// the velocities before and after them. Position correction (projection, Baumgarte) is not a
// source: what it changes is numerical error being corrected.
//
//   RunStatistics stats(sim.diagnostics());   // stats.work: the ledger, stats.energyErrorMax
#pragma once

#include <array>

#include "tinkertoy/core/work_source.hpp"

namespace tinkertoy {

class StateArchive;

struct WorkLedger {
  std::array<double, kWorkSources> work{};  // J, by WorkSource

  [[nodiscard]] double& operator[](WorkSource s) { return work[static_cast<std::size_t>(s)]; }
  [[nodiscard]] double operator[](WorkSource s) const { return work[static_cast<std::size_t>(s)]; }
  [[nodiscard]] double total() const;
  WorkLedger& operator+=(const WorkLedger& other);
  WorkLedger& operator-=(const WorkLedger& other);
  // The work over a step of h whose power, entry by entry, went from `start` to `end` (W), by
  // the trapezoid rule.
  [[nodiscard]] static WorkLedger trapezoid(const WorkLedger& start, const WorkLedger& end, double h);
  // Saved or restored with a simulator's state (Simulator::saveState).
  void serialize(StateArchive& archive);
};

}  // namespace tinkertoy
