#include "sweep_command.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "cli.hpp"
#include "csv.hpp"
#include "json_path.hpp"
#include "pending_file.hpp"
#include "progress_bar.hpp"
#include "tinkertoy/dynamics/run_statistics.hpp"
#include "tinkertoy/dynamics/simulation_settings.hpp"

namespace tinkertoy::cli {

namespace {

// More cases than this is a mistake on the command line rather than a sweep.
constexpr std::size_t kMaxCases = 1'000'000;

struct Axis {
  std::string path;
  std::vector<nlohmann::json> values;
};

// "PATH=V1,V2,..." split at its commas, except those inside brackets, braces or quotes.
Axis parseAxis(const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0) throw std::invalid_argument("expected PATH=V1,V2,...");
  Axis axis{text.substr(0, equals), {}};
  const std::string list = text.substr(equals + 1);
  int depth = 0;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    const char c = i < list.size() ? list[i] : ',';
    if (c == '"' && (i == 0 || list[i - 1] != '\\')) quoted = !quoted;
    if (quoted) continue;
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (c != ',' || depth > 0) continue;
    const std::string value = list.substr(start, i - start);
    if (value.empty()) throw std::invalid_argument(std::string("value ").append(std::to_string(axis.values.size() + 1)).append(" is empty"));
    nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
    axis.values.push_back(parsed.is_discarded() ? nlohmann::json(value) : std::move(parsed));
    start = i + 1;
  }
  return axis;
}

std::string number(double x) {
  std::ostringstream text;
  text.precision(std::numeric_limits<double>::max_digits10);
  text << x;
  return text.str();
}

// What one case gives: its statistics, or why it has none; a blow-up gives both (up to its last good step).
struct CaseResult {
  std::string error;
  std::optional<RunStatistics> stats;
  double finalTime = std::numeric_limits<double>::quiet_NaN();
};

CaseResult runCase(const nlohmann::json& document, const std::string& label, const SimulationFlags& flags,
                   std::ostream& err) {
  CaseResult result;
  std::unique_ptr<SceneRun> run;
  try {
    Scene scene = parseScene(document.dump(), label, [&flags](SimulationSettings& s) { applyFlags(flags, s); });
    if (flags.duration) scene.duration = *flags.duration;
    result.error = checkSceneSteps(label, scene, flags);
    if (!result.error.empty()) return result;
    run = std::make_unique<SceneRun>(std::move(scene));
  } catch (const SceneError& e) {
    result.error = e.what();
    return result;
  } catch (const std::invalid_argument& e) {  // settings that do not fit the model
    result.error = label + ": " + e.what();
    return result;
  }
  RunStatistics& stats = result.stats.emplace(run->simulator.diagnostics());
  ProgressBar silent(err, false, label, 0);
  const std::uint64_t steps = stepsToReach(run->scene.duration, run->scene.settings.dt);
  result.error = stepScene(*run, steps, silent, [&](std::uint64_t) { stats.add(run->simulator.diagnostics()); });
  result.finalTime = run->scene.model.time();
  return result;
}

constexpr const char* kResultColumns[] = {"error",          "steps",           "final_time",
                                          "energy_drift_max", "energy_error_max", "constraint_error_max",
                                          "velocity_error_max", "solver_iterations_mean"};

void writeRow(std::ostream& csv, std::size_t index, const std::vector<nlohmann::json>& values, const CaseResult& r) {
  csv << index;
  for (const nlohmann::json& v : values) csv << ',' << csvField(v.is_string() ? v.get<std::string>() : v.dump());
  csv << ',' << csvField(r.error);
  if (!r.stats) {
    csv << ",0";
    for (int k = 0; k < 6; ++k) csv << ",nan";
  } else {
    const RunStatistics& s = *r.stats;
    csv << ',' << s.steps << ',' << number(r.finalTime) << ',' << number(s.energyDriftMax) << ','
        << number(s.energyErrorMax) << ',' << number(s.constraintErrorMax) << ',' << number(s.velocityErrorMax) << ','
        << number(s.iterationsPerSolve());
  }
  csv << '\n';
}

}  // namespace

std::pair<long, long> parseShard(const std::string& text) {
  const std::size_t slash = text.find('/');
  std::size_t usedIndex = 0, usedCount = 0;
  long index = -1, count = 0;
  try {
    if (slash == std::string::npos) throw std::invalid_argument("");
    index = std::stol(text.substr(0, slash), &usedIndex);
    count = std::stol(text.substr(slash + 1), &usedCount);
  } catch (const std::logic_error&) {
    throw std::invalid_argument("expected I/N, such as 0/4");
  }
  if (usedIndex != slash || usedCount != text.size() - slash - 1) throw std::invalid_argument("expected I/N, such as 0/4");
  if (count < 1 || index < 0 || index >= count) throw std::invalid_argument("needs 0 <= I < N");
  return {index, count};
}

int sweepScene(const SweepOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<Axis> axes;
  std::size_t cases = 1;
  for (const std::string& set : options.sets) {
    try {
      axes.push_back(parseAxis(set));
    } catch (const std::invalid_argument& e) {
      err << "error: --set " << set << ": " << e.what() << "\n";
      return kBadInput;
    }
    cases *= axes.back().values.size();
    if (cases > kMaxCases) {
      err << "error: --set: the axes make more than " << kMaxCases << " cases\n";
      return kBadInput;
    }
  }
  // The scene as given, with the flags, must load: its errors are the user's, not a case's.
  if (!startSceneRun(options.scene, options.simulation, err)) return kBadInput;
  nlohmann::json document;
  {
    std::ifstream file(options.scene);
    document = nlohmann::json::parse(file, nullptr, false);
  }
  for (const Axis& axis : axes) {
    try {
      nlohmann::json probe = document;
      setAtPath(probe, axis.path, axis.values.front());
    } catch (const std::invalid_argument& e) {
      err << "error: --set " << e.what() << "\n";  // the message starts with the path
      return kBadInput;
    }
  }
  const std::unique_ptr<PendingFile> csvFile = pendingOutput(options.output, {options.scene}, "--output", err);
  if (!csvFile) return kBadInput;

  std::ostringstream csv;
  csv << "case";
  for (const Axis& axis : axes) csv << ',' << csvField(axis.path);
  for (const char* column : kResultColumns) csv << ',' << column;
  csv << '\n';
  const auto mine = static_cast<std::size_t>(options.shardCount);
  const auto shard = static_cast<std::size_t>(options.shardIndex);
  const std::size_t mineCount = shard < cases ? (cases - shard + mine - 1) / mine : 0;
  ProgressBar progress(err, options.progress, "sweeping", mineCount, "cases");
  std::size_t ran = 0, failed = 0;
  for (std::size_t index = shard; index < cases; index += mine) {
    nlohmann::json caseDocument = document;
    std::vector<nlohmann::json> values(axes.size());
    std::size_t rest = index;
    for (std::size_t k = axes.size(); k-- > 0;) {
      values[k] = axes[k].values[rest % axes[k].values.size()];
      rest /= axes[k].values.size();
      setAtPath(caseDocument, axes[k].path, values[k]);
    }
    const CaseResult result = runCase(caseDocument, "case " + std::to_string(index), options.simulation, err);
    writeRow(csv, index, values, result);
    ++ran;
    if (!result.error.empty()) ++failed;
    progress.update(ran, std::numeric_limits<double>::quiet_NaN());
  }
  progress.finish();
  if (const std::string problem = csvFile->land(csv.str()); !problem.empty()) {
    err << "error: --output " << options.output << ": " << problem << "\n";
    return kOutputFailed;
  }
  out << "sweep: " << ran << " of " << cases << " cases run, " << failed << " failed; results in " << options.output
      << "\n";
  if (failed > 0) {
    err << "error: " << failed << " case" << (failed == 1 ? "" : "s") << " failed: see the \"error\" column of "
        << options.output << "\n";
    return kBlowUp;
  }
  return kSuccess;
}

}  // namespace tinkertoy::cli
