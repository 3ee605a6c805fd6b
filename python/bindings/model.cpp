// Scene and Model: what exists. Ids and points, shapes and curves, bodies, forces, and the
// per-body state. Every method that adds or removes a body runs as a LayoutEdit, so the NumPy
// views of the state made before it stay memory-safe (state_views.hpp); every method of Model
// and Scene holds the model's lock (model_lock.hpp). A Scene copies and pickles as the scene
// writer's JSON, parsed again.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>
#include <tinkertoy/tinkertoy.hpp>

#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "bindings.hpp"
#include "model_lock.hpp"
#include "state_views.hpp"

namespace tinkertoy::python {
namespace {

template <class Tag>
void bindId(py::module_& module, const char* name, const char* doc) {
  using IdType = Id<Tag>;
  py::class_<IdType>(module, name, doc)
      .def_readonly("slot", &IdType::slot)
      .def_readonly("generation", &IdType::generation)
      .def("__eq__", [](const IdType& a, const IdType& b) { return a == b; })
      .def("__hash__", [](const IdType& id) { return py::hash(py::make_tuple(id.slot, id.generation)); })
      .def("__repr__", [name](const IdType& id) {
        return std::string(name) + "(slot=" + std::to_string(id.slot) + ", generation=" +
               std::to_string(id.generation) + ")";
      })
      .def(py::pickle([](const IdType& id) { return py::make_tuple(id.slot, id.generation); },
                      [name](const py::tuple& t) {
                        if (t.size() != 2) throw py::value_error(std::string(name) + ".__setstate__: state must be (slot, generation)");
                        const char* expected = "an int from 0 to 2**32 - 1";
                        return IdType{argument<std::uint32_t>(t[0], name, "slot", expected),
                                      argument<std::uint32_t>(t[1], name, "generation", expected)};
                      }));
}

RigidBody::Motion parseMotion(const std::string& motion) {
  if (motion == "dynamic") return RigidBody::Motion::Dynamic;
  if (motion == "static") return RigidBody::Motion::Static;
  if (motion == "kinematic") return RigidBody::Motion::Kinematic;
  throw py::value_error("motion: '" + motion + "' is not one of 'dynamic', 'static', 'kinematic'");
}

Eigen::VectorXd orZero(const std::optional<Eigen::VectorXd>& x, Eigen::Index size) {
  return x ? *x : Eigen::VectorXd::Zero(size);
}

// The scene writer's JSON of `scene`, for `what` (a copy, a pickle); a model the format cannot
// express is a ValueError that says what the copy needs.
std::string writtenScene(const Scene& scene, const char* what) {
  try {
    return writeScene(scene);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(std::string("Scene: a ") + what + " goes through the scene writer, which cannot write this "
                          "model: " + e.what());
  }
}

// A scene's duration and period as the scene format takes them (docs/scene-format.md): a duration
// finite and ≥ 0, a period finite and > 0 (or None); anything else is a ValueError naming it.
double checkedDuration(double duration) {
  if (!std::isfinite(duration) || duration < 0.0) {
    throw py::value_error("Scene.duration: must be a finite number of seconds ≥ 0, got " + shortNumber(duration));
  }
  return duration;
}

std::optional<double> checkedPeriod(std::optional<double> period) {
  if (period && (!std::isfinite(*period) || *period <= 0.0)) {
    throw py::value_error("Scene.period: must be a finite number of seconds > 0 (or None), got " + shortNumber(*period));
  }
  return period;
}

Scene copyScene(const Scene& scene) { return parseScene(writtenScene(scene, "copy"), "<copied scene>"); }

void bindPoints(py::module_& module) {
  bindId<BodyTag>(module, "BodyId", "A body's handle; stays valid while the body exists.");
  bindId<ForceTag>(module, "ForceId", "A force's handle.");
  bindId<ConstraintTag>(module, "ConstraintId", "A constraint's handle.");

  py::class_<BodyPoint>(module, "BodyPoint",
                        "A point of a body: a particle's position, a bead, a chain's i-th mass (index), or a "
                        "point fixed in a rigid body at `local` in its frame. A BodyId stands for its point 0.")
      .def(py::init<BodyId, int>(), py::arg("body"), py::arg("index") = 0)
      .def(py::init([](BodyId body, const Eigen::Vector2d& local) { return BodyPoint(body, local); }),
           py::arg("body"), py::arg("local"))
      .def_readonly("body", &BodyPoint::body)
      .def_property_readonly("index", [](const BodyPoint& p) { return p.site.index; })
      .def_property_readonly("local", [](const BodyPoint& p) { return Eigen::Vector2d(p.site.local); })
      .def("__eq__", [](const BodyPoint& a, const BodyPoint& b) { return a == b; })
      .def("__repr__", [](const BodyPoint& p) {
        std::ostringstream text;
        text << "BodyPoint(body=BodyId(slot=" << p.body.slot << ", generation=" << p.body.generation << "), index="
             << p.site.index << ", local=(" << p.site.local.x() << ", " << p.site.local.y() << "))";
        return text.str();
      });
  py::implicitly_convertible<BodyId, BodyPoint>();

  py::class_<Shape>(module, "Shape", "The outline of a 2D rigid body, for its inertia and for drawing.")
      .def_static("circle", &Shape::circle, py::arg("radius"))
      .def_static("box", &Shape::box, py::arg("width"), py::arg("height"))
      .def_static("polygon", &Shape::polygon, py::arg("vertices"), "Convex, centered on its centroid.")
      .def_static("capsule", &Shape::capsule, py::arg("length"), py::arg("radius"),
                  "A stadium: the segment from (-length/2, 0) to (length/2, 0) rounded by radius.")
      .def_static("segment", &Shape::segment, py::arg("a"), py::arg("b"),
                  "Terrain: the segment from a to b, for a static or kinematic body.")
      .def_static("chain", &Shape::chain, py::arg("points"), py::arg("loop") = false,
                  "Terrain: the polyline through the points (closed with loop), for a static or kinematic body.")
      .def_property_readonly("type", [](const Shape& s) { return std::string(s.name()); })
      .def("inertia", &Shape::inertia, py::arg("mass"), "About the centroid for a uniform body of this mass, kg·m².");

  py::class_<Collider>(module, "Collider",
                      "How a body collides: its own friction and restitution (None: the settings'), and Box2D's "
                      "filter (category and mask bits, group).")
      .def(py::init([](std::optional<double> friction, std::optional<double> restitution, std::uint32_t category,
                       std::uint32_t mask, std::int32_t group) {
             Collider c{.friction = friction, .restitution = restitution, .category = category, .mask = mask, .group = group};
             c.validate();
             return c;
           }),
           py::kw_only(), py::arg("friction") = py::none(), py::arg("restitution") = py::none(),
           py::arg("category") = Collider{}.category, py::arg("mask") = Collider{}.mask, py::arg("group") = 0)
      .def_readwrite("friction", &Collider::friction)
      .def_readwrite("restitution", &Collider::restitution)
      .def_readwrite("category", &Collider::category)
      .def_readwrite("mask", &Collider::mask)
      .def_readwrite("group", &Collider::group)
      .def("__eq__", [](const Collider& a, const Collider& b) { return a == b; })
      .def("__repr__", [](const Collider& c) {
        const auto optional = [](const std::optional<double>& x) { return x ? std::to_string(*x) : std::string("None"); };
        return "Collider(friction=" + optional(c.friction) + ", restitution=" + optional(c.restitution) +
               ", category=" + std::to_string(c.category) + ", mask=" + std::to_string(c.mask) +
               ", group=" + std::to_string(c.group) + ")";
      });

  py::class_<Curve, std::shared_ptr<Curve>>(module, "Curve", "A parametric wire x = c(u) for beads and driven points.")
      .def_property_readonly("type", [](const Curve& c) { return std::string(c.type()); })
      .def_property_readonly("dimension", &Curve::dimension)
      .def(
          "evaluate",
          [](const Curve& c, double u) {
            const CurvePoint p = c.evaluate(u);
            return py::make_tuple(p.position, p.tangent, p.curvature);
          },
          py::arg("u"), "(c(u), c'(u), c''(u)), each [3].");
  py::class_<LineCurve, Curve, std::shared_ptr<LineCurve>>(module, "LineCurve")
      .def(py::init<Eigen::VectorXd, Eigen::VectorXd>(), py::arg("origin"), py::arg("direction"));
  py::class_<EllipseCurve, Curve, std::shared_ptr<EllipseCurve>>(module, "EllipseCurve")
      .def(py::init<Eigen::VectorXd, double, double, Eigen::Vector3d>(), py::arg("center"), py::arg("a"), py::arg("b"),
           py::arg("normal") = Eigen::Vector3d::UnitZ());
  py::class_<CircleCurve, EllipseCurve, std::shared_ptr<CircleCurve>>(module, "CircleCurve")
      .def(py::init<Eigen::VectorXd, double, Eigen::Vector3d>(), py::arg("center"), py::arg("radius"),
           py::arg("normal") = Eigen::Vector3d::UnitZ());
  py::class_<HelixCurve, Curve, std::shared_ptr<HelixCurve>>(module, "HelixCurve")
      .def(py::init<Eigen::VectorXd, double, double, Eigen::Vector3d>(), py::arg("center"), py::arg("radius"),
           py::arg("pitch"), py::arg("axis") = Eigen::Vector3d::UnitY());
  py::class_<SplineCurve, Curve, std::shared_ptr<SplineCurve>>(module, "SplineCurve")
      .def(py::init<std::vector<Eigen::VectorXd>, bool>(), py::arg("points"), py::arg("closed") = false);
  py::class_<FormulaCurve, Curve, std::shared_ptr<FormulaCurve>>(module, "FormulaCurve")
      .def(py::init([](std::vector<std::string> coordinates, FormulaParameters parameters, double period) {
             auto curve = std::make_shared<FormulaCurve>(std::move(coordinates), std::move(parameters), period);
             curve->validate();
             return curve;
           }),
           py::arg("coordinates"), py::arg("parameters") = FormulaParameters{}, py::arg("period") = 0.0,
           "x, y (and z) as formulas of u; its tangent and curvature by automatic differentiation.");
}

void bindBodies(LockedClass<Model>& model) {
  model
      .def(
          "add_particle",
          [](Model& m, double mass, const Eigen::VectorXd& position, const std::optional<Eigen::VectorXd>& velocity,
             double radius, const Collider& collider, std::string name) {
            return editLayout(m, [&] {
              if (radius == 0.0 && collider == Collider{}) {
                return m.addParticle(mass, position, velocity.value_or(Eigen::VectorXd()), newName(m, name, "body"));
              }
              const ParticleSettings settings{.dimension = m.dimension(), .mass = mass, .radius = radius, .collider = collider};
              return m.addBody(std::make_unique<Particle>(settings), position, velocity.value_or(Eigen::VectorXd()),
                               newName(m, name, "body"));
            });
          },
          py::arg("mass"), py::arg("position"), py::arg("velocity") = py::none(), py::arg("radius") = 0.0,
          py::arg("collider") = Collider{}, py::arg("name") = "",
          "A particle: mass > 0, position [dimension], velocity (default zero); a 2D one with a radius > 0 "
          "collides as a disc (settings.velocity.collisions), with its collider's surface and filter.")
      .def(
          "add_rigid_body",
          [](Model& m, double mass, const Shape& shape, const Eigen::Vector2d& position, double angle,
             const Eigen::Vector2d& velocity, double angularVelocity, std::optional<double> inertia,
             const std::string& motion, const Collider& collider, std::string name) {
            auto body = std::make_unique<RigidBody>(RigidBodySettings{
                .mass = mass, .inertia = inertia, .shape = shape, .motion = parseMotion(motion), .collider = collider});
            return editLayout(m, [&] {
              return m.addBody(std::move(body), Eigen::Vector3d(position.x(), position.y(), angle),
                               Eigen::Vector3d(velocity.x(), velocity.y(), angularVelocity), newName(m, name, "body"));
            });
          },
          py::arg("mass"), py::arg("shape"), py::arg("position"), py::arg("angle") = 0.0,
          py::arg("velocity") = Eigen::Vector2d::Zero(), py::arg("angular_velocity") = 0.0,
          py::arg("inertia") = py::none(), py::arg("motion") = "dynamic", py::arg("collider") = Collider{},
          py::arg("name") = "",
          "A 2D rigid body with coordinates (x, y, θ). inertia defaults to the shape's for a uniform body; "
          "motion is 'dynamic', 'static' or 'kinematic'; collider its surface and filter for collisions.")
      .def("collider", &Model::collider, py::arg("body"),
           "How the body collides: a Collider for a rigid body or particle, None for a kind that never collides.")
      .def("set_collider", &Model::setCollider, py::arg("body"), py::arg("collider"),
           "Its friction, restitution and filter; an edit, not a change of structure.")
      .def(
          "add_bead",
          [](Model& m, const std::shared_ptr<Curve>& curve, double mass, double u, double uDot, std::string name) {
            return editLayout(m, [&] {
              return m.addBody(std::make_unique<Bead>(curve, mass), Eigen::VectorXd::Constant(1, u),
                               Eigen::VectorXd::Constant(1, uDot), newName(m, name, "body"));
            });
          },
          py::arg("curve"), py::arg("mass"), py::arg("u"), py::arg("u_dot") = 0.0, py::arg("name") = "",
          "A bead on a wire, its coordinate the curve parameter u.")
      .def(
          "add_chain",
          [](Model& m, const Eigen::VectorXd& pivot, std::vector<double> lengths, std::vector<double> masses,
             const Eigen::VectorXd& angles, const std::optional<Eigen::VectorXd>& rates, std::string name) {
            return editLayout(m, [&] {
              return m.addBody(std::make_unique<Chain>(pivot, std::move(lengths), std::move(masses)), angles,
                               orZero(rates, angles.size()), newName(m, name, "body"));
            });
          },
          py::arg("pivot"), py::arg("lengths"), py::arg("masses"), py::arg("angles"),
          py::arg("angular_velocities") = py::none(), py::arg("name") = "",
          "A planar pendulum chain in reduced coordinates: absolute link angles from the downward vertical.")
      .def(
          "remove_body",
          [](Model& m, BodyId id) {
            editLayout(m, [&] {
              m.removeBody(id);
              return 0;
            });
          },
          py::arg("body"), "Removes the body and every force and constraint that names one of its points.")
      .def_property_readonly("bodies", [](const Model& m) {
        std::vector<BodyId> ids;
        for (std::size_t i = 0; i < m.bodyCount(); ++i) ids.push_back(m.bodyAt(i));
        return ids;
      }, "The bodies' ids in the order of their slices of q and v.")
      .def("contains", py::overload_cast<BodyId>(&Model::contains, py::const_), py::arg("body"))
      .def("find_body", &Model::findBody, py::arg("name"), "The first body of that name, or None.")
      .def("body_name", py::overload_cast<BodyId>(&Model::name, py::const_), py::arg("body"))
      .def("body_type", [](const Model& m, BodyId id) { return std::string(m.body(id).type()); }, py::arg("body"))
      .def("describe", py::overload_cast<BodyId>(&Model::describe, py::const_), py::arg("body"))
      .def("offset", &Model::offsetOf, py::arg("body"), "Where the body's slice of q and v starts.")
      .def("coordinate_count", [](const Model& m, BodyId id) { return m.body(id).coordinateCount(); }, py::arg("body"))
      .def("mass", &Model::mass, py::arg("body"), "The body's total mass, kg.")
      .def("coordinates", &Model::coordinates, py::arg("body"), "A copy of the body's q_b.")
      .def("velocities", &Model::velocities, py::arg("body"), "A copy of the body's v_b.")
      .def("set_coordinates", &Model::setCoordinates, py::arg("body"), py::arg("coordinates"))
      .def("set_velocities", &Model::setVelocities, py::arg("body"), py::arg("velocities"))
      .def("position", &Model::position, py::arg("point"), "A point's world position [dimension].")
      .def("velocity", &Model::velocity, py::arg("point"), "A point's world velocity [dimension].")
      .def("set_position", &Model::setPosition, py::arg("particle"), py::arg("position"))
      .def("set_velocity", &Model::setVelocity, py::arg("particle"), py::arg("velocity"))
      .def("set_mass", &Model::setMass, py::arg("particle"), py::arg("mass"));
}

void bindForces(LockedClass<Model>& model) {
  auto add = [](Model& m, std::unique_ptr<Force> force) { return m.addForce(std::move(force)); };
  model
      .def(
          "add_gravity", [add](Model& m, const Eigen::VectorXd& g) { return add(m, std::make_unique<Gravity>(g)); },
          py::arg("g"), "Uniform gravity, m/s² [dimension].")
      .def(
          "add_spring",
          [add](Model& m, const BodyPoint& a, const std::optional<BodyPoint>& b,
                const std::optional<Eigen::VectorXd>& anchor, double stiffness, double damping, double restLength) {
            const SpringParameters s{.stiffness = stiffness, .damping = damping, .rest_length = restLength};
            if (b.has_value() == anchor.has_value()) throw py::value_error("add_spring: give exactly one of b and anchor");
            return b ? add(m, std::make_unique<Spring>(a, *b, s)) : add(m, std::make_unique<Spring>(a, *anchor, s));
          },
          py::arg("a"), py::arg("b") = py::none(), py::kw_only(), py::arg("anchor") = py::none(),
          py::arg("stiffness"), py::arg("damping") = 0.0, py::arg("rest_length") = 0.0,
          "A damped spring from point a to point b or to a fixed world anchor.")
      .def(
          "add_drag", [add](Model& m, double c) { return add(m, std::make_unique<Drag>(c)); }, py::arg("coefficient"),
          "Viscous drag −c ẋ on every point, N·s/m.")
      .def(
          "add_constant_force",
          [add](Model& m, const BodyPoint& p, const Eigen::VectorXd& f) {
            return add(m, std::make_unique<ConstantForce>(p, f));
          },
          py::arg("point"), py::arg("force"))
      .def(
          "add_torque", [add](Model& m, BodyId body, double tau) { return add(m, std::make_unique<Torque>(body, tau)); },
          py::arg("body"), py::arg("torque"), "A constant torque on a rigid body, N·m.")
      .def(
          "add_formula_potential",
          [add](Model& m, const NamedPoints& points, const std::string& V, const FormulaParameters& parameters) {
            return add(m, std::make_unique<FormulaPotential>(
                              FormulaPotentialSettings{.points = points, .V = V, .parameters = parameters}));
          },
          py::arg("points"), py::arg("V"), py::kw_only(), py::arg("parameters") = FormulaParameters{},
          "A potential energy written as a formula over named points (docs/formula.md): the force is -grad V, "
          "derived by automatic differentiation, and the energy diagnostics count V.")
      .def("remove_force", &Model::removeForce, py::arg("force"))
      .def_property_readonly("forces", [](const Model& m) {
        std::vector<ForceId> ids;
        for (std::size_t i = 0; i < m.forceCount(); ++i) ids.push_back(m.forceAt(i));
        return ids;
      })
      .def("force_type", [](const Model& m, ForceId id) { return std::string(m.force(id).type()); }, py::arg("force"));
}

}  // namespace

void bindModel(py::module_& module) {
  bindStateViews(module);
  bindPoints(module);

  LockedClass<Model> model(module, "Model",
                           "What exists: bodies, forces and constraints, and the state q, v. Owned by a Scene "
                           "(scene.model); edit it between steps (a call while another thread steps it waits).");
  model.def_property_readonly("dimension", &Model::dimension)
      .def_property("time", &Model::time, &Model::setTime, "s")
      .def_property_readonly("q", [](const Model& m) { return Eigen::VectorXd(m.q()); },
                             "A copy of the coordinates; Simulator.q is the writable view.")
      .def_property_readonly("v", [](const Model& m) { return Eigen::VectorXd(m.v()); }, "A copy of the velocities.")
      .def("size", &Model::size, "The diagonal of the bounding box of all points, at least 1 m.");
  bindBodies(model);
  bindForces(model);

  LockedClass<Scene>(module, "Scene",
                     "A model with its settings, duration and name: what a scene file holds. Scene(dimension=2) "
                     "is an empty one to build in code; load_scene and parse_scene read files. copy() (and "
                     "copy.copy, copy.deepcopy, pickle) gives an independent scene through the scene writer.")
      .def(py::init([](int dimension, const std::optional<SimulationSettings>& settings, double duration,
                       std::string name, std::string description) {
             return Scene{.name = std::move(name), .model = Model(dimension),
                          .settings = settings.value_or(SimulationSettings{}), .duration = checkedDuration(duration),
                          .description = std::move(description)};
           }),
           py::arg("dimension") = 2, py::arg("settings") = py::none(), py::arg("duration") = 10.0,
           py::arg("name") = "", py::arg("description") = "")
      .def_property_readonly("model", [](Scene& s) -> Model& { return s.model; }, py::return_value_policy::reference_internal)
      .def_readwrite("settings", &Scene::settings)
      .def_property(
          "duration", [](const Scene& s) { return s.duration; },
          [](Scene& s, double duration) { s.duration = checkedDuration(duration); },
          "How long `tinkertoy run` and sweeps run it, s: finite and ≥ 0.")
      .def_readwrite("name", &Scene::name)
      .def_readwrite("description", &Scene::description)
      .def_property(
          "period", [](const Scene& s) { return s.period; },
          [](Scene& s, std::optional<double> period) { s.period = checkedPeriod(period); },
          "The time after which the motion repeats, s: finite and > 0, or None.")
      .def("write", &writeScene, "The scene as scene JSON, with the model's current state as its initial state.")
      .def("save", &saveScene, py::arg("path"))
      .def("copy", &copyScene,
           "An independent scene: this one written (scene JSON) and parsed again. Its state is this one's "
           "current state and its clock starts at 0; ids are those of the scene as written, the same as "
           "this one's unless bodies were removed.")
      .def("__copy__", &copyScene)
      .def("__deepcopy__", [](const Scene& s, const py::handle& /*memo*/) { return copyScene(s); }, py::arg("memo"))
      .def_pickle([](const Scene& s) { return writtenScene(s, "pickle"); },
                  [](const std::string& json) { return parseScene(json, "<pickled scene>"); });

  module.def(
      "load_scene", [](const std::filesystem::path& path) { return loadScene(path); }, py::arg("path"),
             "Reads a scene file (docs/scene-format.md). Raises SceneError with the JSON path of what is wrong.");
  module.def(
      "parse_scene", [](std::string_view json, std::string_view source) { return parseScene(json, source); },
      py::arg("json"), py::arg("source") = "<string>", "Parses scene JSON; raises SceneError.");
}

}  // namespace tinkertoy::python
