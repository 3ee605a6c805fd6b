// Session: stepping, dragging and recording (session.hpp).
#include "session.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <sstream>

#include "mouse_grip.hpp"
#include "tinkertoy/constraints/mouse_joint.hpp"
#include "tinkertoy/forces/mouse_spring.hpp"
#include "tinkertoy/core/point.hpp"

namespace tinkertoy::studio {

namespace {

constexpr std::size_t kHistoryLength = 3600;  // samples: a minute at 60 frames per second
constexpr std::size_t kTrailLength = 240;     // positions per point
constexpr std::size_t kTraceLength = 3600;    // positions per traced point: a minute at 60 samples/s

}  // namespace

Session::Session(Document& document) : document_(document) { sync(); }

void Session::sync() {
  if (simulator_ && revision_ == document_.revision()) return;
  drag_ = std::monostate{};  // a new scene has no drag in it
  revision_ = document_.revision();
  Scene& scene = document_.scene();
  simulator_.reset();  // the model takes one simulator at a time
  simulator_ = std::make_unique<Simulator>(scene.model, scene.settings);
  try {
    simulator_->refreshDiagnostics();  // energy and ‖C‖ of the state as it is, for the plots
  } catch (const std::exception& e) {
    error_ = e.what();
  }
  carry_ = 0.0;
  trails_.assign(scene.model.bodyCount(), {});
  // An edit mid-run reloads the scene, whose time starts again at 0: the curves of the run
  // before it belong to another time line.
  if (!history_.empty() && scene.model.time() < history_.back().time) clearHistory();
  record();
}

void Session::restart() {
  // A drag in a scene that has since been replaced went with it; one in this scene must go.
  if (revision_ == document_.revision()) endDrag();
  playing_ = false;
  clearHistory();
  simulator_.reset();
  sync();
}

void Session::setPlaying(bool playing) {
  playing_ = playing;
  carry_ = 0.0;
  if (playing) error_.clear();
}

void Session::countStep() {
  const auto now = std::chrono::steady_clock::now();
  stepTimes_.push_back(now);
  while (!stepTimes_.empty() && now - stepTimes_.front() > std::chrono::seconds(1)) stepTimes_.pop_front();
  stepsPerSecond_ = static_cast<double>(stepTimes_.size());
}

bool Session::tryStep() {
  try {
    simulator_->step();
  } catch (const std::exception& e) {  // a blow-up, or settings the model cannot run with
    error_ = e.what();
    playing_ = false;
    return false;
  }
  countStep();
  work_ += simulator_->diagnostics().work;
  return true;
}

Bounds Session::pathBounds(const ViewDirection& view) const {
  Bounds bounds;
  const auto addPath = [&](const std::deque<Eigen::Vector3d>& path) {
    for (const Eigen::Vector3d& x : path) bounds.add(view.toPicture(x));
  };
  for (const auto& body : trails_) {
    for (const auto& path : body) addPath(path);
  }
  for (const Trace& trace : traces_) addPath(trace.path);
  return bounds;
}

std::string Session::solverReport() const {
  const StepDiagnostics& d = simulator_->diagnostics();
  const auto count = [](long n, const char* what) {
    std::ostringstream text;
    text << n << ' ' << what << (n == 1 ? "" : "s");
    return text.str();
  };
  const SolverKind kind = document_.scene().settings.solver.kind;
  std::string report = std::string(solverName(kind)) + ": ";
  // Sequential passes stop at their count, not at a residual: ‖C‖ says how far they got.
  if (kind == SolverKind::SequentialImpulses) {
    return report + std::to_string(d.solverIterations) + (d.solverIterations == 1 ? " pass" : " passes");
  }
  std::ostringstream residual;
  residual << std::scientific << std::setprecision(1) << d.solverResidual;
  if (kind != SolverKind::SparseLdlt) return report + count(d.solverIterations, "iteration") + ", residual " + residual.str();
  // A factored solve counts as one iteration (solvers/direct_solver.cpp); the rest are the
  // conjugate-gradient iterations of solves that reused an earlier factorization.
  report += count(d.factorizations, "factorization");
  const long reused = d.solverIterations - d.factorizations;
  if (reused > 0) report += " + " + count(reused, "iteration") + " on a reused one";
  return report + ", residual " + residual.str();
}

// A new time line (a reset, an undo, an edit that starts the run again): the curves and the
// traced paths of the old one end here, or they would be joined across the jump.
void Session::clearHistory() {
  history_.clear();
  work_ = {};
  for (Trace& trace : traces_) trace.path.clear();
}

void Session::step() {
  sync();
  tryStep();
  record();
}

void Session::advance(double frameSeconds, bool deterministic) {
  sync();
  if (!playing_) {
    stepsPerSecond_ = 0.0;
    stepTimes_.clear();
    return;
  }
  const double dt = document_.scene().settings.dt;
  carry_ += frameSeconds * timeScale;
  const auto start = std::chrono::steady_clock::now();
  const auto budget = std::chrono::duration<double>(0.8 * frameSeconds);
  bool stepped = false;
  while (carry_ >= dt && tryStep()) {
    stepped = true;
    carry_ -= dt;
    if (!deterministic && std::chrono::steady_clock::now() - start > budget) {
      carry_ = 0.0;  // slower than real time: drop what is owed rather than fall behind
      break;
    }
  }
  // Only a step gives a new sample: in slow motion most frames take none, and the mouse may have
  // moved since the last one, so its spring's energy now would not belong to the state recorded.
  if (stepped) record();
}

void Session::record() {
  const Model& model = document_.scene().model;
  const StepDiagnostics& d = simulator_->diagnostics();
  // The mouse spring is the user's hand: its energy is not the model's, its work is in the ledger.
  const HistorySample sample{model.time(), d.kineticEnergy, d.potentialEnergy, d.totalEnergy(), d.constraintError,
                             work_.total()};
  if (!history_.empty() && history_.back().time == sample.time) {
    history_.back() = sample;  // paused (or edited) at the same time: the latest state counts
  } else {
    history_.push_back(sample);
    if (history_.size() > kHistoryLength) history_.pop_front();
  }
  for (std::size_t i = 0; i < model.bodyCount() && i < trails_.size(); ++i) {
    const BodyId id = model.bodyAt(i);
    const int points = model.body(id).pointCount();
    trails_[i].resize(static_cast<std::size_t>(points));
    for (int k = 0; k < points; ++k) {
      auto& trail = trails_[i][static_cast<std::size_t>(k)];
      trail.push_back(padTo3d(model.position({id, k})));
      if (trail.size() > kTrailLength) trail.pop_front();
    }
  }
  for (Trace& trace : traces_) {
    const std::optional<BodyId> body = model.findBody(trace.body);
    if (!body || (!model.body(*body).hasFrame() && trace.site.index >= model.body(*body).pointCount())) continue;
    BodyPoint point(*body);
    point.site = trace.site;
    trace.path.push_back(padTo3d(model.position(point)));
    if (trace.path.size() > kTraceLength) trace.path.pop_front();
  }
}

bool Session::toggleTrace(const BodyPoint& point) {
  const std::string& body = document_.scene().model.name(point.body);
  const auto traced = std::find_if(traces_.begin(), traces_.end(),
                                   [&](const Trace& t) { return t.body == body && t.site == point.site; });
  if (traced != traces_.end()) {
    traces_.erase(traced);
    return false;
  }
  traces_.push_back({body, point.site, {}});
  record();
  return true;
}

void Session::beginDrag(const BodyPoint& point, const Eigen::VectorXd& target) {
  sync();
  endDrag();
  Model& model = document_.scene().model;
  const double mass = model.mass(point.body);
  const bool joint = model.dimension() == 2 && document_.scene().settings.formulation == FormulationKind::Velocity;
  if (joint) {
    const MouseGrip grip = mouseGrip(model, document_.scene().settings, point);
    drag_ = model.addConstraint(std::make_unique<MouseJoint>(point, target.head<2>(), grip.spring, grip.maxForce), "mouse drag");
  } else {
    const double omega = 2.0 * std::numbers::pi * kGripFrequency;
    drag_ = model.addForce(
        std::make_unique<MouseSpring>(point, target, mass * omega * omega, 2.0 * kGripDampingRatio * mass * omega));
  }
}

void Session::moveDrag(const Eigen::VectorXd& target) {
  Model& model = document_.scene().model;
  if (const auto* force = std::get_if<ForceId>(&drag_); force && model.contains(*force)) {
    model.editForce<MouseSpringSettings>(*force, [&](MouseSpringSettings& s) { s.target = target; });
  } else if (const auto* constraint = std::get_if<ConstraintId>(&drag_); constraint && model.contains(*constraint)) {
    model.editConstraint<MouseJointSettings>(*constraint, [&](MouseJointSettings& s) { s.target = target.head<2>(); });
  }
}

void Session::endDrag() {
  Model& model = document_.scene().model;
  if (const auto* force = std::get_if<ForceId>(&drag_); force && model.contains(*force)) model.removeForce(*force);
  if (const auto* constraint = std::get_if<ConstraintId>(&drag_); constraint && model.contains(*constraint)) {
    model.removeConstraint(*constraint);
  }
  drag_ = std::monostate{};
}

}  // namespace tinkertoy::studio
