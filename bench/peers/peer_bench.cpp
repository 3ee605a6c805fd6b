// tinkertoy-peers: Tinkertoy and the peer engines side by side on the same scenarios
// (bench/scenario.hpp), in one run, as one table (bench/RESULTS.md).
//
// For every scenario and every engine mode that can express it, the scenario is simulated
// `--repeat` times from the start. Only the engine's step() is timed, in CPU time of the whole
// process (so a solver's helper threads count), and the median over the repeats is reported
// along with the wall time of the same run. After every step (untimed) the state is read back
// and measured with the scenario's own constraintError() and energy():
//
//   CPU ms/step    median over the repeats of the CPU time per step (runs: how many; a mode
//                  whose one run takes more than 20 s of CPU runs once; a run is stopped once
//                  its steps took --budget seconds of CPU (120), and its figures are those of
//                  the steps it took, marked "to t = …": the exact mode on the largest piles)
//   max ‖C‖/L      largest constraint error over the run (joint_grid: pin separation, m)
//   energy drift   max over the run of |E(t) − E(0)|, J
//   (with contacts, a second table instead of ‖C‖/L and drift:)
//   deepest penetration   the deepest overlap of two bodies, or of a piece past the tumbler's
//                         walls, over the run (deepestPenetration)
//   stands at the end     whether every pyramid still stands after the run (pyramidsStand; —
//                         for the other scenes)
//   energy gained  max over the run of E(t) − E(0), J (a resting pile should gain none, nor a
//                  cradle of elastic balls; — for the tumbler, whose container drives it)
//   ratio          for Tinkertoy's modes: CPU ms/step (wall ms/step for a mode on several
//                  threads) over the CPU ms/step of the fastest peer whose max ‖C‖/L stays
//                  under 5 % (the peers run on one thread); and the same over the fastest peer
//                  that completed, whatever its error
//
// A run that blows up (an exception, or a non-finite state) is reported with the time it
// reached. Run it with OPENBLAS_NUM_THREADS=1 (make bench-peers does): otherwise OpenBLAS starts
// a thread per core when it loads, and their spinning counts in the first modes' CPU time.
//
// Usage: tinkertoy-peers [--scenarios chain-100,cloth-32,...] [--engines TEXT,...]
//                        [--duration S] [--repeat N] [--budget S]
//   --engines   only the modes whose "engine/mode" contains one of the texts ("bullet",
//               "tinkertoy/exact"), or is a text that ends in $ without it ("tinkertoy/exact$":
//               not "tinkertoy/exact, 2 threads"); a comma followed by a space is part of a text
//   --budget    the CPU seconds one run's steps may take before it is stopped (default 120)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <exception>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "peer_world.hpp"

namespace tinkertoy::bench {
namespace {

struct Options {
  std::vector<std::string> scenarios{"chain-100", "chain-1000",   "chain-10000", "cloth-32",     "cloth-64",
                                     "joint_grid-100", "pyramid-20", "large_pyramid", "many_pyramids", "newtons_cradle",
                                     "tumbler"};
  std::vector<std::string> engines;  // empty: all
  double duration = 0.0;             // 0: each scenario's own
  int repeat = 3;
  double budget = 120.0;             // CPU seconds a run's steps may take
};

struct RunResult {
  int runs = 1;  // how many runs the median is over
  double cpuMsPerStep = 0.0;
  double wallMsPerStep = 0.0;
  double maxError = 0.0;
  double energyDrift = 0.0;
  // Scenarios with contacts (the pyramids, the cradle):
  double deepestPenetration = 0.0;  // m, over the run
  double energyGained = 0.0;        // J: the most E(t) − E(0) rose over the run
  bool stands = true;               // at the end (pyramidsStand)
  double reached = 0.0;  // simulated seconds
  bool stopped = false;  // cut at the CPU budget (--budget)
  bool blewUp = false;
  std::string failure;
};

double seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// A run whose steps took `budget` CPU seconds is stopped there, and reported as far as it got.
RunResult runOnce(const Scenario& scenario, const EngineMode& mode, long steps, double budget) {
  RunResult result;
  std::unique_ptr<PeerWorld> world;
  try {
    world = mode.build(scenario);
  } catch (const std::exception& e) {
    result.blewUp = true;
    result.failure = std::string("could not build the scene: ") + e.what();
    return result;
  }
  std::vector<BodyState> state(scenario.bodyCount());
  world->read(state);
  const double initialEnergy = energy(scenario, state);
  result.maxError = constraintError(scenario, state);
  double cpu = 0.0, wall = 0.0;
  long done = 0;
  try {
    for (; done < steps; ++done) {
      const double cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID), wall0 = seconds(CLOCK_MONOTONIC);
      world->step();
      cpu += seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
      wall += seconds(CLOCK_MONOTONIC) - wall0;
      world->read(state);
      const double error = constraintError(scenario, state);
      const double drift = std::abs(energy(scenario, state) - initialEnergy);
      if (!std::isfinite(error) || !std::isfinite(drift)) {
        result.blewUp = true;
        result.failure = "non-finite state";
        ++done;
        break;
      }
      result.maxError = std::max(result.maxError, error);
      result.energyDrift = std::max(result.energyDrift, drift);
      if (scenario.collides()) {
        const double time = static_cast<double>(done + 1) * scenario.dt;
        result.deepestPenetration = std::max(result.deepestPenetration, deepestPenetration(scenario, state, time));
        result.energyGained = std::max(result.energyGained, energy(scenario, state) - initialEnergy);
      }
      if (cpu > budget && done + 1 < steps) {
        result.stopped = true;
        ++done;
        break;
      }
    }
    if (scenario.kind == ScenarioKind::Pyramid) result.stands = pyramidsStand(scenario, state);
  } catch (const std::exception& e) {
    result.blewUp = true;
    result.failure = e.what();
  }
  result.reached = static_cast<double>(done) * scenario.dt;
  result.cpuMsPerStep = done > 0 ? 1e3 * cpu / static_cast<double>(done) : 0.0;
  result.wallMsPerStep = done > 0 ? 1e3 * wall / static_cast<double>(done) : 0.0;
  return result;
}

// The median of `repeat` runs by CPU time; the error and drift are those of that run (the
// engines are deterministic, so every run has the same). A failure is not timed again, nor a
// mode so slow that one run took more than kRepeatBudget seconds of CPU: its one run is reported.
constexpr double kRepeatBudget = 20.0;

RunResult run(const Scenario& scenario, const EngineMode& mode, long steps, int repeat, double budget) {
  std::vector<RunResult> runs;
  for (int i = 0; i < repeat; ++i) {
    runs.push_back(runOnce(scenario, mode, steps, budget));
    const double seconds = 1e-3 * runs.back().cpuMsPerStep * static_cast<double>(steps);
    if (runs.back().blewUp || seconds > kRepeatBudget) break;
  }
  std::sort(runs.begin(), runs.end(), [](const RunResult& a, const RunResult& b) { return a.cpuMsPerStep < b.cpuMsPerStep; });
  RunResult median = runs[runs.size() / 2];
  median.runs = static_cast<int>(runs.size());
  return median;
}

// "a,b,c" split at its commas, except a comma followed by a space, which belongs to a mode's name
// ("exact, 2 threads").
std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && (i + 1 == text.size() || text[i + 1] != ' '))) {
      if (!item.empty()) items.push_back(item);
      item.clear();
    } else {
      item += text[i];
    }
  }
  return items;
}

std::string format(double x, const char* spec) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, spec, x);
  return buffer;
}

// A run's CPU ms/step, and how far it got if it was stopped at the CPU budget.
std::string cpuCost(const RunResult& r) {
  return format(r.cpuMsPerStep, "%.4g") + (r.stopped ? " to t = " + format(r.reached, "%.3g") + " s" : "");
}

// The positive, finite number `text` gives `flag`; else an error that names the flag and says what
// it expected.
double positiveNumber(const std::string& flag, const std::string& text, const std::string& expected) {
  std::size_t used = 0;
  double x = 0.0;
  try {
    x = std::stod(text, &used);
  } catch (const std::exception&) {  // not a number at all, or out of double's range
    used = 0;
  }
  if (used == 0 || used != text.size() || !(x > 0.0) || !std::isfinite(x)) {
    throw std::invalid_argument(flag + ": expected " + expected + ", got '" + text + "'");
  }
  return x;
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
      return argv[++i];
    };
    if (flag == "--scenarios") {
      options.scenarios = splitList(value());
    } else if (flag == "--engines") {
      options.engines = splitList(value());
    } else if (flag == "--duration") {
      options.duration = positiveNumber(flag, value(), "a positive number of seconds");
    } else if (flag == "--budget") {
      options.budget = positiveNumber(flag, value(), "a positive number of CPU seconds");
    } else if (flag == "--repeat") {
      const double repeat = positiveNumber(flag, value(), "a whole number from 1 to 100");
      if (repeat != std::floor(repeat) || repeat > 100) {
        throw std::invalid_argument("--repeat: expected a whole number from 1 to 100, got " + format(repeat, "%g"));
      }
      options.repeat = static_cast<int>(repeat);
    } else {
      throw std::invalid_argument("unknown flag '" + flag + "' (see the comment at the top of bench/peers/peer_bench.cpp)");
    }
  }
  for (const std::string& name : options.scenarios) {
    if (!scenarioByName(name)) throw std::invalid_argument("--scenarios: unknown scenario '" + name + "'");
  }
  return options;
}

bool selected(const Options& options, const EngineMode& mode) {
  if (options.engines.empty()) return true;
  const std::string name = mode.engine + "/" + mode.mode;
  return std::any_of(options.engines.begin(), options.engines.end(), [&](const std::string& e) {
    if (!e.empty() && e.back() == '$') return name == e.substr(0, e.size() - 1);  // the whole name
    return name.find(e) != std::string::npos;
  });
}

}  // namespace
}  // namespace tinkertoy::bench

int main(int argc, char** argv) {
  using namespace tinkertoy::bench;
  Options options;
  try {
    options = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tinkertoy-peers: %s\n", e.what());
    return 2;
  }
  // Every run first, then the table: some engines print to stdout when they start (Debian's
  // Chipmunk is a debug build), and that must not land inside the table.
  struct Row {
    std::string scenario;
    const EngineMode* mode;
    RunResult result;
    std::string ratio;       // to the fastest peer under 5 %
    std::string ratioToAny;  // to the fastest peer, whatever its error
  };
  const std::vector<EngineMode> modes = engineModes();
  std::vector<Row> table;
  for (const std::string& name : options.scenarios) {
    Scenario scenario = scenarioByName(name).value();
    if (options.duration > 0.0) scenario.duration = options.duration;
    const long steps = scenario.steps();
    const std::size_t first = table.size();
    for (const EngineMode& mode : modes) {
      if (!selected(options, mode) || !mode.supports(scenario)) continue;
      std::fprintf(stderr, "%s: %s, %s ...\n", name.c_str(), mode.engine.c_str(), mode.mode.c_str());
      table.push_back({name, &mode, run(scenario, mode, steps, options.repeat, options.budget), {}, {}});
      if (!table.back().result.failure.empty()) std::fprintf(stderr, "  %s\n", table.back().result.failure.c_str());
    }
    // The fastest peer that completed with max ‖C‖/L under 5 %, and the fastest that completed at all.
    const auto fastestPeer = [&](double errorBound) {
      const Row* fastest = nullptr;
      for (std::size_t i = first; i < table.size(); ++i) {
        const Row& row = table[i];
        if (row.mode->isTinkertoy || row.result.blewUp || !(row.result.maxError < errorBound)) continue;
        if (!fastest || row.result.cpuMsPerStep < fastest->result.cpuMsPerStep) fastest = &row;
      }
      return fastest;
    };
    const Row* accurate = fastestPeer(0.05);
    const Row* any = fastestPeer(INFINITY);
    for (std::size_t i = first; i < table.size(); ++i) {
      Row& row = table[i];
      if (!row.mode->isTinkertoy || row.result.blewUp) continue;
      const double cost = row.mode->threads > 1 ? row.result.wallMsPerStep : row.result.cpuMsPerStep;
      const auto ratio = [&](const Row* peer) {
        return peer ? format(cost / peer->result.cpuMsPerStep, "%.2f×") + " " + peer->mode->engine + " (" +
                          peer->mode->mode + ")"
                    : std::string();
      };
      row.ratio = ratio(accurate);
      row.ratioToAny = ratio(any);
    }
  }
  // The joints' table: constraint error and drift.
  const auto hasContacts = [](const Row& row) { return scenarioByName(row.scenario)->collides(); };
  std::printf("\n| scenario | engine | mode | CPU ms/step | runs | wall ms/step | max ‖C‖/L | energy drift (J) | ratio to the fastest peer under 5 %% | ratio to the fastest peer |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|---:|---|---|\n");
  for (const Row& row : table) {
    if (hasContacts(row)) continue;
    const RunResult& r = row.result;
    const std::string error = r.blewUp ? "blew up at t = " + format(r.reached, "%.3g") + " s" : format(r.maxError, "%.2g");
    const std::string cost = cpuCost(r);
    std::printf("| %s | %s | %s | %s | %d | %s | %s | %s | %s | %s |\n", row.scenario.c_str(), row.mode->engine.c_str(),
                row.mode->mode.c_str(), cost.c_str(), r.runs, format(r.wallMsPerStep, "%.4g").c_str(),
                error.c_str(), format(r.energyDrift, "%.3g").c_str(), row.ratio.c_str(), row.ratioToAny.c_str());
  }
  // The contacts' table: penetration, whether the pyramids stand, the energy gained, and the
  // ratio to the fastest peer whatever it kept.
  std::printf("\n| scenario | engine | mode | CPU ms/step | runs | wall ms/step | deepest penetration (m) | stands at the end | energy gained (J) | ratio to the fastest peer |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|---|---:|---|\n");
  // Whether the pyramids stand: "—" for a scene that is not a pyramid, blank for a run that blew up.
  const auto standing = [](const Row& row) {
    if (row.result.blewUp || row.result.stopped) return "";
    if (scenarioByName(row.scenario)->kind != ScenarioKind::Pyramid) return "—";
    return row.result.stands ? "yes" : "no";
  };
  for (const Row& row : table) {
    if (!hasContacts(row)) continue;
    const RunResult& r = row.result;
    const std::string depth = r.blewUp ? "blew up at t = " + format(r.reached, "%.3g") + " s" : format(r.deepestPenetration, "%.2g");
    const std::string cost = cpuCost(r);
    const std::string gained = scenarioByName(row.scenario)->driven() ? "—" : format(r.energyGained, "%.3g");
    std::printf("| %s | %s | %s | %s | %d | %s | %s | %s | %s | %s |\n", row.scenario.c_str(), row.mode->engine.c_str(),
                row.mode->mode.c_str(), cost.c_str(), r.runs, format(r.wallMsPerStep, "%.4g").c_str(),
                depth.c_str(), standing(row), gained.c_str(),
                row.ratioToAny.c_str());
  }
  return 0;
}
