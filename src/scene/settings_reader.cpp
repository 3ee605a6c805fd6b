// Reading a scene's "settings" object into SimulationSettings (docs/scene-format.md,
// "Settings"): each field at its JSON path, then the one validation every door shares.
#include <optional>
#include <sstream>

#include "scene/json_reader.hpp"
#include "scene/scene_builder.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::scene {

namespace {

// The named choice at `field`, if the settings give one, into target; a name `parse` does not
// know is a SceneError at the field that lists the names it accepts.
template <class Kind>
void readChoice(const JsonObject& s, const char* field, std::optional<Kind> (*parse)(std::string_view),
                std::string_view what, std::string_view expected, Kind& target) {
  const std::optional<std::string> name = s.optionalString(field);
  if (!name) return;
  const std::optional<Kind> kind = parse(*name);
  if (!kind) {
    std::ostringstream reason;  // not "…" + string: GCC 12 warns falsely
    reason << "unknown " << what << " " << inQuotes(*name) << "; expected " << expected;
    throw SceneError(s.pathOf(field), reason.str());
  }
  target = *kind;
}

// The whole number at the key `setting` has in scenes, if the settings give one, into target;
// one outside the setting's range is a SceneError there.
void readWhole(const JsonObject& s, Setting setting, int& target) {
  const std::string_view key = settingSpelling(setting).scene;
  const std::optional<std::int64_t> value = s.optionalInteger(key);
  if (!value) return;
  try {
    requireWhole(setting, *value);
  } catch (const SettingsError& e) {
    throw SceneError(s.pathOf(key), e.reason());
  }
  target = static_cast<int>(*value);
}

}  // namespace

void validateSettings(const SimulationSettings& settings, const std::string& path) {
  try {
    settings.validate();
  } catch (const SettingsError& e) {
    const std::string_view key = settingSpelling(e.settings().front()).scene;
    throw SceneError(key.empty() ? path : path.empty() ? std::string(key) : path + "." + std::string(key), e.reason());
  }
}

void SceneBuilder::readSettings(const JsonObject& s) {
  s.allowOnly({"dt", "duration", "formulation", "integrator", "rtol", "atol", "solver", "ks", "kd", "tolerance", "max_iterations",
               "regularization", "factorization", "reuse_iterations", "threads", "project", "iterations", "substeps", "velocity_scheme", "warm_start",
               "position_correction", "joint_hertz", "joint_damping_ratio", "collisions", "friction", "restitution",
               "contact_hertz", "contact_damping_ratio", "sleep", "sleep_speed", "sleep_time"});
  SimulationSettings& settings = scene_.settings;
  if (s.has("dt")) settings.dt = s.positive("dt");
  scene_.duration = s.nonNegative("duration", scene_.duration);
  readChoice(s, "integrator", parseIntegrator, "integrator", "euler, symplectic-euler, midpoint, rk4, dopri5 or rattle",
             settings.integrator);
  if (s.has("rtol")) settings.errorTolerance.relative = s.positive("rtol");
  if (s.has("atol")) settings.errorTolerance.absolute = s.positive("atol");
  readChoice(s, "formulation", parseFormulation, "formulation", "acceleration or velocity", settings.formulation);
  readChoice(s, "solver", parseSolver, "solver", "cg, ldlt or sequential", settings.solver.kind);
  readWhole(s, Setting::Iterations, settings.velocity.iterations);
  readWhole(s, Setting::Substeps, settings.velocity.substeps);
  readChoice(s, "velocity_scheme", parseVelocityScheme, "velocity scheme", "symplectic-euler or verlet",
             settings.velocity.scheme);
  if (const auto warm = s.optionalBoolean("warm_start")) settings.velocity.warmStart = *warm;
  readChoice(s, "position_correction", parsePositionCorrection, "position correction",
             "none, baumgarte, projection or soft", settings.velocity.positionCorrection);
  if (s.has("joint_hertz")) settings.velocity.jointHertz = s.positive("joint_hertz");
  settings.velocity.jointDampingRatio = s.nonNegative("joint_damping_ratio", settings.velocity.jointDampingRatio);
  if (const auto collisions = s.optionalBoolean("collisions")) settings.velocity.collisions = *collisions;
  settings.velocity.friction = s.nonNegative("friction", settings.velocity.friction);
  settings.velocity.restitution = s.nonNegative("restitution", settings.velocity.restitution);
  if (s.has("contact_hertz")) settings.velocity.contactHertz = s.positive("contact_hertz");
  settings.velocity.contactDampingRatio = s.nonNegative("contact_damping_ratio", settings.velocity.contactDampingRatio);
  if (const auto sleep = s.optionalBoolean("sleep")) settings.velocity.sleep = *sleep;
  settings.velocity.sleepSpeed = s.nonNegative("sleep_speed", settings.velocity.sleepSpeed);
  if (s.has("sleep_time")) settings.velocity.sleepTime = s.positive("sleep_time");
  settings.ks = s.nonNegative("ks", settings.ks);
  settings.kd = s.nonNegative("kd", settings.kd);
  if (s.has("tolerance")) settings.solver.tolerance = s.positive("tolerance");
  readWhole(s, Setting::MaxIterations, settings.solver.maxIterations);
  settings.solver.regularization = s.nonNegative("regularization", settings.solver.regularization);
  readChoice(s, "factorization", parseFactorization, "factorization", "auto, simplicial, supernodal or tree",
             settings.solver.factorization);
  if (s.has("reuse_iterations")) {
    const nlohmann::json& value = s.at("reuse_iterations");
    if (value.is_string() && value.get<std::string>() == "auto") {
      settings.solver.reuseIterations = -1;
    } else if (const auto cap = value.is_string() ? std::nullopt : s.optionalInteger("reuse_iterations");
               cap && *cap >= 0 && *cap <= wholeRange(Setting::ReuseIterations).most) {
      settings.solver.reuseIterations = static_cast<int>(*cap);
    } else {
      throw SceneError(s.pathOf("reuse_iterations"), "must be \"auto\" or a whole number from 0 to 1000");
    }
  }
  readWhole(s, Setting::Threads, settings.threads);
  if (const auto project = s.optionalBoolean("project")) settings.projection.enabled = *project;
  validateSettings(settings, s.path());
}

}  // namespace tinkertoy::scene
