#include "sweep_command.hpp"

#include <cctype>
#include <cmath>
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
#include "common/utf8.hpp"
#include "scene/json_text_check.hpp"
#include "scene/scene_file.hpp"
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

// One value of an axis: JSON where it is meant to be (it opens an array, an object or a string,
// or reads as a number), otherwise the text as a string (`--set settings.solver=cg,ldlt`).
nlohmann::json parseValue(const std::string& text, std::size_t position) {
  const auto refuse = [&](const std::string& why) {
    return std::invalid_argument("value " + std::to_string(position) + " '" + text + "' " + why);
  };
  if (const std::string problem = scene::checkJsonText(text); !problem.empty()) throw refuse(problem);
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  if (!parsed.is_discarded()) return parsed;
  const unsigned char first = static_cast<unsigned char>(text.front());
  const bool meantAsJson = first == '[' || first == '{' || first == '"' || std::isdigit(first) ||
                           ((first == '-' || first == '+' || first == '.') && text.size() > 1 &&
                            std::isdigit(static_cast<unsigned char>(text[1])));
  if (!meantAsJson) return nlohmann::json(text);
  try {
    const nlohmann::json again = nlohmann::json::parse(text);  // throws, saying why
  } catch (const nlohmann::json::exception& e) {
    std::string detail = e.what();
    if (const auto bracket = detail.find("] "); bracket != std::string::npos) detail = detail.substr(bracket + 2);
    throw refuse("is not JSON: " + detail);
  }
  throw refuse("is not JSON");
}

// "PATH=V1,V2,..." split at its commas, except those inside brackets, braces or quotes. Brackets
// must pair up and quotes close, or nothing is split at all.
Axis parseAxis(const std::string& text) {
  // Paths and values become JSON text, which is UTF-8.
  if (!detail::isUtf8(text)) throw std::invalid_argument("holds bytes that are not UTF-8 text");
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0) throw std::invalid_argument("expected PATH=V1,V2,...");
  Axis axis{text.substr(0, equals), {}};
  const std::string list = text.substr(equals + 1);
  std::string open;  // the brackets and braces not yet closed, innermost last
  bool quoted = false, escaped = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (quoted) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        quoted = false;
      }
      continue;
    }
    if (c == '"') quoted = true;
    if (c == '[' || c == '{') open += c;
    if (c == ']' || c == '}') {
      const char opener = c == ']' ? '[' : '{';
      if (open.empty() || open.back() != opener) {
        throw std::invalid_argument(std::string("a '").append(1, c).append("' at character ").append(std::to_string(i + 1))
                                        .append(" of the values closes nothing opened before it"));
      }
      open.pop_back();
    }
    if (c == ',' && open.empty()) {
      axis.values.push_back(list.substr(start, i - start));
      start = i + 1;
    }
  }
  if (quoted) throw std::invalid_argument("a '\"' in the values is not closed");
  if (!open.empty()) {
    throw std::invalid_argument(std::string("a '").append(1, open.back()).append("' in the values is not closed"));
  }
  axis.values.push_back(list.substr(start));
  for (std::size_t k = 0; k < axis.values.size(); ++k) {
    const std::string value = axis.values[k].get<std::string>();
    if (value.empty()) throw std::invalid_argument("value " + std::to_string(k + 1) + " is empty");
    axis.values[k] = parseValue(value, k + 1);
  }
  return axis;
}

// Throws std::invalid_argument naming the axis if its path is a field the scene format does not
// have there (a typo such as particles[0].masss): the scene with the axis's first value set must
// not fail with an unknown field at that very path. Values it rejects otherwise are the cases'.
void requireKnownField(const nlohmann::json& document, const Axis& axis) {
  nlohmann::json probe = document;
  setAtPath(probe, axis.path, axis.values.front());
  try {
    (void)parseScene(probe.dump(), "");
  } catch (const SceneError& e) {
    if (e.kind() == SceneError::Kind::UnknownField && e.path() == axis.path) {
      throw std::invalid_argument(axis.path + ": " + e.reason());
    }
  } catch (const std::exception&) {  // anything else is the case's to report
  }
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
    applySceneFlags(flags, scene);
    result.error = checkSceneSteps(label, scene, flags);
    if (!result.error.empty()) return result;
    run = std::make_unique<SceneRun>(std::move(scene));
  } catch (const FlagError& e) {
    result.error = label + ": " + e.what();
    return result;
  } catch (const SceneError& e) {
    result.error = e.what();
    return result;
  } catch (const SettingsError& e) {  // a case's settings that do not fit the flags
    result.error = settingsProblem(e, label, flags);
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
      for (std::size_t k = 0; k + 1 < axes.size(); ++k) {
        if (axes[k].path == axes.back().path) throw std::invalid_argument("the path is an axis already (--set " +
                                                                          std::to_string(k + 1) + "): give its values once");
      }
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
  try {  // read again, within the same limits, to write the cases' values into
    document = nlohmann::json::parse(scene::readSceneFile(options.scene));
  } catch (const std::exception& e) {
    err << "error: " << options.scene << ": " << e.what() << "\n";
    return kBadInput;
  }
  for (const Axis& axis : axes) {
    try {
      requireKnownField(document, axis);
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
