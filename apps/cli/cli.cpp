#include "cli.hpp"

#include <CLI/CLI.hpp>

#include "check_command.hpp"
#include "flag_checks.hpp"
#include "plot_command.hpp"
#include "render_command.hpp"
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

  RenderOptions render;
  bool renderQuiet = false;
  CLI::App* renderApp = app.add_subcommand(
      "render", "Simulate a scene and draw it: a still picture (.svg, .png, .pdf) or a video (.mp4, .gif)");
  renderApp->add_option("scene", render.scene, "Scene file (JSON)")->required();
  renderApp->add_option("-o,--output", render.output, "Output file: .svg, .png, .pdf, .mp4 or .gif")->required();
  renderApp->add_option("--fps", render.fps, "Video frames per second of simulated time")->check(integerAtLeast(1));
  renderApp->add_option_function<std::string>(
             "--size", [&render](const std::string& text) { render.size = parsePixelSize(text); },
             "Picture size in pixels, WxH (default 960x720)")
      ->check(pixelSize());
  renderApp->add_option_function<double>("--time", [&render](double t) { render.time = t; },
                                         "Moment a still picture shows, s (default: the end)")
      ->check(finiteNumber(Sign::NonNegative));
  renderApp->add_option("--exposures", render.exposures,
                        "Overlay K states from 0 to --time in a still, the earlier fainter (a strobe)")
      ->check(integerAtLeast(1));
  renderApp->add_flag("--trails", render.trails, "Draw each point mass's and rigid body's path");
  renderApp->add_flag("--forces", render.forces, "Draw the constraint-force arrows");
  renderApp->add_flag("--quiet", renderQuiet, "No progress bar");
  addSimulationFlags(*renderApp, render.simulation);

  PlotOptions plot;
  bool plotQuiet = false;
  CLI::App* plotApp = app.add_subcommand(
      "plot", "Plot energies and constraint error against time with gnuplot, from a scene or a trajectory CSV");
  plotApp->add_option("input", plot.input, "Scene file (JSON), or a trajectory CSV from `run --trajectory`")->required();
  plotApp->add_option("-o,--output", plot.output, "Output file: .svg, .png or .pdf")->required();
  plotApp->add_option("--what", plot.what, "Panels, comma-separated: energy, energy-drift, constraint-error, velocity-error")
      ->delimiter(',')
      ->check(CLI::IsMember(kPlotPanels));
  plotApp->add_option_function<std::string>(
             "--size", [&plot](const std::string& text) { plot.size = parsePixelSize(text); },
             "Plot size in pixels, WxH (default 900x600)")
      ->check(pixelSize());
  plotApp->add_flag("--quiet", plotQuiet, "No progress bar");
  addSimulationFlags(*plotApp, plot.simulation);

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
  if (*renderApp) {
    render.progress = errIsTerminal && !renderQuiet;
    return renderScene(render, out, err);
  }
  if (*plotApp) {
    plot.progress = errIsTerminal && !plotQuiet;
    return plotSeries(plot, out, err);
  }
  return checkScene(checkPath, out, err);
}

}  // namespace tinkertoy::cli
