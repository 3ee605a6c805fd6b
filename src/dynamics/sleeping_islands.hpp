// SleepingIslands: bodies at rest stop costing anything until something touches them (the
// velocity level with contacts, setting `sleep`; Box2D's islands; docs/theory.md, "Sleeping").
//
// Which bodies may sleep: those only contacts and fields move, a rigid body or a 2D disc that is
// neither static nor kinematic, which no enabled constraint and no force naming its points
// holds. A force on every body other than gravity and drag (a formula potential, say) keeps
// every body awake.
//
// At the end of each step each such body's timer grows by dt while its fastest point moves no
// faster than the sleep speed,
//
//   |v| + |ω| reach ≤ sleep_speed        (reach: its shape's farthest point from its center),
//
// and starts again from 0 otherwise. An island is a set of moving bodies joined by the step's
// contacts (a static or kinematic body joins none, so one floor carries many islands; a
// kinematic body that moves at all restarts the timers of the bodies it touches, since the
// contact finder would wake them at once). An island falls asleep when every body in it may sleep and every timer
// has reached sleep_time: its velocities are set to 0, the kinetic energy they held goes to the
// work ledger's `sleep` entry, and its contact points are set aside with their impulses. From
// then on its bodies stay where they are (their velocities are held at 0 after the forces) and
// cost no contact search, preparation or solve, until
//   - a moving body, or a moving kinematic one, touches one of them (the contact finder finds
//     the pair): its island wakes within that find, before any contact is solved, its bodies
//     get the substep's forces they were held from, and its points return as the next
//     preparation's warm start;
//   - the model is edited in any way (a body moved, a mass, a force or constraint added): every
//     island wakes.
// An island is labelled by its smallest body index, so the state file (serialize) restores
// exactly what an uninterrupted run has.
//
//   islands.build(model, solver, finder, settings);
//   ... each step: finder.find(state, h, slop, islands.asleep()); islands.wakeTouched(found, solver)
//   work[WorkSource::Sleep] += islands.update(v, dt, solver);
#pragma once

#include <span>
#include <vector>

#include "tinkertoy/archive/state_archive.hpp"
#include "tinkertoy/dynamics/contact_finder.hpp"
#include "tinkertoy/dynamics/contact_solver.hpp"
#include "tinkertoy/dynamics/simulation_settings.hpp"

namespace tinkertoy {

class SleepingIslands {
 public:
  // Which of `model`'s bodies may sleep; every body awake, every timer at 0. The masses are
  // `solver`'s (refreshed), the reaches `finder`'s (built).
  void build(const Model& model, const ContactSolver& solver, const ContactFinder& finder,
             const VelocitySettings& settings);
  // Reads the model again after an edit (a mass, a force, a constraint's collideConnected),
  // and wakes every island; the points set aside go back to `solver`.
  void edited(const Model& model, ContactSolver& solver, const ContactFinder& finder);

  [[nodiscard]] bool anyAsleep() const { return asleepCount_ > 0; }
  // How many bodies are asleep.
  [[nodiscard]] int asleepCount() const { return asleepCount_; }
  // By dense body index: 1 for a sleeping body; empty while none sleeps.
  [[nodiscard]] std::span<const char> asleep() const {
    return anyAsleep() ? std::span<const char>(asleep_) : std::span<const char>();
  }
  // v = 0 for every sleeping body (after the forces went into v).
  void hold(Eigen::VectorXd& v) const;
  // Wakes the island of every sleeping body in `contacts` (a moving body touched it), its
  // points returned to `solver`; whether any woke (then the contacts are to be found again).
  bool wakeTouched(std::span<const BodyContact> contacts, ContactSolver& solver);
  // Forgets which bodies woke (before a find), and gives them the forces' kick they missed
  // while hold() held them: v += h · acceleration on each body woken since.
  void forgetWoken() { woken_.clear(); }
  void kickWoken(Eigen::VectorXd& v, const Eigen::VectorXd& acceleration, double h) const;
  // Whether any of `points` (the solver's, from a state file) touches a sleeping body.
  [[nodiscard]] bool touchesSleeper(std::span<const ContactSolver::Point> points) const;
  // At the end of a step of dt with velocities v: the timers, and, with the islands that
  // `solver`'s points join, those that fall asleep (their v set to 0, their points taken from
  // `solver`). Returns the kinetic energy their bodies lost (≤ 0, J).
  double update(Eigen::VectorXd& v, double dt, ContactSolver& solver);
  // The contact points of the sleeping islands, with their impulses.
  [[nodiscard]] std::span<const ContactSolver::Point> points() const { return points_; }
  // Timers, labels and points, in either direction.
  void serialize(StateArchive& archive);

 private:
  // Wakes every body labelled `island`.
  void wake(int island);
  // The points of the woken bodies back to `solver`.
  void returnPoints(ContactSolver& solver);
  // sleepers_ from asleep_.
  void listSleepers();
  // Union–find over the dense bodies: the root of i's set.
  int root(int i);

  struct Sleeper {
    Eigen::Index offset = 0;
    bool turns = false;
    bool moves = false;     // neither static nor kinematic: a dynamic collider
    bool mayFall = false;   // moves, and nothing but contacts and fields act on it
    double reach = 0.0;     // m
    double mass = 0.0, inertia = 0.0;  // kg, kg m² (for the kinetic energy it loses)
  };
  void readModel(const Model& model, const ContactSolver& solver, const ContactFinder& finder);
  [[nodiscard]] double speed(const Sleeper& s, const Eigen::VectorXd& v) const;

  double sleepSpeed_ = 0.05, sleepTime_ = 0.5;
  std::vector<Sleeper> bodies_;  // by dense index
  std::vector<double> timers_;   // s
  std::vector<int> island_;      // a sleeping body's island label, −1 while awake
  std::vector<char> asleep_;     // island_ ≥ 0, for the finder
  std::vector<std::size_t> sleepers_;  // the bodies asleep, in dense order
  int asleepCount_ = 0;
  std::vector<ContactSolver::Point> points_;  // the sleeping islands' contact points
  std::vector<std::size_t> woken_;  // the bodies woken since forgetWoken()
  // Scratch: the union–find's parents, whether a set may fall asleep, and the points returning.
  std::vector<int> parent_;
  std::vector<char> blocked_;
  std::vector<ContactSolver::Point> returning_;
};

}  // namespace tinkertoy
