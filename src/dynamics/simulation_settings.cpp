#include "tinkertoy/dynamics/simulation_settings.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/vector_checks.hpp"

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

void SimulationSettings::validate() const {
  detail::requirePositive(dt, "dt");
  detail::requireNonNegative(ks, "ks");
  detail::requireNonNegative(kd, "kd");
  // The feedback C̈ = −ks C − kd Ċ acts on the time scales 1/√ks and 1/kd. A step longer than
  // them does not resolve it: the explicit integrators turn it unstable, and the solve's
  // right-hand side, dominated by it, means nothing.
  if (ks * dt * dt > 1.0) {
    std::ostringstream message;
    message << "ks = " << ks << " /s² is faster than the step dt = " << dt << " s resolves: ks·dt² must be at most 1, "
            << "so ks at most " << 1.0 / (dt * dt) << " /s²";
    throw std::invalid_argument(message.str());
  }
  if (kd * dt > 1.0) {
    std::ostringstream message;
    message << "kd = " << kd << " /s is faster than the step dt = " << dt << " s resolves: kd·dt must be at most 1, "
            << "so kd at most " << 1.0 / dt << " /s";
    throw std::invalid_argument(message.str());
  }
  detail::requirePositive(solver.tolerance, "solver tolerance");
  if (solver.maxIterations < 0) throw std::invalid_argument("solver iteration cap must not be negative");
  detail::requireNonNegative(solver.regularization, "solver regularization");
  if (solver.reuseIterations < -1) throw std::invalid_argument("reuse iterations must be −1 (automatic) or more");
  if (threads < 1 || threads > kMostThreads) {
    throw std::invalid_argument("threads must be from 1 to " + std::to_string(kMostThreads));
  }
  errorTolerance.validate();
  detail::requirePositive(projection.tolerance, "projection tolerance");
  if (projection.maxIterations < 1) throw std::invalid_argument("projection iterations must be at least 1");
  if (velocity.iterations < 1) throw std::invalid_argument("iterations must be at least 1");
  if (velocity.substeps < 1) throw std::invalid_argument("substeps must be at least 1");
  detail::requireNonNegative(velocity.baumgarte, "baumgarte factor");
  if (velocity.baumgarte > 1.0) throw std::invalid_argument("baumgarte factor must be at most 1");
  detail::requirePositive(velocity.jointHertz, "joint hertz");
  detail::requireNonNegative(velocity.jointDampingRatio, "joint damping ratio");
  if (formulation == FormulationKind::Velocity && velocity.positionCorrection == PositionCorrection::SoftStep &&
      solver.kind != SolverKind::SequentialImpulses) {
    throw std::invalid_argument("the soft step is a sequential-impulse scheme; use solver sequential, or position "
                                "correction none, baumgarte or projection");
  }
  if (formulation == FormulationKind::Velocity && velocity.positionCorrection == PositionCorrection::SoftStep &&
      velocity.scheme == VelocityScheme::Verlet) {
    throw std::invalid_argument("the soft step has its own substeps; use velocity scheme symplectic-euler with it, or "
                                "position correction none, baumgarte or projection with verlet");
  }
  if (formulation == FormulationKind::Acceleration && integrator == IntegratorKind::Rattle && (ks != 0.0 || kd != 0.0)) {
    throw std::invalid_argument("rattle holds C = 0 and Ċ = 0 at every step by itself; ks and kd must be 0 with it");
  }
  if (formulation == FormulationKind::Acceleration && solver.kind == SolverKind::SequentialImpulses) {
    throw std::invalid_argument("the sequential solver works at the velocity level; use formulation velocity, or "
                                "solver cg or ldlt");
  }
}

std::uint64_t stepsToReach(double time, double dt) {
  return static_cast<std::uint64_t>(std::ceil(std::min(time / dt, kMaxSteps) - 1e-9));
}

}  // namespace tinkertoy
