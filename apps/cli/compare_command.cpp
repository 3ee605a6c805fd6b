#include "compare_command.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include "cli.hpp"
#include "model_contents.hpp"
#include "scene_run.hpp"
#include "tinkertoy/dynamics/run_statistics.hpp"
#include "tinkertoy/model/spring_for_rod.hpp"

namespace tinkertoy::cli {

namespace {

// One side of the comparison, run to the end of its scene (or to its blow-up).
struct Side {
  std::string name;  // "a" or "b"
  std::string flagText;
  std::unique_ptr<SceneRun> run;
  std::optional<RunStatistics> stats;
  double wallSeconds = 0.0;
  double stretchMax = 0.0;  // m, of the springs that stand for rods (--spring-for)
  std::string failure;  // the blow-up's message, "" if it completed
};

void simulate(Side& side, bool progressBar, std::ostream& err) {
  Scene& scene = side.run->scene;
  side.stats.emplace(side.run->simulator.diagnostics());
  const std::uint64_t steps = stepsToReach(scene.duration, scene.settings.dt);
  ProgressBar progress(err, progressBar, "simulating " + side.name, steps);
  const auto start = std::chrono::steady_clock::now();
  side.failure = stepScene(*side.run, steps, progress, [&](std::uint64_t) {
    side.stats->add(side.run->simulator.diagnostics());
    side.stretchMax = std::max(side.stretchMax, largestStretch(scene.model, side.run->rodSprings));
  });
  side.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string number(double x, int digits = 4) {
  std::ostringstream text;
  text << std::setprecision(digits) << x;
  return text.str();
}

std::string settingsOf(const SimulationSettings& s) {
  std::string text = std::string(formulationName(s.formulation)) + " level, " + std::string(integratorOf(s)) + ", " +
                     std::string(solverName(s.solver.kind));
  if (s.formulation == FormulationKind::Velocity) {
    text += " (" + counted(s.velocity.iterations, "iteration") + ", " + counted(s.velocity.substeps, "substep") + ", " +
            std::string(positionCorrectionName(s.velocity.positionCorrection)) + ")";
  } else if (s.ks != 0.0 || s.kd != 0.0) {
    text += ", ks " + number(s.ks) + ", kd " + number(s.kd);
  }
  return text;
}

// A table cell: '|' would end it.
std::string cell(std::string text) {
  for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2)) text.replace(at, 1, "\\|");
  return text;
}

}  // namespace

int compareScene(const CompareOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<Side> sides(2);
  sides[0].name = "a";
  sides[0].flagText = options.a;
  sides[1].name = "b";
  sides[1].flagText = options.b;
  for (Side& side : sides) {
    const std::optional<SimulationFlags> flags = parseFlagText("--" + side.name, side.flagText, err);
    if (!flags) return kBadInput;
    std::ostringstream problems;
    side.run = startSceneRun(options.scene, *flags, problems);
    if (!side.run) {  // "error: …" becomes "error: --a: …"
      std::string text = problems.str();
      constexpr std::string_view kError = "error: ";
      if (text.rfind(kError, 0) == 0) text.insert(kError.size(), "--" + side.name + ": ");
      err << text;
      return kBadInput;
    }
    err << problems.str();  // warnings on the initial state, if any
  }
  for (Side& side : sides) simulate(side, options.progress, err);

  const Scene& scene = sides[0].run->scene;
  out << (scene.name.empty() ? options.scene : scene.name) << ": " << describeContents(scene.model) << ", "
      << scene.model.dimension() << "D\n\n";
  out << "| | a | b |\n|---|---|---|\n";
  const auto row = [&](const std::string& what, const auto& value) {
    out << "| " << what << " | " << cell(value(sides[0])) << " | " << cell(value(sides[1])) << " |\n";
  };
  // A statistic of a run that completed; "—" after a blow-up, where it would describe a run cut short.
  const auto completed = [](const Side& s, const std::string& text) { return s.failure.empty() ? text : std::string("—"); };
  row("flags", [](const Side& s) { return s.flagText.empty() ? std::string("(the scene's settings)") : s.flagText; });
  row("settings", [](const Side& s) { return settingsOf(s.run->scene.settings); });
  row("dt (s)", [](const Side& s) { return number(s.run->scene.settings.dt); });
  row("outcome", [](const Side& s) {
    return s.failure.empty() ? "completed, t = " + number(s.run->scene.model.time()) + " s"
                             : "blew up: " + s.failure;
  });
  row("steps", [](const Side& s) { return std::to_string(s.stats->steps); });
  row("wall time (s)", [](const Side& s) { return number(s.wallSeconds, 3); });
  row("µs per step", [](const Side& s) {
    return s.stats->steps > 0 ? number(1e6 * s.wallSeconds / static_cast<double>(s.stats->steps), 3) : std::string("—");
  });
  row("max ‖C‖∞ (m)", [&](const Side& s) { return completed(s, number(s.stats->constraintErrorMax, 3)); });
  row("final ‖C‖∞ (m)", [&](const Side& s) { return completed(s, number(s.stats->constraintErrorFinal, 3)); });
  if (!sides[0].run->rodSprings.empty() || !sides[1].run->rodSprings.empty()) {
    row("max stretch of the rods made springs (m)", [&](const Side& s) {
      return s.run->rodSprings.empty() ? std::string("— (rods)") : completed(s, number(s.stretchMax, 3));
    });
  }
  row("max ‖Ċ‖∞ (m/s)", [&](const Side& s) { return completed(s, number(s.stats->velocityErrorMax, 3)); });
  row("energy at start, end (J)", [&](const Side& s) {
    return completed(s, number(s.stats->energyInitial, 6) + ", " + number(s.stats->energyFinal, 6));
  });
  row("max \\|E − E₀\\| (J)", [&](const Side& s) { return completed(s, number(s.stats->energyDriftMax, 3)); });
  row("work done on it (J)", [&](const Side& s) { return completed(s, number(s.stats->work.total(), 3)); });
  row("max \\|E − E₀ − W\\| (J), the numerical error", [&](const Side& s) {
    return completed(s, number(s.stats->energyErrorMax, 3));
  });
  row("linear solves, iterations per solve", [&](const Side& s) {
    return completed(s, std::to_string(s.stats->solves) + ", " + number(s.stats->iterationsPerSolve(), 3));
  });
  if (!(out << std::flush)) {
    err << "error: cannot write the table to standard output\n";
    return kOutputFailed;
  }
  return kSuccess;
}

}  // namespace tinkertoy::cli
