// RunawayWatch: the blow-up criterion for a state that is still finite (docs/theory.md,
// "Blow-ups"). A step that is unstable (a spring too stiff for dt, a formula with a pole) can
// multiply the energy by tens of orders of magnitude before anything overflows; such a state is
// no longer a simulation of the model, and is refused like a non-finite one.
//
// The watch keeps a reference: the energy E_ref = T + V of the state the run started from (or
// was last edited or restored to), and the work W the ledger booked since. Energy a step ends
// with beyond what they explain is the integrator's numerical error,
//
//   e = E − E_ref − W,
//
// and the state ran away when |e| exceeds kFactor times the model's own energy scale,
//
//   S = |T_ref| + |V_ref| + Σ |W_s per step| + M (L / dt)²,
//
// its energy at the reference, all the work done on it either way, and the kinetic energy of its
// whole mass M moving its size L (≥ 1 m) in one step dt: a million times what the model had,
// was given, or could have if every body crossed it each step. After an edit the reference
// moves to the edited state, with S at most a thousand times the run's own (rebase()).
//
//   watch.restart(T, V, M, L, dt);
//   if (const auto v = watch.judge(E, stepWork); v.runaway) refuse(v);
//   watch.commit(stepWork);
#pragma once

#include "tinkertoy/dynamics/work_ledger.hpp"

namespace tinkertoy {

class StateArchive;

class RunawayWatch {
 public:
  static constexpr double kFactor = 1e6;

  // An edit may raise the scale at most this many times above the run's own (restart()).
  static constexpr double kEditGrowth = 1e3;

  // A new reference: a state of kinetic and potential energy T and V (J), a model of mass M (kg,
  // all its bodies) and size L (m), stepped by dt (s). The scale S becomes the run's own.
  void restart(double kinetic, double potential, double mass, double size, double dt);
  // The reference after an edit of the running model (a mouse's target moved, a motor's speed
  // changed): E_ref and the work restart at the edited state, and S is that state's, but at
  // most kEditGrowth times the run's own. Otherwise a runaway that edits keep renewing (a drag
  // moves the mouse's target every frame) would be measured against its own inflated energy
  // and never caught; an honest edit that raises the energy a thousandfold stays far inside
  // the bound.
  void rebase(double kinetic, double potential, double mass, double size, double dt);

  struct Verdict {
    bool runaway = false;
    double error = 0.0;  // e, J
    double scale = 0.0;  // S, J
  };
  // Whether a step that ends at energy E, having booked stepWork, ran away. A model without mass
  // has nothing to run away.
  [[nodiscard]] Verdict judge(double energy, const WorkLedger& stepWork) const;
  // The step was committed: its work joins the reference's.
  void commit(const WorkLedger& stepWork);

  // Saved and restored with the simulator's state, so a resumed run judges as the original.
  void serialize(StateArchive& archive);

 private:
  double energy_ = 0.0;        // E_ref, J
  double scale_ = 0.0;         // |T_ref| + |V_ref| + M (L / dt)², J
  double work_ = 0.0;          // W since the reference, J
  double absoluteWork_ = 0.0;  // Σ |W_s| per step since the reference, J
  double runScale_ = 0.0;      // S at the last restart(), the run's own, J
};

}  // namespace tinkertoy
