#include "check_command.hpp"

#include <iomanip>
#include <optional>
#include <stdexcept>

#include "cli.hpp"
#include "model_contents.hpp"
#include "scene_run.hpp"
#include "tinkertoy/constraints/formula_constraint.hpp"
#include "tinkertoy/dynamics/derivative_audit.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::cli {

namespace {

// The audit's verdicts over every constraint and body: the worst wrong one, and what could not
// be audited.
struct Verdicts {
  double worstWrong = 0.0;
  std::string worstWrongName;
  std::size_t unaudited = 0;
  std::string firstUnaudited;

  // The row's mark after its numbers: "" when it passes.
  std::string add(const DerivativeAuditResult& r, const std::string& name) {
    switch (r.verdict()) {
      case AuditVerdict::Pass:
        return "";
      case AuditVerdict::Wrong:
        if (r.worst() >= worstWrong) {
          worstWrong = r.worst();
          worstWrongName = name;
        }
        return "  FAIL";
      case AuditVerdict::CannotAudit:
        if (unaudited++ == 0) firstUnaudited = name;
        break;
    }
    return "  cannot audit";
  }
};

// For each formula constraint, each row's J as the engine derives it (automatic differentiation)
// beside J by central differences of C, one line per variable the row reads.
void printFormulaJacobians(const Model& model, std::ostream& out) {
  bool headed = false;
  const Eigen::Index w = model.dimension() + 1;  // a point's columns: its coordinates and frame angle
  for (std::size_t k = 0; k < model.constraintCount(); ++k) {
    const ConstraintId id = model.constraintAt(k);
    const ConstraintSettings settings = model.constraint(id).settings();
    const auto* formula = std::get_if<FormulaConstraintSettings>(&settings);
    if (!formula) continue;
    if (!headed) {
      out << "formula constraints: J by automatic differentiation beside J by central differences:\n";
      headed = true;
    }
    const JacobianComparison J = compareJacobian(model, id);
    const std::vector<std::string> variables = namedPointVariables(formula->points);
    for (std::size_t r = 0; r < formula->rows.size(); ++r) {
      const Formula row(formula->rows[r], variables, formula->parameters);
      out << "  " << model.describe(id) << ", row " << r << ": " << row.text() << "\n"
          << "    " << std::left << std::setw(14) << "variable" << std::right << std::setw(18) << "derived"
          << std::setw(18) << "differenced" << "\n";
      for (std::size_t v = 0; v + 1 < variables.size(); ++v) {  // t, the last, has no column of J
        if (!row.uses(v)) continue;
        const auto point = static_cast<Eigen::Index>(v / kVariablesPerPoint);
        const auto axis = static_cast<Eigen::Index>(v % kVariablesPerPoint);
        const Eigen::Index column = point * w + (axis == static_cast<Eigen::Index>(kAngleVariable) ? w - 1 : axis);
        const auto i = static_cast<Eigen::Index>(r);
        out << "    " << std::left << std::setw(14) << variables[v] << std::right << std::setprecision(9)
            << std::setw(18) << J.derived(i, column) << std::setw(18) << J.differenced(i, column) << "\n";
      }
    }
  }
  out << std::setprecision(2);
}

}  // namespace

int checkScene(const std::string& path, std::ostream& out, std::ostream& err) {
  std::optional<Scene> loaded;
  try {
    loaded.emplace(loadScene(path));
  } catch (const SceneError& e) {
    err << "error: " << e.what() << "\n";
    return kBadInput;
  }
  // The same limits as a run of the scene: what check calls valid, run runs.
  if (const std::string problem = checkSceneSteps(path, *loaded); !problem.empty()) {
    err << "error: " << problem << "\n";
    return kBadInput;
  }
  Model& model = loaded->model;
  out << path << ": valid " << model.dimension() << "D scene with " << describeContents(model)
      << " and " << counted(model.forceCount(), "force") << "\n";

  if (model.constraintCount() > 0) {
    out << "derivatives against central differences (worst relative error, tolerance "
        << kDerivativeAuditTolerance << "):\n";
    out << "  " << std::left << std::setw(28) << "constraint" << std::setw(10) << "type"
        << std::right << std::setw(11) << "J" << std::setw(11) << "dC/dt" << std::setw(11)
        << "Jdot" << std::setw(11) << "Jdot*v+Ctt" << "\n";
  }
  Verdicts verdicts;
  out << std::scientific << std::setprecision(2);
  for (std::size_t k = 0; k < model.constraintCount(); ++k) {
    const ConstraintId id = model.constraintAt(k);
    const DerivativeAuditResult r = auditConstraint(model, id);
    out << "  " << std::left << std::setw(28) << model.describe(id) << std::setw(10)
        << model.constraint(id).type() << std::right << std::setw(11) << r.jacobian << std::setw(11)
        << r.velocity << std::setw(11) << r.jacobianDot << std::setw(11) << r.acceleration
        << verdicts.add(r, model.describe(id)) << "\n";
  }

  printFormulaJacobians(model, out);

  // The other factor of the chain rule: each parametric body's point kinematics.
  bool headed = false;
  for (std::size_t b = 0; b < model.bodyCount(); ++b) {
    const BodyId id = model.bodyAt(b);
    if (model.isParticle(id)) continue;
    if (!headed) {
      out << std::defaultfloat << "body points against central differences (worst relative error):\n";
      out << "  " << std::left << std::setw(28) << "body" << std::setw(10) << "type" << std::right
          << std::setw(11) << "J" << std::setw(11) << "dx/dt" << std::setw(11) << "Jdot" << std::setw(11)
          << "Jdot*udot" << std::setw(11) << "M, forces" << "\n"
          << std::scientific << std::setprecision(2);
      headed = true;
    }
    const DerivativeAuditResult r = auditBody(model, id);
    out << "  " << std::left << std::setw(28) << model.describe(id) << std::setw(10) << model.body(id).type()
        << std::right << std::setw(11) << r.jacobian << std::setw(11) << r.velocity << std::setw(11)
        << r.jacobianDot << std::setw(11) << r.acceleration << std::setw(11) << r.massTerms
        << verdicts.add(r, model.describe(id)) << "\n";
  }

  std::optional<Simulator> simulator;
  try {
    simulator.emplace(model, loaded->settings);
  } catch (const std::invalid_argument& e) {  // settings that do not fit the model
    err << "error: " << e.what() << "\n";
    return kBadInput;
  }
  const StepDiagnostics& d = simulator->diagnostics();
  out << "initial state: |C| = " << d.constraintError << ", |dC/dt| = " << d.velocityError
      << ", energy = " << d.totalEnergy() << " J\n";
  if (const InitialStateNotice notice = initialStateNotice(d, loaded->settings, model.size()); !notice.text.empty()) {
    out << (notice.warns ? "warning: " : "note: ") << notice.text << "\n";
  }
  if (verdicts.worstWrong > 0.0) {
    err << "error: " << verdicts.worstWrongName << " has derivatives that disagree with finite differences ("
        << verdicts.worstWrong << ")\n";
    return kCheckFailed;
  }
  if (verdicts.unaudited > 0) {
    out << "warning: cannot audit " << counted(verdicts.unaudited, "constraint or body", "constraints or bodies")
        << " (the first: " << verdicts.firstUnaudited
        << "): at these coordinates finite differences disagree with themselves as much as with the derivatives; nothing disagrees beyond that\n";
    return kSuccess;
  }
  out << "ok: all derivatives match finite differences\n";
  return kSuccess;
}

}  // namespace tinkertoy::cli
