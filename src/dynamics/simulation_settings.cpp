#include "tinkertoy/dynamics/simulation_settings.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>


namespace tinkertoy {

namespace {

constexpr std::array<std::pair<FormulationKind, std::string_view>, 2> kFormulations = {{
    {FormulationKind::Acceleration, "acceleration"},
    {FormulationKind::Velocity, "velocity"},
}};

constexpr std::array<std::pair<PositionCorrection, std::string_view>, 4> kCorrections = {{
    {PositionCorrection::None, "none"},
    {PositionCorrection::Baumgarte, "baumgarte"},
    {PositionCorrection::Projection, "projection"},
    {PositionCorrection::SoftStep, "soft"},
}};

constexpr std::array<std::pair<VelocityScheme, std::string_view>, 2> kSchemes = {{
    {VelocityScheme::SymplecticEuler, "symplectic-euler"},
    {VelocityScheme::Verlet, "verlet"},
}};

template <class Kind, std::size_t N>
std::string_view nameOf(const std::array<std::pair<Kind, std::string_view>, N>& names, Kind kind) {
  for (const auto& [k, name] : names) {
    if (k == kind) return name;
  }
  return "unknown";
}

template <class Kind, std::size_t N>
std::optional<Kind> parse(const std::array<std::pair<Kind, std::string_view>, N>& names, std::string_view name) {
  for (const auto& [kind, n] : names) {
    if (n == name) return kind;
  }
  return std::nullopt;
}

}  // namespace

std::string_view formulationName(FormulationKind kind) { return nameOf(kFormulations, kind); }
std::optional<FormulationKind> parseFormulation(std::string_view name) { return parse(kFormulations, name); }
std::string_view positionCorrectionName(PositionCorrection correction) { return nameOf(kCorrections, correction); }
std::optional<PositionCorrection> parsePositionCorrection(std::string_view name) {
  return parse(kCorrections, name);
}

std::string_view velocitySchemeName(VelocityScheme scheme) { return nameOf(kSchemes, scheme); }
std::optional<VelocityScheme> parseVelocityScheme(std::string_view name) { return parse(kSchemes, name); }

bool SimulationSettings::correctsDrift() const {
  if (formulation == FormulationKind::Velocity) return velocity.positionCorrection != PositionCorrection::None;
  return projection.enabled || integrator == IntegratorKind::Rattle || (ks > 0.0 && kd > 0.0);
}

namespace {

struct SettingRecord {
  Setting setting;
  SettingSpelling spelling;
};

constexpr std::array<SettingRecord, 33> kSettings = {{
    {Setting::Dt, {"dt", "dt"}},
    {Setting::Formulation, {"formulation", "formulation"}},
    {Setting::Integrator, {"integrator", "integrator"}},
    {Setting::RelativeTolerance, {"rtol", "error_tolerance.relative"}},
    {Setting::AbsoluteTolerance, {"atol", "error_tolerance.absolute"}},
    {Setting::Solver, {"solver", "solver.kind"}},
    {Setting::SolverTolerance, {"tolerance", "solver.tolerance"}},
    {Setting::MaxIterations, {"max_iterations", "solver.max_iterations"}},
    {Setting::Regularization, {"regularization", "solver.regularization"}},
    {Setting::Factorization, {"factorization", "solver.factorization"}},
    {Setting::ReuseIterations, {"reuse_iterations", "solver.reuse_iterations"}},
    {Setting::Threads, {"threads", "threads"}},
    {Setting::Ks, {"ks", "ks"}},
    {Setting::Kd, {"kd", "kd"}},
    {Setting::Project, {"project", "projection.enabled"}},
    {Setting::ProjectionTolerance, {"", "projection.tolerance"}},
    {Setting::ProjectionIterations, {"", "projection.max_iterations"}},
    {Setting::Iterations, {"iterations", "velocity.iterations"}},
    {Setting::Substeps, {"substeps", "velocity.substeps"}},
    {Setting::VelocityScheme, {"velocity_scheme", "velocity.scheme"}},
    {Setting::WarmStart, {"warm_start", "velocity.warm_start"}},
    {Setting::PositionCorrection, {"position_correction", "velocity.position_correction"}},
    {Setting::Baumgarte, {"", "velocity.baumgarte"}},
    {Setting::JointHertz, {"joint_hertz", "velocity.joint_hertz"}},
    {Setting::JointDampingRatio, {"joint_damping_ratio", "velocity.joint_damping_ratio"}},
    {Setting::Collisions, {"collisions", "velocity.collisions"}},
    {Setting::Friction, {"friction", "velocity.friction"}},
    {Setting::Restitution, {"restitution", "velocity.restitution"}},
    {Setting::ContactHertz, {"contact_hertz", "velocity.contact_hertz"}},
    {Setting::ContactDampingRatio, {"contact_damping_ratio", "velocity.contact_damping_ratio"}},
    {Setting::Sleep, {"sleep", "velocity.sleep"}},
    {Setting::SleepSpeed, {"sleep_speed", "velocity.sleep_speed"}},
    {Setting::SleepTime, {"sleep_time", "velocity.sleep_time"}},
}};

std::string numberText(double x) {
  std::ostringstream text;
  text << x;
  return text.str();
}

void requireFinite(Setting setting, double x) {
  if (!std::isfinite(x)) throw SettingsError({setting}, "must be a finite number, got " + numberText(x));
}

void requirePositive(Setting setting, double x) {
  requireFinite(setting, x);
  if (!(x > 0.0)) throw SettingsError({setting}, "must be positive, got " + numberText(x));
}

void requireNonNegative(Setting setting, double x) {
  requireFinite(setting, x);
  if (x < 0.0) throw SettingsError({setting}, "must not be negative, got " + numberText(x));
}

void requireAtMost(Setting setting, double x, double most, std::string_view why) {
  if (x > most) {
    throw SettingsError({setting}, "must be at most " + numberText(most) + ", got " + numberText(x) + std::string(why));
  }
}

// The settings that bound a step's work, and those that must agree with each other.
void validateWork(const SimulationSettings& s) {
  requireWhole(Setting::Iterations, s.velocity.iterations);
  requireWhole(Setting::Substeps, s.velocity.substeps);
  const long long passes = static_cast<long long>(s.velocity.iterations) * s.velocity.substeps;
  if (passes > kMostPassesPerStep) {
    throw SettingsError({Setting::Iterations, Setting::Substeps},
                        "iterations × substeps is " + std::to_string(passes) + " passes per step; at most " +
                            std::to_string(kMostPassesPerStep) + " are allowed");
  }
  requireWhole(Setting::MaxIterations, s.solver.maxIterations);
  requireWhole(Setting::ReuseIterations, s.solver.reuseIterations);
  requireWhole(Setting::Threads, s.threads);
  requireWhole(Setting::ProjectionIterations, s.projection.maxIterations);
}

void validateCombinations(const SimulationSettings& s) {
  const bool velocity = s.formulation == FormulationKind::Velocity;
  if (velocity && s.velocity.positionCorrection == PositionCorrection::SoftStep &&
      s.solver.kind != SolverKind::SequentialImpulses) {
    throw SettingsError({Setting::PositionCorrection, Setting::Solver},
                        "the soft step is a sequential-impulse scheme; use solver sequential, or position "
                        "correction none, baumgarte or projection");
  }
  if (velocity && s.velocity.positionCorrection == PositionCorrection::SoftStep &&
      s.velocity.scheme == VelocityScheme::Verlet) {
    throw SettingsError({Setting::VelocityScheme, Setting::PositionCorrection},
                        "the soft step has its own substeps; use velocity scheme symplectic-euler with it, or "
                        "position correction none, baumgarte or projection with verlet");
  }
  if (!velocity && s.integrator == IntegratorKind::Rattle && (s.ks != 0.0 || s.kd != 0.0)) {
    throw SettingsError({s.ks != 0.0 ? Setting::Ks : Setting::Kd, Setting::Integrator},
                        "rattle holds C = 0 and Ċ = 0 at every step by itself; ks and kd must be 0 with it");
  }
  if (s.velocity.collisions && !velocity) {
    throw SettingsError({Setting::Collisions, Setting::Formulation},
                        "contacts are solved at the velocity level; use formulation velocity with them");
  }
  const bool global = s.solver.kind != SolverKind::SequentialImpulses;
  const bool projection = s.velocity.positionCorrection == PositionCorrection::Projection;
  if (s.velocity.collisions && velocity && global && !projection) {
    throw SettingsError({Setting::Collisions, Setting::Solver, Setting::PositionCorrection},
                        "with solver cg or ldlt contacts are solved exactly, which needs position correction "
                        "projection (the exact mode); or use solver sequential");
  }
  if (s.velocity.collisions && velocity && s.velocity.scheme == VelocityScheme::Verlet) {
    throw SettingsError({Setting::Collisions, Setting::VelocityScheme},
                        "contacts are solved in symplectic Euler's substeps so far; use velocity scheme "
                        "symplectic-euler with them");
  }
  if (s.velocity.collisions && velocity && global && s.solver.regularization == 0.0) {
    throw SettingsError({Setting::Regularization, Setting::Collisions},
                        "the exact mode's contact rows are often dependent (the points of one face, a wheel held "
                        "by its axle and the ground): regularization must be above 0 with collisions");
  }
  if (s.velocity.collisions && velocity && !global && projection) {
    throw SettingsError({Setting::Collisions, Setting::PositionCorrection},
                        "the projection holds contacts with solver ldlt or cg (the exact mode); with solver "
                        "sequential use position correction soft, baumgarte or none");
  }
  if (!velocity && s.solver.kind == SolverKind::SequentialImpulses) {
    throw SettingsError({Setting::Solver, Setting::Formulation},
                        "the sequential solver works at the velocity level; use formulation velocity, or "
                        "solver cg or ldlt");
  }
}

}  // namespace

SettingSpelling settingSpelling(Setting setting) {
  for (const SettingRecord& record : kSettings) {
    if (record.setting == setting) return record.spelling;
  }
  return {"", "settings"};
}

std::string settingFlag(Setting setting) {
  std::string flag(settingSpelling(setting).scene);
  if (flag.empty()) return flag;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return "--" + flag;
}

WholeRange wholeRange(Setting setting) {
  switch (setting) {
    case Setting::Iterations: return {1, 100'000};
    case Setting::Substeps: return {1, 10'000};
    case Setting::MaxIterations: return {0, 1'000'000'000};
    case Setting::ReuseIterations: return {-1, 1000};
    case Setting::Threads: return {1, kMostThreads};
    case Setting::ProjectionIterations: return {1, 1000};
    default: break;
  }
  throw std::logic_error("wholeRange: not a whole-number setting");
}

void requireWhole(Setting setting, long long value) {
  const WholeRange range = wholeRange(setting);
  if (value < range.least || value > range.most) {
    throw SettingsError({setting}, "must be between " + std::to_string(range.least) + " and " +
                                       std::to_string(range.most) + ", got " + std::to_string(value));
  }
}

SettingsError::SettingsError(std::vector<Setting> settings, const std::string& reason)
    : std::invalid_argument(std::string(settingSpelling(settings.at(0)).python) + ": " + reason),
      settings_(std::move(settings)),
      reason_(reason) {}

void SimulationSettings::validate() const {
  requirePositive(Setting::Dt, dt);
  requireNonNegative(Setting::Ks, ks);
  requireNonNegative(Setting::Kd, kd);
  // The feedback C̈ = −ks C − kd Ċ acts on the time scales 1/√ks and 1/kd. A step longer than
  // them does not resolve it: the explicit integrators turn it unstable, and the solve's
  // right-hand side, dominated by it, means nothing.
  if (ks * dt * dt > 1.0) {
    std::ostringstream message;
    message << "ks = " << ks << " /s² is faster than the step dt = " << dt << " s resolves: ks·dt² must be at most 1, "
            << "so ks at most " << 1.0 / (dt * dt) << " /s²";
    throw SettingsError({Setting::Ks, Setting::Dt}, message.str());
  }
  if (kd * dt > 1.0) {
    std::ostringstream message;
    message << "kd = " << kd << " /s is faster than the step dt = " << dt << " s resolves: kd·dt must be at most 1, "
            << "so kd at most " << 1.0 / dt << " /s";
    throw SettingsError({Setting::Kd, Setting::Dt}, message.str());
  }
  requirePositive(Setting::SolverTolerance, solver.tolerance);
  requireNonNegative(Setting::Regularization, solver.regularization);
  requireAtMost(Setting::Regularization, solver.regularization, kMostRegularization,
                " (the damping is relative to J W Jᵀ's diagonal: 1 already halves every constraint force)");
  const double rtol = errorTolerance.relative;
  if (!(std::isfinite(rtol) && rtol >= ErrorTolerance::kFinestRelative && rtol < 1.0)) {
    throw SettingsError({Setting::RelativeTolerance},
                        "must be from 1e-14 (what double precision resolves) to below 1, got " + numberText(rtol));
  }
  requirePositive(Setting::AbsoluteTolerance, errorTolerance.absolute);
  requirePositive(Setting::ProjectionTolerance, projection.tolerance);
  validateWork(*this);
  requireNonNegative(Setting::Baumgarte, velocity.baumgarte);
  requireAtMost(Setting::Baumgarte, velocity.baumgarte, 1.0, " (the fraction of C removed per substep)");
  requirePositive(Setting::JointHertz, velocity.jointHertz);
  requireNonNegative(Setting::JointDampingRatio, velocity.jointDampingRatio);
  requireNonNegative(Setting::Friction, velocity.friction);
  requireNonNegative(Setting::Restitution, velocity.restitution);
  requireAtMost(Setting::Restitution, velocity.restitution, 1.0, " (1 bounces back at the speed of approach)");
  requirePositive(Setting::ContactHertz, velocity.contactHertz);
  requireNonNegative(Setting::ContactDampingRatio, velocity.contactDampingRatio);
  requireNonNegative(Setting::SleepSpeed, velocity.sleepSpeed);
  requirePositive(Setting::SleepTime, velocity.sleepTime);
  validateCombinations(*this);
}

std::uint64_t stepsToReach(double time, double dt) {
  return static_cast<std::uint64_t>(std::ceil(std::min(time / dt, kMaxSteps) - 1e-9));
}

}  // namespace tinkertoy
