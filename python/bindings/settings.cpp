// SimulationSettings and the structs inside it (dynamics/simulation_settings.hpp), with the
// names the scene files and the command line use: settings.formulation = "velocity",
// settings.solver.kind = "ldlt". Each enumeration is a string attribute whose setter accepts
// exactly the spellings the scene format documents and raises ValueError listing them; each
// whole number takes a Python integer an int can hold, and says which setting it is when it
// cannot. validate() and the Simulator raise SettingsError (a ValueError) naming the setting
// ("settings.velocity.substeps: must be between 1 and 10000, got 1000000000"). Every struct
// pickles and copies (copy.copy, copy.deepcopy) as the dict of its attributes.
#include <tinkertoy/dynamics/simulation_settings.hpp>

#include <climits>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <sstream>
#include <string>
#include <string_view>

#include "arguments.hpp"
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

// A Python integer as decimal digits, or its size where it has more digits than Python prints.
std::string numberText(const py::int_& integer) {
  try {
    return std::string(py::str(py::handle(integer)));
  } catch (const py::error_already_set&) {
    return "a number of " + std::string(py::str(integer.attr("bit_length")())) + " bits";
  }
}

// A whole-number setting as an attribute: any Python integer (int, numpy.int64) an int holds.
// Another type is a TypeError, a number beyond an int an OverflowError, each naming the setting
// by its attribute path; whether the number is in the setting's range is validate()'s to say.
template <class Struct>
void bindWhole(py::class_<Struct>& cls, const char* attribute, int Struct::*member, Setting setting,
               const char* doc = "") {
  const std::string path = "settings." + std::string(settingSpelling(setting).python);
  cls.def_property(
      attribute, [member](const Struct& s) { return s.*member; },
      [member, setting, path](Struct& s, const py::object& value) {
        PyObject* index = PyNumber_Index(value.ptr());  // int, bool and NumPy's integers; not float, not str
        if (index == nullptr) {
          PyErr_Clear();
          throw py::type_error(path + " must be an int, not " + typeName(value));
        }
        const auto integer = py::reinterpret_steal<py::int_>(index);
        int overflow = 0;
        const long long x = PyLong_AsLongLongAndOverflow(integer.ptr(), &overflow);
        if (overflow != 0 || x < INT_MIN || x > INT_MAX) {
          const WholeRange range = wholeRange(setting);
          throw std::overflow_error(path + ": " + numberText(integer) + " does not fit in an int; the setting must be "
                                    "between " + std::to_string(range.least) + " and " + std::to_string(range.most));
        }
        s.*member = static_cast<int>(x);
      },
      doc);
}

}  // namespace

void bindSettings(py::module_& module) {
  py::class_<ErrorTolerance> tolerance(module, "ErrorTolerance", "dopri5's error tolerance per step.");
  tolerance.def(keywordInit<ErrorTolerance>())
      .def(keywordPickle<ErrorTolerance>())
      .def_readwrite("relative", &ErrorTolerance::relative, "rtol")
      .def_readwrite("absolute", &ErrorTolerance::absolute, "atol, in the coordinates' units");

  py::class_<SolverSettings> solver(module, "SolverSettings", "The linear solver of J W Jᵀ λ = b.");
  solver.def(keywordInit<SolverSettings>())
      .def(keywordPickle<SolverSettings>())
      .def_readwrite("tolerance", &SolverSettings::tolerance, "CG stops when ‖b − A x‖ ≤ tolerance · ‖b‖.")
      .def_readwrite("regularization", &SolverSettings::regularization,
                     "Damping ε of every solve (damped least squares where J loses rank); 0 for none.");
  bindWhole(solver, "max_iterations", &SolverSettings::maxIterations, Setting::MaxIterations,
            "CG iteration cap; 0 means 2 m + 100.");
  bindWhole(solver, "reuse_iterations", &SolverSettings::reuseIterations, Setting::ReuseIterations,
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
      .def(keywordPickle<ProjectionSettings>())
      .def_readwrite("enabled", &ProjectionSettings::enabled)
      .def_readwrite("tolerance", &ProjectionSettings::tolerance, "Target ‖C‖∞.");
  bindWhole(projection, "max_iterations", &ProjectionSettings::maxIterations, Setting::ProjectionIterations,
            "Gauss–Newton iterations per step.");

  py::class_<VelocitySettings> velocity(module, "VelocitySettings", "The velocity level's settings.");
  velocity.def(keywordInit<VelocitySettings>())
      .def(keywordPickle<VelocitySettings>())
      .def_readwrite("warm_start", &VelocitySettings::warmStart)
      .def_readwrite("baumgarte", &VelocitySettings::baumgarte, "β, the fraction of C removed per substep.")
      .def_readwrite("joint_hertz", &VelocitySettings::jointHertz, "The soft step's joint stiffness, Hz.")
      .def_readwrite("joint_damping_ratio", &VelocitySettings::jointDampingRatio)
      .def_readwrite("collisions", &VelocitySettings::collisions)
      .def_readwrite("friction", &VelocitySettings::friction)
      .def_readwrite("restitution", &VelocitySettings::restitution)
      .def_readwrite("contact_hertz", &VelocitySettings::contactHertz, "The soft step's contact stiffness, Hz.")
      .def_readwrite("contact_damping_ratio", &VelocitySettings::contactDampingRatio)
      .def_readwrite("sleep", &VelocitySettings::sleep,
                     "Islands of bodies at rest fall asleep until touched (with collisions; default False).")
      .def_readwrite("sleep_speed", &VelocitySettings::sleepSpeed,
                     "The fastest a body's points may move at rest, m/s.")
      .def_readwrite("sleep_time", &VelocitySettings::sleepTime, "How long an island rests before it sleeps, s.");
  bindWhole(velocity, "iterations", &VelocitySettings::iterations, Setting::Iterations,
            "Sequential-impulse passes per substep.");
  bindWhole(velocity, "substeps", &VelocitySettings::substeps, Setting::Substeps);
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
      .def(keywordPickle<SimulationSettings>())
      .def_readwrite("dt", &SimulationSettings::dt, "Step size h, s.")
      .def_readwrite("error_tolerance", &SimulationSettings::errorTolerance)
      .def_readwrite("solver", &SimulationSettings::solver)
      .def_readwrite("ks", &SimulationSettings::ks, "Feedback on C, 1/s² (acceleration level).")
      .def_readwrite("kd", &SimulationSettings::kd, "Feedback on Ċ, 1/s (acceleration level).")
      .def_readwrite("projection", &SimulationSettings::projection)
      .def_readwrite("velocity", &SimulationSettings::velocity)
      .def("validate", &SimulationSettings::validate,
           "Raises SettingsError (a ValueError) naming the first bad setting: \"settings.velocity.substeps: ...\".")
      .def("__repr__", [](const SimulationSettings& s) {
        std::ostringstream text;
        text << "Settings(dt=" << s.dt << ", formulation='" << formulationName(s.formulation) << "', integrator='"
             << integratorName(s.integrator) << "', solver='" << solverName(s.solver.kind) << "')";
        return text.str();
      });
  bindWhole(settings, "threads", &SimulationSettings::threads, Setting::Threads,
            "Threads a step may use (same bits on any number).");
  bindChoice(settings, "formulation", &SimulationSettings::formulation, &formulationName, &parseFormulation,
             {FormulationKind::Acceleration, FormulationKind::Velocity}, "Witkin's acceleration level or dyn4j's velocity level.");
  bindChoice(settings, "integrator", &SimulationSettings::integrator, &integratorName, &parseIntegrator,
             {IntegratorKind::ExplicitEuler, IntegratorKind::SymplecticEuler, IntegratorKind::Midpoint,
              IntegratorKind::RungeKutta4, IntegratorKind::DormandPrince5, IntegratorKind::Rattle},
             "The acceleration level's integrator.");
}

}  // namespace tinkertoy::python
