// `tinkertoy plot` (plot_command.hpp).
#include "plot_command.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>

#include "child_process.hpp"
#include "cli.hpp"
#include "model_contents.hpp"
#include "output_format.hpp"
#include "pending_file.hpp"
#include "progress_bar.hpp"
#include "time_series.hpp"

namespace tinkertoy::cli {

namespace {

constexpr std::size_t kMaxSamples = 4000;  // per series when simulating a scene

// A gnuplot string literal. Single quotes, in which gnuplot expands nothing (in double quotes
// it would run `backquoted` text as a shell command); a line break becomes "\n" joined on.
std::string quoted(const std::string& text) {
  std::string result = "'";
  for (const char c : text) {
    if (c == '\n') {
      result += "'.\"\\n\".'";
    } else {
      result += c;
      if (c == '\'') result += '\'';
    }
  }
  return result + "'";
}

std::string terminal(OutputFormat format, PixelSize size) {
  const std::string pixels = std::to_string(size.width) + "," + std::to_string(size.height);
  switch (format) {
    case OutputFormat::Png:
      return "pngcairo size " + pixels + " enhanced font 'DejaVu Sans,10' background rgb 'white'";
    case OutputFormat::Pdf: {
      // PDF pages are measured in inches: 100 px to the inch keeps the proportions and type of the others.
      char inches[64];
      std::snprintf(inches, sizeof inches, "%.2fin,%.2fin", size.width / 100.0, size.height / 100.0);
      return std::string("pdfcairo size ") + inches + " enhanced font 'DejaVu Sans,8'";
    }
    default:
      return "svg size " + pixels + " dynamic enhanced font 'DejaVu Sans,11' background rgb 'white'";
  }
}

bool anyPositive(const std::vector<double>& values) {
  return std::any_of(values.begin(), values.end(), [](double v) { return v > 0.0; });
}

// The lines of one panel; columns of $series: 1 t, 2 K, 3 V, 4 E, 5 E − E(0), 6 ‖C‖∞, 7 ‖Ċ‖∞,
// 8 the work ledger's total W, 9 E − E(0) − W.
void panel(std::ostream& script, const std::string& what, const TimeSeries& series, bool last) {
  script << "unset logscale y\nset format y '%g'\n";
  script << (last ? "set xlabel 'time (s)'\n" : "unset xlabel\n");
  if (what == "energy") {
    script << "set title 'Energy'\nset ylabel 'energy (J)'\n"
           << "plot $series using 1:2 with lines lw 2 lc rgb '#1f77b4' title 'kinetic K', \\\n"
           << "     $series using 1:3 with lines lw 2 lc rgb '#2ca02c' title 'potential V', \\\n"
           << "     $series using 1:4 with lines lw 2.5 lc rgb '#d62728' title 'total E = K + V'\n";
  } else if (what == "energy-drift") {
    script << "set title 'Energy drift, work and numerical error'\nset ylabel 'energy (J)'\n"
           << "plot $series using 1:5 with lines lw 2 lc rgb '#d62728' title 'drift E(t) − E(0)', \\\n"
           << "     $series using 1:8 with lines lw 2 dt 2 lc rgb '#ff7f0e' title 'work W(t) of the ledger', \\\n"
           << "     $series using 1:9 with lines lw 2 lc rgb '#17becf' title 'numerical error E − E(0) − W'\n";
  } else {
    const bool position = what == "constraint-error";
    const int column = position ? 6 : 7;
    const std::string name = position ? "‖C‖_∞" : "‖Ċ‖_∞";
    const std::string unit = position ? "(m, rad)" : "(m/s, rad/s)";
    script << "set title " << quoted((position ? "Constraint error " : "Velocity error ") + name) << "\n"
           << "set ylabel " << quoted(name + " " + unit) << "\n";
    // A log scale cannot show zero: zeros are left out, and a series that is zero throughout
    // is drawn on a linear scale and says so.
    if (anyPositive(position ? series.constraintError : series.velocityError)) {
      script << "set logscale y\nset format y '10^{%L}'\n"
             << "plot $series using 1:($" << column << " > 0 ? $" << column << " : NaN) with lines lw 2 lc rgb '#9467bd' title "
             << quoted(name) << "\n";
    } else {
      script << "plot $series using 1:" << column << " with lines lw 2 lc rgb '#9467bd' title "
             << quoted(name + " = 0 throughout") << "\n";
    }
  }
}

std::string gnuplotScript(const PlotOptions& o, OutputFormat format, const std::filesystem::path& file,
                          const TimeSeries& series, const std::string& title) {
  std::ostringstream script;
  script.precision(17);
  script << "set terminal " << terminal(format, o.size) << "\n";
  script << "set output " << quoted(file.string()) << "\n";
  script << "$series << EOD\n";
  for (std::size_t i = 0; i < series.size(); ++i) {
    script << series.time[i] << ' ' << series.kinetic[i] << ' ' << series.potential[i] << ' ' << series.total[i] << ' '
           << series.total[i] - series.total.front() << ' ' << series.constraintError[i] << ' '
           << series.velocityError[i] << ' ' << series.work[i] << ' '
           << series.total[i] - series.total.front() - series.work[i] << '\n';
  }
  script << "EOD\n";
  script << "set grid lc rgb '#dddddd'\nset key outside right top\nset border lc rgb '#444444'\n"
         << "set lmargin 12\nset rmargin 24\n";
  script << "page_title = " << quoted(title) << "\n";
  script << "set multiplot layout " << o.what.size() << ",1 title page_title noenhanced font ',12'\n";
  for (std::size_t k = 0; k < o.what.size(); ++k) panel(script, o.what[k], series, k + 1 == o.what.size());
  script << "unset multiplot\nset output\n";
  return script.str();
}

}  // namespace

int plotSeries(const PlotOptions& o, std::ostream& out, std::ostream& err) {
  const std::optional<OutputFormat> format = outputFormat(o.output);
  if (!format || isVideo(*format)) {
    err << "error: -o " << o.output << ": unknown plot type '" << std::filesystem::path(o.output).extension().string()
        << "'; use .svg, .png or .pdf\n";
    return kBadInput;
  }
  const bool fromCsv = lowercaseExtension(o.input) == ".csv";
  if (fromCsv && o.simulation.any()) {
    err << "error: the simulation flags (--duration, --dt, ...) apply to a scene, not to the trajectory " << o.input
        << "\n";
    return kBadInput;
  }
  const std::string gnuplot = findProgram("gnuplot");
  if (gnuplot.empty()) {
    err << "error: plot " << missingProgram("gnuplot", "gnuplot-nox") << "\n";
    return kBadInput;
  }

  TimeSeries series;
  std::string title, failure;
  std::unique_ptr<SceneRun> run;
  if (fromCsv) {
    try {
      series = readTrajectory(o.input);
    } catch (const std::runtime_error& e) {
      err << "error: " << e.what() << "\n";
      return kBadInput;
    }
    title = std::filesystem::path(o.input).filename().string();
  } else {
    run = startSceneRun(o.input, o.simulation, err);
    if (!run) return kBadInput;
    const SimulationSettings& s = run->scene.settings;
    std::ostringstream name;
    name << (run->scene.name.empty() ? std::filesystem::path(o.input).stem().string() : run->scene.name) << "\n"
         << formulationName(s.formulation) << " level, " << integratorOf(s) << ", " << solverName(s.solver.kind)
         << ", dt = " << s.dt << " s";
    title = name.str();
  }
  const std::unique_ptr<PendingFile> file = pendingOutput(o.output, {o.input}, "-o", err);
  if (!file) return kBadInput;
  if (run) {
    ProgressBar progress(err, o.progress, "simulating", stepsToReach(run->scene.duration, run->scene.settings.dt));
    series = simulateSeries(*run, kMaxSamples, progress, failure);
  }

  std::string problem;
  try {
    ChildProcess plotter(gnuplot, {});
    const bool taken = plotter.write(gnuplotScript(o, *format, file->path(), series, title));
    problem = plotter.finishAndExplain("gnuplot", taken);
  } catch (const std::runtime_error& e) {  // gnuplot could not be started
    problem = e.what();
  }
  if (problem.empty()) problem = file->commit();
  if (!problem.empty()) {
    err << "error: -o " << o.output << ": " << problem << "\n";
    return kOutputFailed;
  }
  out << "wrote " << o.output << ": " << o.size.width << "x" << o.size.height << ", " << counted(series.size(), "sample")
      << " from t = " << series.time.front() << " to " << series.time.back() << " s ("
      << readableSize(std::filesystem::file_size(o.output)) << ")\n";
  if (!failure.empty()) {
    err << "error: " << failure << "\n" << o.output << " shows the run up to the last good state\n";
    return kBlowUp;
  }
  return kSuccess;
}

}  // namespace tinkertoy::cli
