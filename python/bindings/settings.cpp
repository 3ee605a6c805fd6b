// SimulationSettings and the structs inside it (dynamics/simulation_settings.hpp), with the
// names the scene files and the command line use: settings.formulation = "velocity",
// settings.solver.kind = "ldlt". Each enumeration is a string attribute whose setter accepts
// exactly the spellings the scene format documents and raises ValueError listing them.
#include <tinkertoy/dynamics/simulation_settings.hpp>

#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "bindings.hpp"
#include "keyword_init.hpp"

namespace tinkertoy::python {
namespace {

// An enum member as a string attribute, through the library's name and parse functions.
template <class Struct, class Enum>
void bindChoice(py::class_<Struct>& cls, const char* attribute, Enum Struct::*member, std::string_view (*name)(Enum),
                std::optional<Enum> (*parse)(std::string_view), std::initializer_list<Enum> all, const char* doc) {
  std::string choices;
  for (Enum value : all) choices += (choices.empty() ? "'" : ", '") + std::string(name(value)) + "'";
  cls.def_property(
      attribute, [member, name](const Struct& s) { return std::string(name(s.*member)); },
      [member, parse, attribute, choices](Struct& s, const std::string& text) {
        const std::optional<Enum> value = parse(text);
        if (!value) throw py::value_error(std::string(attribute) + ": '" + text + "' is not one of " + choices);
        s.*member = *value;
      },
      (std::string(doc) + " One of " + choices + ".").c_str());
}

}  // namespace

void bindSettings(py::module_& module) {
  py::class_<ErrorTolerance> tolerance(module, "ErrorTolerance", "dopri5's error tolerance per step.");
  tolerance.def(keywordInit<ErrorTolerance>())
      .def_readwrite("relative", &ErrorTolerance::relative, "rtol")
      .def_readwrite("absolute", &ErrorTolerance::absolute, "atol, in the coordinates' units");

  py::class_<SolverSettings> solver(module, "SolverSettings", "The linear solver of J W Jᵀ λ = b.");
  solver.def(keywordInit<SolverSettings>())
      .def_readwrite("tolerance", &SolverSettings::tolerance, "CG stops when ‖b − A x‖ ≤ tolerance · ‖b‖.")
      .def_readwrite("max_iterations", &SolverSettings::maxIterations, "CG iteration cap; 0 means 2 m + 100.")
      .def_readwrite("regularization", &SolverSettings::regularization,
                     "Damping ε of every solve (damped least squares where J loses rank); 0 for none.")
      .def_readwrite("reuse_iterations", &SolverSettings::reuseIterations,
                     "CG iterations the direct solve may spend on an old factorization; -1 sets it from the costs.");
  bindChoice(solver, "kind", &SolverSettings::kind, &solverName, &parseSolver,
             {SolverKind::ConjugateGradient, SolverKind::SparseLdlt, SolverKind::SequentialImpulses},
             "The solver.");
  bindChoice(solver, "factorization", &SolverSettings::factorization, &factorizationName, &parseFactorization,
             {FactorizationKind::Automatic, FactorizationKind::Simplicial, FactorizationKind::Supernodal,
              FactorizationKind::Tree},
             "The direct solve's factorization.");

  py::class_<ProjectionSettings> projection(module, "ProjectionSettings",
                                            "Position projection onto C = 0 after each step (acceleration level).");
  projection.def(keywordInit<ProjectionSettings>())
      .def_readwrite("enabled", &ProjectionSettings::enabled)
      .def_readwrite("tolerance", &ProjectionSettings::tolerance, "Target ‖C‖∞.")
      .def_readwrite("max_iterations", &ProjectionSettings::maxIterations, "Gauss–Newton iterations per step.");

  py::class_<VelocitySettings> velocity(module, "VelocitySettings", "The velocity level's settings.");
  velocity.def(keywordInit<VelocitySettings>())
      .def_readwrite("iterations", &VelocitySettings::iterations, "Sequential-impulse passes per substep.")
      .def_readwrite("substeps", &VelocitySettings::substeps)
      .def_readwrite("warm_start", &VelocitySettings::warmStart)
      .def_readwrite("baumgarte", &VelocitySettings::baumgarte, "β, the fraction of C removed per substep.")
      .def_readwrite("joint_hertz", &VelocitySettings::jointHertz, "The soft step's joint stiffness, Hz.")
      .def_readwrite("joint_damping_ratio", &VelocitySettings::jointDampingRatio);
  bindChoice(velocity, "scheme", &VelocitySettings::scheme, &velocitySchemeName, &parseVelocityScheme,
             {VelocityScheme::SymplecticEuler, VelocityScheme::Verlet}, "The time stepping.");
  bindChoice(velocity, "position_correction", &VelocitySettings::positionCorrection, &positionCorrectionName,
             &parsePositionCorrection,
             {PositionCorrection::None, PositionCorrection::Baumgarte, PositionCorrection::Projection,
              PositionCorrection::SoftStep},
             "The drift remedy.");

  py::class_<SimulationSettings> settings(module, "Settings",
                                          "How a model moves: formulation, integrator, solver and the rest "
                                          "(docs/scene-format.md, \"settings\"). Settings(dt=1/60, "
                                          "formulation=\"velocity\") sets those attributes.");
  settings.def(keywordInit<SimulationSettings>())
      .def_readwrite("dt", &SimulationSettings::dt, "Step size h, s.")
      .def_readwrite("error_tolerance", &SimulationSettings::errorTolerance)
      .def_readwrite("solver", &SimulationSettings::solver)
      .def_readwrite("ks", &SimulationSettings::ks, "Feedback on C, 1/s² (acceleration level).")
      .def_readwrite("kd", &SimulationSettings::kd, "Feedback on Ċ, 1/s (acceleration level).")
      .def_readwrite("projection", &SimulationSettings::projection)
      .def_readwrite("velocity", &SimulationSettings::velocity)
      .def_readwrite("threads", &SimulationSettings::threads, "Threads a step may use (same bits on any number).")
      .def("validate", &SimulationSettings::validate, "Raises ValueError naming the first bad setting.")
      .def("__repr__", [](const SimulationSettings& s) {
        std::ostringstream text;
        text << "Settings(dt=" << s.dt << ", formulation='" << formulationName(s.formulation) << "', integrator='"
             << integratorName(s.integrator) << "', solver='" << solverName(s.solver.kind) << "')";
        return text.str();
      });
  bindChoice(settings, "formulation", &SimulationSettings::formulation, &formulationName, &parseFormulation,
             {FormulationKind::Acceleration, FormulationKind::Velocity}, "Witkin's acceleration level or dyn4j's velocity level.");
  bindChoice(settings, "integrator", &SimulationSettings::integrator, &integratorName, &parseIntegrator,
             {IntegratorKind::ExplicitEuler, IntegratorKind::SymplecticEuler, IntegratorKind::Midpoint,
              IntegratorKind::RungeKutta4, IntegratorKind::DormandPrince5, IntegratorKind::Rattle},
             "The acceleration level's integrator.");
}

}  // namespace tinkertoy::python
