#include "dynamics/sleeping_islands.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "tinkertoy/forces/force_settings.hpp"

namespace tinkertoy {

void SleepingIslands::build(const Model& model, const ContactSolver& solver, const ContactFinder& finder,
                            const VelocitySettings& settings) {
  sleepSpeed_ = settings.sleepSpeed;
  sleepTime_ = settings.sleepTime;
  readModel(model, solver, finder);
  const std::size_t n = bodies_.size();
  timers_.assign(n, 0.0);
  island_.assign(n, -1);
  asleep_.assign(n, 0);
  asleepCount_ = 0;
  sleepers_.clear();
  points_.clear();
  parent_.resize(n);
  blocked_.resize(n);
  // Room for every body asleep and two points in each of a pile's contacts (ContactSolver's
  // reserve), so that falling asleep and waking do not allocate.
  sleepers_.reserve(n);
  woken_.reserve(n);
  points_.reserve(8 * n);
  returning_.reserve(8 * n);
}

void SleepingIslands::edited(const Model& model, ContactSolver& solver, const ContactFinder& finder) {
  readModel(model, solver, finder);
  if (!anyAsleep()) return;
  std::fill(island_.begin(), island_.end(), -1);
  std::fill(asleep_.begin(), asleep_.end(), 0);
  std::fill(timers_.begin(), timers_.end(), 0.0);
  asleepCount_ = 0;
  returnPoints(solver);
  sleepers_.clear();
}

void SleepingIslands::readModel(const Model& model, const ContactSolver& solver, const ContactFinder& finder) {
  bodies_.assign(model.bodyCount(), Sleeper{});
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const ContactSolver::BodyMass& m = solver.body(i);
    Sleeper& s = bodies_[i];
    s.offset = m.offset;
    s.turns = m.turns;
    s.reach = finder.reachOf(i);
    s.moves = m.inverseMass > 0.0;  // a dynamic collider (ContactSolver::refresh)
    s.mayFall = s.moves;
    s.mass = s.moves ? 1.0 / m.inverseMass : 0.0;
    s.inertia = m.inverseInertia > 0.0 ? 1.0 / m.inverseInertia : 0.0;
  }
  const auto hold = [&](BodyId body) { bodies_[model.indexOf(body)].mayFall = false; };
  for (std::size_t k = 0; k < model.constraintCount(); ++k) {
    const ConstraintId id = model.constraintAt(k);
    if (!model.isEnabled(id)) continue;
    for (const BodyPoint& p : model.constraint(id).points()) hold(p.body);
  }
  for (std::size_t k = 0; k < model.forceCount(); ++k) {
    const Force& force = model.force(model.forceAt(k));
    for (const BodyPoint& p : force.points()) hold(p.body);
    const bool field = force.type() == GravitySettings::type || force.type() == DragSettings::type;
    if (force.points().empty() && !field) {  // it acts on every body, in a way a rest does not tell
      for (Sleeper& s : bodies_) s.mayFall = false;
    }
  }
}

double SleepingIslands::speed(const Sleeper& s, const Eigen::VectorXd& v) const {
  return v.segment<2>(s.offset).norm() + (s.turns ? std::abs(v[s.offset + 2]) * s.reach : 0.0);
}

void SleepingIslands::hold(Eigen::VectorXd& v) const {
  for (const std::size_t i : sleepers_) {
    const Sleeper& s = bodies_[i];
    v.segment<2>(s.offset).setZero();
    if (s.turns) v[s.offset + 2] = 0.0;
  }
}

void SleepingIslands::listSleepers() {
  sleepers_.clear();
  for (std::size_t i = 0; i < asleep_.size(); ++i) {
    if (asleep_[i]) sleepers_.push_back(i);
  }
}

int SleepingIslands::root(int i) {
  while (parent_[static_cast<std::size_t>(i)] != i) {
    int& up = parent_[static_cast<std::size_t>(i)];
    up = parent_[static_cast<std::size_t>(up)];  // path halving
    i = up;
  }
  return i;
}

double SleepingIslands::update(Eigen::VectorXd& v, double dt, ContactSolver& solver) {
  const int n = static_cast<int>(bodies_.size());
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const Sleeper& s = bodies_[i];
    if (!s.moves || asleep_[i]) continue;
    timers_[i] = speed(s, v) > sleepSpeed_ ? 0.0 : timers_[i] + dt;
  }
  std::iota(parent_.begin(), parent_.end(), 0);
  for (const ContactSolver::Point& c : std::as_const(solver).points()) {
    const Sleeper &a = bodies_[c.a], &b = bodies_[c.b];
    if (a.moves && b.moves) {
      const int ra = root(static_cast<int>(c.a)), rb = root(static_cast<int>(c.b));
      parent_[static_cast<std::size_t>(std::max(ra, rb))] = std::min(ra, rb);  // the smallest index is the root
    } else if (a.moves != b.moves) {  // a kinematic body that moves at all keeps what it touches awake
      const Sleeper& driver = a.moves ? b : a;
      if (speed(driver, v) > 0.0) timers_[a.moves ? c.a : c.b] = 0.0;
    }
  }
  // A set may fall asleep when none of its bodies holds it awake; its root is its smallest body.
  std::fill(blocked_.begin(), blocked_.end(), 0);
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (!bodies_[k].moves || asleep_[k]) continue;
    if (!bodies_[k].mayFall || timers_[k] < sleepTime_) blocked_[static_cast<std::size_t>(root(i))] = 1;
  }
  double lost = 0.0;
  const int before = asleepCount_;
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (!bodies_[k].moves || asleep_[k]) continue;
    const int r = root(i);
    if (blocked_[static_cast<std::size_t>(r)]) continue;
    const Sleeper& s = bodies_[k];
    const double w = s.turns ? v[s.offset + 2] : 0.0;
    lost += 0.5 * (s.mass * v.segment<2>(s.offset).squaredNorm() + s.inertia * w * w);
    v.segment(s.offset, s.turns ? 3 : 2).setZero();
    island_[k] = r;
    asleep_[k] = 1;
    ++asleepCount_;
  }
  if (asleepCount_ > before) {
    solver.setAside(asleep_, points_);
    listSleepers();
  }
  return -lost;
}

void SleepingIslands::wake(int island) {
  for (std::size_t i = 0; i < island_.size(); ++i) {
    if (island_[i] != island) continue;
    island_[i] = -1;
    asleep_[i] = 0;
    timers_[i] = 0.0;
    --asleepCount_;
    woken_.push_back(i);
  }
}

void SleepingIslands::kickWoken(Eigen::VectorXd& v, const Eigen::VectorXd& acceleration, double h) const {
  for (const std::size_t i : woken_) {
    const Sleeper& s = bodies_[i];
    const Eigen::Index size = s.turns ? 3 : 2;
    v.segment(s.offset, size) += h * acceleration.segment(s.offset, size);
  }
}

bool SleepingIslands::wakeTouched(std::span<const BodyContact> contacts, ContactSolver& solver) {
  if (!anyAsleep()) return false;
  bool woke = false;
  for (const BodyContact& c : contacts) {
    for (const std::size_t body : {c.a, c.b}) {
      if (!asleep_[body]) continue;
      wake(island_[body]);
      woke = true;
    }
  }
  if (woke) {
    returnPoints(solver);
    listSleepers();
  }
  return woke;
}

void SleepingIslands::returnPoints(ContactSolver& solver) {
  returning_.clear();
  const auto stillAsleep = [&](const ContactSolver::Point& p) { return asleep_[p.a] || asleep_[p.b]; };
  for (const ContactSolver::Point& p : points_) {
    if (!stillAsleep(p)) returning_.push_back(p);
  }
  std::erase_if(points_, [&](const ContactSolver::Point& p) { return !stillAsleep(p); });
  solver.welcome(returning_);
}

void SleepingIslands::serialize(StateArchive& archive) {
  const std::size_t n = bodies_.size();
  archive.numbers(timers_, n);
  std::int64_t count = asleepCount_;
  archive.integer(count);
  if (archive.reading()) {
    if (count < 0 || static_cast<std::uint64_t>(count) > n) {
      throw StateError("the state file holds more sleeping bodies than this model has");
    }
    std::fill(island_.begin(), island_.end(), -1);
    std::fill(asleep_.begin(), asleep_.end(), 0);
    asleepCount_ = static_cast<int>(count);
  }
  // Each sleeping body and its island's label.
  std::size_t next = 0;
  for (std::int64_t k = 0; k < count; ++k) {
    std::int64_t body = 0, label = 0;
    if (!archive.reading()) {
      while (island_[next] < 0) ++next;
      body = static_cast<std::int64_t>(next);
      label = island_[next++];
    }
    archive.integer(body);
    archive.integer(label);
    if (archive.reading()) {
      // In dense order, each body once, one that may sleep; its island labelled by a body at or before it.
      const bool valid = body >= 0 && static_cast<std::uint64_t>(body) < n && label >= 0 && label <= body &&
                         bodies_[static_cast<std::size_t>(body)].mayFall && !asleep_[static_cast<std::size_t>(body)];
      if (!valid) throw StateError("the state file holds a sleeping body that this model cannot put to sleep");
      island_[static_cast<std::size_t>(body)] = static_cast<int>(label);
      asleep_[static_cast<std::size_t>(body)] = 1;
    }
  }
  ContactSolver::serializePoints(archive, points_, n);
  if (!archive.reading()) return;
  listSleepers();
  for (const double t : timers_) {
    if (!(std::isfinite(t) && t >= 0.0)) throw StateError("the state file holds a sleep timer that is not a time");
  }
  // An island's label is its first body, asleep in it; its points touch a sleeper.
  for (const std::size_t i : sleepers_) {
    if (island_[static_cast<std::size_t>(island_[i])] != island_[i]) {
      throw StateError("the state file holds a sleeping island whose label is not one of its bodies");
    }
  }
  for (const ContactSolver::Point& p : points_) {
    if (!asleep_[p.a] && !asleep_[p.b]) throw StateError("the state file holds a sleeping contact of two awake bodies");
  }
}

bool SleepingIslands::touchesSleeper(std::span<const ContactSolver::Point> points) const {
  if (!anyAsleep()) return false;
  return std::any_of(points.begin(), points.end(),
                     [&](const ContactSolver::Point& p) { return asleep_[p.a] || asleep_[p.b]; });
}

}  // namespace tinkertoy
