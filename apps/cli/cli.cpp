#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <cmath>

#include "check_command.hpp"
#include "run_command.hpp"

namespace tinkertoy::cli {

namespace {

// A finite number, optionally required to be positive or non-negative. CLI11's own range
// checks let "nan" through, so every numeric flag goes through this.
CLI::Validator finiteNumber(const char* requirement) {
  const std::string need = requirement;
  return CLI::Validator(
      [need](std::string& text) -> std::string {
        double x = 0.0;
        std::size_t used = 0;
        try {
          x = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size()) return "expected a number, got '" + text + "'";
        if (!std::isfinite(x)) return "must be finite, got '" + text + "'";
        if (need == "positive" && !(x > 0.0)) return "must be positive, got '" + text + "'";
        if (need == "non-negative" && x < 0.0) return "must not be negative, got '" + text + "'";
        return {};
      },
      need == "any" ? "NUMBER" : need + " NUMBER");
}

// A whole number ≥ minimum.
CLI::Validator integerAtLeast(long minimum) {
  return CLI::Validator(
      [minimum](std::string& text) -> std::string {
        long x = 0;
        std::size_t used = 0;
        try {
          x = std::stol(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size()) return "expected a whole number, got '" + text + "'";
        if (x < minimum) return "must be at least " + std::to_string(minimum) + ", got '" + text + "'";
        return {};
      },
      "INTEGER >= " + std::to_string(minimum));
}

template <class T>
CLI::Option* addOptional(CLI::App& app, const std::string& name, std::optional<T>& target,
                         const std::string& help) {
  return app.add_option_function<T>(name, [&target](const T& value) { target = value; }, help);
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Tinkertoy: constrained dynamics after Witkin and seed 004. Runs and checks JSON scenes."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tinkertoy 0.1.0");

  RunOptions options;
  CLI::App* runApp = app.add_subcommand("run", "Simulate a scene and print a summary");
  runApp->add_option("scene", options.scene, "Scene file (JSON)")->required();
  addOptional(*runApp, "--duration", options.duration, "Simulated time in seconds")
      ->check(finiteNumber("non-negative"));
  addOptional(*runApp, "--dt", options.dt, "Step size in seconds")->check(finiteNumber("positive"));
  addOptional(*runApp, "--ks", options.ks, "Feedback gain on C (1/s²)")->check(finiteNumber("non-negative"));
  addOptional(*runApp, "--kd", options.kd, "Feedback gain on Ċ (1/s)")->check(finiteNumber("non-negative"));
  addOptional(*runApp, "--tolerance", options.tolerance, "CG relative residual target")
      ->check(finiteNumber("positive"));
  addOptional(*runApp, "--max-iterations", options.maxIterations, "CG iteration cap (0: 2m + 100)")
      ->check(integerAtLeast(0));
  addOptional(*runApp, "--regularization", options.regularization,
              "LDLT diagonal regularization, relative")
      ->check(finiteNumber("non-negative"));
  runApp->add_option_function<std::string>(
            "--integrator", [&options](const std::string& name) { options.integrator = parseIntegrator(name); },
            "euler | symplectic-euler | midpoint | rk4")
      ->check(CLI::IsMember({"euler", "symplectic-euler", "midpoint", "rk4"}));
  runApp->add_option_function<std::string>(
            "--solver", [&options](const std::string& name) { options.solver = parseSolver(name); },
            "cg | ldlt | sequential (sequential: velocity formulation only)")
      ->check(CLI::IsMember({"cg", "ldlt", "sequential"}));
  runApp->add_option_function<std::string>(
            "--formulation", [&options](const std::string& name) { options.formulation = parseFormulation(name); },
            "acceleration (Witkin) | velocity (impulses, seed 004)")
      ->check(CLI::IsMember({"acceleration", "velocity"}));
  addOptional(*runApp, "--iterations", options.iterations, "Sequential-impulse passes per substep (velocity)")
      ->check(integerAtLeast(1));
  addOptional(*runApp, "--substeps", options.substeps, "Substeps per step (velocity)")->check(integerAtLeast(1));
  runApp->add_option_function<std::string>(
            "--position-correction",
            [&options](const std::string& name) { options.positionCorrection = parsePositionCorrection(name); },
            "none | baumgarte | projection (velocity)")
      ->check(CLI::IsMember({"none", "baumgarte", "projection"}));
  runApp->add_flag("--project", options.project,
                   "Project positions and velocities back onto C = 0, Ċ = 0 after every step");
  runApp->add_option("--trajectory", options.trajectory, "Write a CSV trajectory to FILE.csv");
  runApp->add_option("--every", options.every, "Record every N-th step in the trajectory")
      ->check(integerAtLeast(1));
  runApp->add_option("--summary", options.summary, "Write a JSON summary to FILE.json");

  std::string checkPath;
  CLI::App* checkApp = app.add_subcommand(
      "check", "Validate a scene and audit every constraint's J and J̇q̇ against finite differences");
  checkApp->add_option("scene", checkPath, "Scene file (JSON)")->required();

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e, out, err);
    return code == 0 ? kSuccess : kBadInput;
  }
  if (*runApp) return runScene(options, out, err);
  return checkScene(checkPath, out, err);
}

}  // namespace tinkertoy::cli
