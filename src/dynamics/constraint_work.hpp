// ConstraintWork: the work that constraint impulses (or forces) do on the bodies that move, row
// by row, into the work ledger (dynamics/work_ledger.hpp, docs/theory.md, "The work ledger").
//
// A substep starts at velocities v, the applied forces kick them to v* = v + h W Q, and the
// impulses λ take v* to v⁺ = v* + W Jᵀ λ. The impulses' work is counted as
//
//   W = Σ_r λ_r (J v̄)_r,   v̄ = (v + v⁺) / 2 on the movable bodies, 0 on driven ones
//
// which is the change of kinetic energy the impulses would make without the kick, and what
// they make when the kick is zero. It leaves out the velocity the kick had just added and the
// impulse cancels (gravity's on a body at rest on a joint, every substep), which moves no
// energy: then v = v⁺ and W = 0. For symplectic Euler with a uniform force, what is left,
// E(t) − E(0) − W, is −½ h Q·(v⁺ − v) per substep, which sums to a bounded oscillation: the
// integrator's own error. A rigid row's share is the energy its impulses remove in cancelling
// the velocity that leaves C = 0 (the velocity level's dissipation); a motor's is torque × angle
// turned. A force λ at a state does work at the rate λᵀ J v there (before = after = v), which
// is how the acceleration level sums its driven rows' power. Leaving out the driven (static or
// kinematic) bodies' columns counts what a kinematic body does through a joint as energy put
// into the model.
//
//   ConstraintWork work;
//   work.build(model);                                   // after the layout changes
//   work.add(system, impulses, vStart, vPlus, ledger);   // ledger += each row's work
#pragma once

#include <Eigen/Core>
#include <vector>

#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/work_ledger.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {

class ConstraintWork {
 public:
  // Notes which slices of v belong to driven bodies.
  void build(const Model& model);
  // ledger += Σ_r λ_r (J v̄)_r by row source, v̄ = (before + after) / 2 on the movable bodies
  // only, with the system's J. With drivenOnly, only the Driven rows. λ: [m]; before, after: [n].
  void add(const ConstraintSystem& system, const Eigen::VectorXd& lambda, const Eigen::VectorXd& before,
           const Eigen::VectorXd& after, WorkLedger& ledger, bool drivenOnly = false);

 private:
  std::vector<std::pair<Eigen::Index, Eigen::Index>> driven_;  // (offset, size) of driven bodies' slices
  Eigen::VectorXd mean_, rates_;                               // v̄ [n] and J v̄ [m]
};

}  // namespace tinkertoy
