// tinkertoy-step-rate: how fast the engine steps one workload, measured by the same code in the
// native build, in node and in the browser (the browser build's figures in bench/RESULTS.md;
// bench/web_step_rate.mjs drives all three).
//
//   tinkertoy-step-rate WORKLOAD STEPS
//
// WORKLOAD is a scene file (its own settings) or a benchmark scenario by name (scenario.hpp):
// those the peer table runs with the soft step (joint_grid-N, the pyramids) with it, any other
// with the exact mode. It prints one line: "WORKLOAD: STEPS steps in S s of CPU time, R
// steps/s". The time is the steps' alone (not the loading), from std::clock: CPU time natively;
// in a browser, which has no CPU clock, the page's own clock.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <stdexcept>
#include <string>

#include "bench_models.hpp"
#include "scenario.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace {

using namespace tinkertoy;

double secondsToStep(Model& model, const SimulationSettings& settings, long steps) {
  Simulator simulator(model, settings);
  const std::clock_t start = std::clock();
  for (long k = 0; k < steps; ++k) simulator.step();
  return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

double secondsToStep(const std::string& workload, long steps) {
  if (workload.ends_with(".json")) {
    Scene scene = loadScene(workload);
    return secondsToStep(scene.model, scene.settings, steps);
  }
  const auto scenario = bench::scenarioByName(workload);
  if (!scenario) throw std::invalid_argument("'" + workload + "' is neither a scene file (.json) nor a scenario");
  Model model = bench::tinkertoyModel(*scenario);
  return secondsToStep(model, bench::hasSoftStep(*scenario) ? bench::softStepSettings(*scenario, 1)
                                                                              : bench::exactModeSettings(*scenario, 1),
                       steps);
}

}  // namespace

// For the page that times the browser (bench/web_step_rate.mjs): seconds, or -1 and a message on
// stderr.
extern "C" double tinkertoy_seconds_to_step(const char* workload, int steps) {
  try {
    return secondsToStep(workload, steps);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tinkertoy-step-rate: %s: %s\n", workload, e.what());
    return -1.0;
  }
}

int main(int argc, char** argv) {
  if (argc == 1) return 0;  // loaded by a page, which calls tinkertoy_seconds_to_step
  char* end = nullptr;
  const long steps = argc == 3 ? std::strtol(argv[2], &end, 10) : 0;
  if (argc != 3 || *end != '\0' || steps < 1 || steps > 100000000) {
    std::fputs("usage: tinkertoy-step-rate WORKLOAD STEPS (a scene file or a scenario name; 1 to 100000000 steps)\n", stderr);
    return 2;
  }
  const double seconds = tinkertoy_seconds_to_step(argv[1], static_cast<int>(steps));
  if (seconds < 0) return 1;
  std::printf("%s: %ld steps in %.3f s of CPU time, %.1f steps/s\n", argv[1], steps, seconds,
              static_cast<double>(steps) / seconds);
  return 0;
}
