// tinkertoy-accuracy: what accuracy RK4 and dopri5 deliver for what cost, on three problems whose
// answer is known independently (bench/RESULTS.md).
//
// Each problem's scene is run to its duration by RK4 at several fixed steps and by dopri5 at
// several tolerances, and one Markdown table per problem is printed, a row per run:
//   integrator, dt   for rk4 the step size; for dopri5 only the interval at which the simulator
//                    reports a state (dopri5 chooses its own steps and interpolates to those times)
//   rtol, atol       dopri5's error tolerance per step (blank for rk4)
//   CPU s            process CPU time of the simulator (construction and steps; loading the scene
//                    and computing the error are not counted), the median of three runs
//   solves           linear solves over the run, stages and projections together: the cost in a
//                    form that does not depend on the machine
//   own steps        the steps dopri5 took (blank for rk4, whose steps are the reported ones)
//   error            the distance from the problem's reference (see below), or "blew up" when a
//                    step failed
// To compare the integrators, pick rows with similar error and compare their CPU time and solves.
//
// The problems and what their error is:
//   double_pendulum  scenes/double_pendulum.json to 10 s: the largest |Δq| of the final coordinates
//                    against the same scene run by RK4 at dt = 1e-5 s (m)
//   n_four_bar       scenes/benchmarks/n_four_bar.json (N = 40, 20 s): the largest distance, over
//                    the reported states, between the first crank's tip and the tip of the
//                    one-angle model M θ̈ = −K cos θ (n_four_bar_reference.hpp) integrated
//                    by RK4 at most 1e-5 s per step (m)
//   andrews          scenes/benchmarks/andrews_squeezer.json to 0.03 s: |β − β*| with β the crank's
//                    angle and β* the value the Bari test set publishes (rad)
//
// Usage: tinkertoy-accuracy [double_pendulum|n_four_bar|andrews]   (no argument: all three)
#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "n_four_bar_reference.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::bench {
namespace {

const std::filesystem::path kSourceDir = TINKERTOY_SOURCE_DIR;

// One row of a table: an integrator with its step (rk4), or its output interval and tolerance
// (dopri5).
struct Configuration {
  IntegratorKind integrator = IntegratorKind::RungeKutta4;
  double dt = 0.0;  // s
  ErrorTolerance tolerance;
};

Configuration rk4(double dt) { return {IntegratorKind::RungeKutta4, dt, {}}; }
Configuration dopri5(double dt, double rtol, double atol) {
  return {IntegratorKind::DormandPrince5, dt, {.relative = rtol, .absolute = atol}};
}

// A scene's own settings with the configuration's integrator, dt and tolerance.
SimulationSettings configured(SimulationSettings settings, const Configuration& configuration) {
  settings.integrator = configuration.integrator;
  settings.dt = configuration.dt;
  settings.errorTolerance = configuration.tolerance;
  return settings;
}

// Follows one run and tells how far it ended up from a problem's reference.
class ErrorMeter {
 public:
  virtual ~ErrorMeter() = default;
  // Called after every simulator step.
  virtual void observe(const Model& /*model*/) {}
  // Called once, at the end of the run.
  [[nodiscard]] virtual double error(const Model& model) const = 0;
};

struct Problem {
  std::filesystem::path scene;  // relative to the source tree
  std::string errorMeaning;     // what the error column measures, for the table's heading
  std::vector<Configuration> configurations;
  // A fresh meter for a run of the scene's model at a configuration.
  std::function<std::unique_ptr<ErrorMeter>(const Model&, const Configuration&)> meter;
};

// The result of one run; error is empty if the run blew up (counts cover the steps that ran).
struct Run {
  double cpuSeconds = 0.0;
  long solves = 0;
  long ownSteps = 0;
  std::optional<double> error;
};

// Runs the problem's scene to its duration at the configuration.
Run simulate(const Problem& problem, const Configuration& configuration) {
  Scene scene = loadScene(kSourceDir / problem.scene);
  const std::unique_ptr<ErrorMeter> meter = problem.meter(scene.model, configuration);
  const long steps = std::lround(scene.duration / configuration.dt);
  Run run;
  bool blewUp = false;
  const std::clock_t start = std::clock();
  Simulator sim(scene.model, configured(scene.settings, configuration));
  try {
    for (long n = 0; n < steps; ++n) {
      sim.step();
      run.solves += sim.diagnostics().solves;
      run.ownSteps += sim.diagnostics().adaptiveSteps;
      meter->observe(scene.model);
    }
  } catch (const SimulationError&) {
    blewUp = true;
  }
  run.cpuSeconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  if (!blewUp) run.error = meter->error(scene.model);
  return run;
}

// The run of median CPU time among three at the configuration (every run does the same
// arithmetic, so they differ in time alone).
Run measure(const Problem& problem, const Configuration& configuration) {
  std::array<Run, 3> runs;
  for (Run& run : runs) run = simulate(problem, configuration);
  std::ranges::sort(runs, {}, &Run::cpuSeconds);
  return runs[1];
}

// ---- double_pendulum

// The coordinates at the end of the scene's run at the configuration.
Eigen::VectorXd finalCoordinates(const std::filesystem::path& scenePath, const Configuration& configuration) {
  Scene scene = loadScene(kSourceDir / scenePath);
  Simulator sim(scene.model, configured(scene.settings, configuration));
  for (long n = std::lround(scene.duration / configuration.dt); n > 0; --n) sim.step();
  return scene.model.q();
}

// max |q − q_ref| at the end of the run.
class FinalStateMeter : public ErrorMeter {
 public:
  explicit FinalStateMeter(Eigen::VectorXd reference) : reference_(std::move(reference)) {}
  [[nodiscard]] double error(const Model& model) const override {
    return (model.q() - reference_).lpNorm<Eigen::Infinity>();
  }

 private:
  Eigen::VectorXd reference_;
};

Problem doublePendulum() {
  Problem problem{.scene = "scenes/double_pendulum.json",
                  .errorMeaning = "max |q − q_ref| at 10 s, m; reference: the same scene by rk4 at dt = 1e-5 s",
                  .configurations = {rk4(1e-3), rk4(2e-3), rk4(4e-3), rk4(8e-3), dopri5(1e-2, 1e-6, 1e-6),
                                     dopri5(1e-2, 1e-8, 1e-8), dopri5(1e-2, 1e-10, 1e-10),
                                     dopri5(1e-2, 1e-12, 1e-12), dopri5(1e-3, 1e-10, 1e-10),
                                     dopri5(1e-3, 1e-12, 1e-12)}};
  const Eigen::VectorXd reference = finalCoordinates(problem.scene, rk4(1e-5));
  problem.meter = [reference](const Model&, const Configuration&) {
    return std::make_unique<FinalStateMeter>(reference);
  };
  return problem;
}

// ---- n_four_bar

constexpr int kWindows = 40;     // N, the scene's

// The largest distance between the first crank's tip and the reference's, over the reported
// states. The tips are recorded during the run and compared after it, so that the reference's
// integration is not timed.
class CrankTipMeter : public ErrorMeter {
 public:
  CrankTipMeter(const Model& model, double dt) : crank_(model.findBody("crank0").value()), dt_(dt) {}
  void observe(const Model& model) override {
    const Eigen::VectorXd q = model.coordinates(crank_);
    tips_.emplace_back(q[0] + 0.5 * std::cos(q[2]), q[1] + 0.5 * std::sin(q[2]));
  }
  [[nodiscard]] double error(const Model& /*model*/) const override {
    NFourBarReference reference(kWindows);
    double worst = 0.0;
    for (const Eigen::Vector2d& tip : tips_) {
      reference.advance(dt_);
      worst = std::max(worst, (tip - reference.tip()).norm());
    }
    return worst;
  }

 private:
  BodyId crank_;
  double dt_;
  std::vector<Eigen::Vector2d> tips_;
};

Problem nFourBar() {
  return {.scene = "scenes/benchmarks/n_four_bar.json",
          .errorMeaning = "max over the reported states of the first crank's tip distance from the one-angle "
                          "reduced model, m",
          .configurations = {rk4(1e-3), rk4(2e-3), dopri5(1e-2, 1e-6, 1e-6), dopri5(1e-2, 1e-8, 1e-8),
                             dopri5(1e-2, 1e-10, 1e-10), dopri5(1e-3, 1e-8, 1e-8)},
          .meter = [](const Model& model, const Configuration& configuration) {
            return std::make_unique<CrankTipMeter>(model, configuration.dt);
          }};
}

// ---- andrews

// |β − β*| at the end of the run, β the crank's angle.
class CrankAngleMeter : public ErrorMeter {
 public:
  explicit CrankAngleMeter(const Model& model) : crank_(model.findBody("crank").value()) {}
  [[nodiscard]] double error(const Model& model) const override {
    constexpr double published = 15.81077119629904;  // rad at 0.03 s (Hairer–Wanner; Bari test set)
    return std::abs(model.coordinates(crank_)[2] - published);
  }

 private:
  BodyId crank_;
};

Problem andrews() {
  return {.scene = "scenes/benchmarks/andrews_squeezer.json",
          .errorMeaning = "|β − β*| of the crank angle at 0.03 s against the published value, rad",
          .configurations = {rk4(1e-5), rk4(2e-5), rk4(4e-5), dopri5(1e-4, 1e-6, 1e-8),
                             dopri5(1e-4, 1e-8, 1e-10), dopri5(1e-4, 1e-10, 1e-12)},
          .meter = [](const Model& model, const Configuration&) {
            return std::make_unique<CrankAngleMeter>(model);
          }};
}

// ---- output

const std::array<std::pair<std::string_view, Problem (*)()>, 3> kProblems{{
    {"double_pendulum", doublePendulum},
    {"n_four_bar", nFourBar},
    {"andrews", andrews},
}};

// x to three significant digits.
std::string number(double x) {
  std::ostringstream out;
  out.precision(3);
  out << x;
  return out.str();
}

void printRow(const Configuration& configuration, const Run& run) {
  const bool adaptive = configuration.integrator == IntegratorKind::DormandPrince5;
  std::cout << "| " << integratorName(configuration.integrator) << " | " << number(configuration.dt) << " | "
            << (adaptive ? number(configuration.tolerance.relative) : "") << " | "
            << (adaptive ? number(configuration.tolerance.absolute) : "") << " | " << number(run.cpuSeconds)
            << " | " << run.solves << " | " << (adaptive ? std::to_string(run.ownSteps) : "") << " | "
            << (run.error ? number(*run.error) : "blew up") << " |" << std::endl;
}

void printTable(std::string_view name, const Problem& problem) {
  std::cout << "\n### " << name << "\n\n" << problem.scene.string() << "; error: " << problem.errorMeaning
            << ".\n\n| integrator | dt (s) | rtol | atol | CPU s (median of 3) | solves | own steps | error |\n"
            << "|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const Configuration& configuration : problem.configurations) {
    printRow(configuration, measure(problem, configuration));
  }
}

}  // namespace
}  // namespace tinkertoy::bench

int main(int argc, char** argv) {
  using namespace tinkertoy::bench;
  if (argc > 2) {
    std::cerr << "usage: tinkertoy-accuracy [double_pendulum|n_four_bar|andrews]\n";
    return 2;
  }
  std::vector<std::pair<std::string_view, Problem (*)()>> chosen(kProblems.begin(), kProblems.end());
  if (argc == 2) {
    std::erase_if(chosen, [&](const auto& problem) { return problem.first != argv[1]; });
    if (chosen.empty()) {
      std::cerr << "tinkertoy-accuracy: unknown problem '" << argv[1] << "' (double_pendulum, n_four_bar or andrews)\n";
      return 2;
    }
  }
  std::cout << "`tinkertoy-accuracy" << (argc == 2 ? " " : "") << (argc == 2 ? argv[1] : "") << "`, problems:";
  for (const auto& [name, make] : chosen) std::cout << ' ' << name;
  std::cout << '\n';
  try {
    for (const auto& [name, make] : chosen) printTable(name, make());
  } catch (const std::exception& e) {
    std::cerr << "tinkertoy-accuracy: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
