#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <exception>
#include <new>

#include "check_command.hpp"
#include "compare_command.hpp"
#include "flag_checks.hpp"
#include "misspelling.hpp"
#include "plot_command.hpp"
#include "printable_stream.hpp"
#include "render_command.hpp"
#include "run_command.hpp"
#include "sweep_command.hpp"

namespace tinkertoy::cli {

namespace {

void addSizeFlag(CLI::App& app, PixelSize& size, int minimum, const std::string& help) {
  app.add_option_function<std::string>("--size", [&size](const std::string& text) { size = parsePixelSize(text); }, help)
      ->check(pixelSize(minimum));
}

// The command the arguments name, run; what it writes goes to out and err.
int runCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool errIsTerminal) {
  CLI::App app{"Tinkertoy: constrained dynamics after Witkin and dyn4j. Runs and checks JSON scenes.", "tinkertoy"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tinkertoy 0.1.0");

  bool quiet = false;  // --quiet of whichever command runs
  const auto addQuietFlag = [&quiet](CLI::App& command) { command.add_flag("--quiet", quiet, "No progress bar"); };

  RunOptions options;
  CLI::App* runApp = app.add_subcommand("run", "Simulate a scene and print a summary");
  runApp->add_option("scene", options.scene, "Scene file (JSON)")->required();
  addSimulationFlags(*runApp, options.simulation);
  addQuietFlag(*runApp);
  runApp->add_option("--trajectory", options.trajectory, "Write a CSV trajectory to FILE.csv");
  runApp->add_option("--every", options.every, "Record every N-th step in the trajectory")
      ->check(integerAtLeast(1));
  runApp->add_option("--summary", options.summary, "Write a JSON summary to FILE.json");
  CLI::Option* saveState = runApp->add_option(
      "--save-state", options.saveState,
      "Save the simulator's whole state to FILE (binary) after the step that reaches --at, for --resume");
  runApp->add_option_function<double>("--at", [&options](double t) { options.saveAt = t; },
                                      "Simulated time, s, of the step --save-state saves after (default: the end)")
      ->check(finiteNumber(Sign::NonNegative))
      ->needs(saveState);
  runApp->add_option("--resume", options.resume,
                     "Continue from a state saved by --save-state, to the end of the run: the same scene and settings "
                     "give the same bits as a run never interrupted");

  RenderOptions render;
  CLI::App* renderApp = app.add_subcommand(
      "render", "Simulate a scene and draw it: a still picture (.svg, .png, .pdf) or a video (.mp4, .gif)");
  renderApp->add_option("scene", render.scene, "Scene file (JSON)")->required();
  renderApp->add_option("-o,--output", render.output, "Output file: .svg, .png, .pdf, .mp4 or .gif")->required();
  renderApp->add_option("--fps", render.fps,
                        "Video frames per second of simulated time (default 30; at most 240, 50 for a GIF)")
      ->check(integerAtLeast(1));
  addSizeFlag(*renderApp, render.size, 48, "Picture size in pixels, WxH, each side 48 to 8192 (default 960x720)");
  renderApp->add_option_function<double>("--time", [&render](double t) { render.time = t; },
                                         "Moment a still picture shows, s (default: the end)")
      ->check(finiteNumber(Sign::NonNegative));
  renderApp->add_option("--exposures", render.exposures,
                        "Overlay K states up to --time in a still, the earlier fainter (a strobe)")
      ->check(integerAtLeast(1));
  renderApp->add_option_function<double>(
               "--span", [&render](double s) { render.span = s; },
               "Seconds the exposures spread over, ending at --time (default: the scene's period, else 1; at most "
               "(K-1)/K of a period)")
      ->check(finiteNumber(Sign::Positive));
  renderApp->add_flag("--trails", render.trails, "Draw each point mass's and rigid body's path");
  renderApp->add_option("--trail-point", render.trailPoints,
                        "Draw the path of this point only: BODY (a particle, bead, chain's tip or rigid body's origin) "
                        "or BODY:X,Y (a point in a rigid body's frame, m); repeat for more");
  renderApp->add_flag("--forces", render.forces, "Draw the constraint-force arrows");
  renderApp->add_flag("--contacts", render.contacts, "Draw the contact points and their normals (with collisions)");
  renderApp->add_option_function<std::string>(
      "--ghost", [&render](const std::string& flags) { render.ghost = flags; },
      "FLAGS of a second run of the scene, in one argument (\"--ks 100 --kd 2\"), drawn over the first as a ghost");
  CLI::Option* viewFlag = renderApp->add_option_function<std::string>(
      "--view", [&render](const std::string& name) { render.view = ViewDirection::named(name); },
      "How a 3D scene is seen: front (along -z), top, side or oblique (the default for 3D)");
  viewFlag->check(CLI::IsMember({"front", "top", "side", "oblique"}));
  renderApp->add_option_function<std::string>(
               "--camera",
               [&render](const std::string& text) {
                 const auto [azimuth, elevation] = parseCameraAngles(text);
                 render.view = ViewDirection{azimuth * ViewDirection::kDegree, elevation * ViewDirection::kDegree};
               },
               "View a 3D scene from AZIMUTH,ELEVATION in degrees (0,0 is the front view, 0,90 the top)")
      ->check(cameraAngles())
      ->excludes(viewFlag);
  renderApp->add_flag("--perspective", render.perspective,
                      "Draw a 3D scene in perspective, the eye 2.5 model sizes from the model's middle");
  addQuietFlag(*renderApp);
  addSimulationFlags(*renderApp, render.simulation);

  PlotOptions plot;
  CLI::App* plotApp = app.add_subcommand(
      "plot", "Plot energies and constraint error against time with gnuplot, from a scene or a trajectory CSV");
  plotApp->add_option("input", plot.input, "Scene file (JSON), or a trajectory CSV from `run --trajectory`")->required();
  plotApp->add_option("-o,--output", plot.output, "Output file: .svg, .png or .pdf")->required();
  plotApp->add_option("--what", plot.what, "Panels, comma-separated: energy, energy-drift, constraint-error, velocity-error")
      ->delimiter(',')
      ->check(CLI::IsMember(kPlotPanels));
  addSizeFlag(*plotApp, plot.size, 200, "Plot size in pixels, WxH, each side 200 to 8192 (default 900x600)");
  addQuietFlag(*plotApp);
  addSimulationFlags(*plotApp, plot.simulation);

  SweepOptions sweep;
  CLI::App* sweepApp = app.add_subcommand(
      "sweep", "Run a scene once per combination of parameter values and write one CSV row per case");
  sweepApp->add_option("scene", sweep.scene, "Scene file (JSON)")->required();
  sweepApp->add_option("--set", sweep.sets,
                       "PATH=V1,V2,...: values (JSON; otherwise strings) for the JSON path PATH of the scene, such as "
                       "bodies[1].mass=0.5,1,2; repeat for more axes, every combination is a case")
      ->required()
      ->allow_extra_args(false);  // one axis per --set
  sweepApp->add_option("-o,--output", sweep.output, "Output CSV: one row per case")->required();
  sweepApp->add_option_function<std::string>(
      "--shard",
      [&sweep](const std::string& text) {
        const auto [index, count] = parseShard(text);
        sweep.shardIndex = index;
        sweep.shardCount = count;
      },
      "I/N: run only the cases whose number is I modulo N (split a sweep over N machines)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            try {
              (void)parseShard(text);
              return {};
            } catch (const std::invalid_argument& e) {
              return std::string(e.what()).append(", got '").append(text).append("'");
            }
          },
          "I/N"));
  addQuietFlag(*sweepApp);
  addSimulationFlags(*sweepApp, sweep.simulation);

  CompareOptions compare;
  CLI::App* compareApp = app.add_subcommand(
      "compare", "Run a scene twice, under two sets of simulation flags, and print the two runs side by side");
  compareApp->add_option("scene", compare.scene, "Scene file (JSON)")->required();
  compareApp->add_option("--a", compare.a,
                         "FLAGS for the first run, in one argument: \"--solver cg --dt 0.001\" (default: the scene's own settings)");
  compareApp->add_option("--b", compare.b, "FLAGS for the second run (\"\" for the scene's own settings)")->required();
  addQuietFlag(*compareApp);

  std::string checkPath;
  CLI::App* checkApp = app.add_subcommand(
      "check", "Validate a scene and audit every constraint's J and J̇q̇ against finite differences");
  checkApp->add_option("scene", checkPath, "Scene file (JSON)")->required();

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (const std::string typo = misspelling(app, args); e.get_exit_code() != 0 && !typo.empty()) {
      err << typo << "\nRun with --help for more information.\n";
      return kBadInput;
    }
    const int code = app.exit(e, out, err);
    return code == 0 ? kSuccess : kBadInput;
  }
  const bool progress = errIsTerminal && !quiet;
  if (*runApp) {
    options.progress = progress;
    return runScene(options, out, err);
  }
  if (*compareApp) {
    compare.progress = progress;
    return compareScene(compare, out, err);
  }
  if (*renderApp) {
    render.progress = progress;
    return renderScene(render, out, err);
  }
  if (*plotApp) {
    plot.progress = progress;
    return plotSeries(plot, out, err);
  }
  if (*sweepApp) {
    sweep.progress = progress;
    return sweepScene(sweep, out, err);
  }
  return checkScene(checkPath, out, err);
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& rawOut, std::ostream& rawErr, bool errIsTerminal) {
  // Every message shows control characters instead of obeying them: a scene's names and a
  // command line's paths are the user's text.
  PrintableStreambuf printableOut(rawOut.rdbuf()), printableErr(rawErr.rdbuf());
  std::ostream out(&printableOut), err(&printableErr);
  markEscaped(out, printableOut);
  markEscaped(err, printableErr);
  // Nothing escapes: an exhausted memory, or an exception no command expected, ends the command
  // with a message (the outputs it was writing removed as their owners unwind), never an abort.
  try {
    return runCommand(args, out, err, errIsTerminal);
  } catch (const std::bad_alloc&) {
    err << "error: out of memory: the machine could not give the command the memory it needed"
           " (the limits on inputs are in docs/scene-format.md and docs/rendering.md)\n";
  } catch (const std::exception& e) {
    err << "error: internal error, please report it: " << e.what() << "\n";
  }
  return kResourceFailure;
}

}  // namespace tinkertoy::cli
