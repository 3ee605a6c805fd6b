#include "cli.hpp"

#include <CLI/CLI.hpp>

#include "check_command.hpp"
#include "flag_checks.hpp"
#include "run_command.hpp"

namespace tinkertoy::cli {

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool errIsTerminal) {
  CLI::App app{"Tinkertoy: constrained dynamics after Witkin and seed 004. Runs and checks JSON scenes."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tinkertoy 0.1.0");

  RunOptions options;
  CLI::App* runApp = app.add_subcommand("run", "Simulate a scene and print a summary");
  runApp->add_option("scene", options.scene, "Scene file (JSON)")->required();
  addSimulationFlags(*runApp, options.simulation);
  bool quiet = false;
  runApp->add_flag("--quiet", quiet, "No progress bar");
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
  if (*runApp) {
    options.progress = errIsTerminal && !quiet;
    return runScene(options, out, err);
  }
  return checkScene(checkPath, out, err);
}

}  // namespace tinkertoy::cli
