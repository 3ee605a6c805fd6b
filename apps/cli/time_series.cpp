// Energies and constraint errors over time (time_series.hpp).
#include "time_series.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "csv.hpp"

namespace tinkertoy::cli {

void TimeSeries::add(double t, const StepDiagnostics& d, double ledger) {
  time.push_back(t);
  kinetic.push_back(d.kineticEnergy);
  potential.push_back(d.potentialEnergy);
  total.push_back(d.totalEnergy());
  constraintError.push_back(d.constraintError);
  velocityError.push_back(d.velocityError);
  work.push_back(ledger);
}

namespace {

// The finite number that is all of `text`, written in decimal as `run --trajectory` writes it:
// not hex (0x10), inf or nan, and not beyond a double; a number too small for a normal double
// (4.9e-321, which a trajectory may hold) is read as the subnormal it is.
std::optional<double> decimal(const std::string& text) {
  const bool digitsAndSigns = !text.empty() && text.find_first_not_of("0123456789+-.eE") == std::string::npos;
  if (!digitsAndSigns) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(value)) return std::nullopt;
  return value;  // ERANGE with a finite value is an underflow, read as the nearest double
}

}  // namespace

TimeSeries readTrajectory(const std::filesystem::path& file, std::size_t maxRows) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot read the file");
  const auto fail = [&](std::size_t line, const std::string& reason) {
    std::string message = file.string();
    message.append(":").append(std::to_string(line)).append(": ").append(reason);
    throw std::runtime_error(message);
  };
  std::size_t line = 1;
  std::optional<std::vector<std::string>> record;
  const auto next = [&] {
    try {
      record = readCsvRecord(in, line);
    } catch (const std::runtime_error& e) {
      std::string message = file.string();
      throw std::runtime_error(message.append(": ").append(e.what()));
    }
    return record.has_value();
  };
  if (!next()) fail(1, "the file is empty; expected a trajectory CSV from `tinkertoy run --trajectory`");
  const std::vector<std::string> header = *record;
  std::vector<std::size_t> columns;
  for (const char* name : kSeriesColumns) {
    const auto found = std::find(header.begin(), header.end(), name);
    if (found == header.end()) {
      fail(1, std::string("no column '") + name + "' in the header; expected a trajectory CSV from `tinkertoy run --trajectory`");
    }
    columns.push_back(static_cast<std::size_t>(found - header.begin()));
  }
  TimeSeries series;
  std::vector<double>* targets[] = {&series.time,  &series.kinetic,         &series.potential,
                                    &series.total, &series.constraintError, &series.velocityError, &series.work};
  for (std::size_t number = line; next(); number = line) {
    const std::vector<std::string>& cells = *record;
    if (cells.size() == 1 && cells[0].empty()) continue;  // a blank line
    if (series.size() == maxRows) {
      fail(number, "more than the limit of " + std::to_string(maxRows) +
                       " rows of a trajectory CSV for plot; write fewer with `run --every N`");
    }
    if (cells.size() != header.size()) {
      fail(number, "expected " + std::to_string(header.size()) + " values, found " + std::to_string(cells.size()));
    }
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const std::string& text = cells[columns[k]];
      const std::optional<double> value = decimal(text);
      const std::string column = std::string("column '") + kSeriesColumns[k] + "': ";
      if (!value) fail(number, column + "expected a finite decimal number, got '" + text + "'");
      // The time runs forward; an error is a norm, never negative (and drawn on a log scale).
      if (targets[k] == &series.time && !series.time.empty() && *value < series.time.back()) {
        fail(number, column + "the time goes back, from " + cells[columns[k]] + " after " +
                         std::to_string(series.time.back()) + "; the rows must be in the order of time");
      }
      if ((targets[k] == &series.constraintError || targets[k] == &series.velocityError) && *value < 0.0) {
        fail(number, column + "a norm cannot be negative, got '" + text + "'");
      }
      targets[k]->push_back(*value);
    }
  }
  if (series.size() == 0) fail(2, "no rows after the header");
  return series;
}

TimeSeries simulateSeries(SceneRun& run, std::size_t maxSamples, ProgressBar& progress, std::string& failure) {
  const Model& model = run.scene.model;
  const Simulator& simulator = run.simulator;
  const std::uint64_t steps = stepsToReach(run.scene.duration, run.scene.settings.dt);
  const std::uint64_t every = std::max<std::uint64_t>(1, (steps + maxSamples - 2) / std::max<std::size_t>(1, maxSamples - 1));
  TimeSeries series;
  // Step k is at t0 + k·dt, not at the model's running sum of dt.
  const double t0 = model.time(), dt = run.scene.settings.dt;
  double work = 0.0;
  series.add(t0, simulator.diagnostics(), work);
  failure = stepScene(run, steps, progress, [&](std::uint64_t i) {
    work += simulator.diagnostics().work.total();
    if (i % every == 0 || i == steps) series.add(t0 + static_cast<double>(i) * dt, simulator.diagnostics(), work);
  });
  if (!failure.empty() && series.time.back() != model.time()) series.add(model.time(), simulator.diagnostics(), work);
  return series;
}

}  // namespace tinkertoy::cli
