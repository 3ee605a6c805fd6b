#include "bench_models.hpp"

#include <memory>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/revolute_joint.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/model/rigid_body.hpp"

namespace tinkertoy::bench {

namespace {

Eigen::VectorXd point(const Vector3& x, int dimension) {
  Eigen::VectorXd p(dimension);
  p.head<2>() << x.x, x.y;
  if (dimension == 3) p[2] = x.z;
  return p;
}

}  // namespace

SimulationSettings velocityLevelSettings(const Scenario& scenario) {
  SimulationSettings s{.dt = scenario.dt, .formulation = FormulationKind::Velocity};
  s.velocity.substeps = scenario.substeps;
  if (scenario.collides()) {
    s.velocity.collisions = true;
    s.velocity.friction = scenario.friction;
    s.velocity.restitution = scenario.restitution;
  }
  return s;
}

SimulationSettings softStepSettings(const Scenario& scenario, int threads) {
  SimulationSettings s = velocityLevelSettings(scenario);
  s.solver.kind = SolverKind::SequentialImpulses;
  s.velocity.iterations = 1;
  s.velocity.positionCorrection = PositionCorrection::SoftStep;
  s.threads = threads;
  return s;
}

bool hasSoftStep(const Scenario& scenario) {
  return scenario.kind == ScenarioKind::JointGrid || scenario.collides();
}

SimulationSettings exactModeSettings(const Scenario& scenario, int threads) {
  SimulationSettings s = velocityLevelSettings(scenario);
  s.velocity.substeps = 1;
  s.solver.kind = SolverKind::SparseLdlt;
  s.threads = threads;
  // joint_grid has more pin rows than degrees of freedom
  if (scenario.kind == ScenarioKind::JointGrid) s.solver.regularization = 1e-9;
  s.velocity.positionCorrection = PositionCorrection::Projection;
  return s;
}

Model tinkertoyModel(const Scenario& s) {
  Model model(s.dimension);
  model.addForce(std::make_unique<Gravity>(point(s.gravity, s.dimension)));
  std::vector<BodyId> bodies;
  for (const Scenario::Particle& p : s.particles) bodies.push_back(model.addParticle(p.mass, point(p.position, s.dimension)));
  for (const Scenario::Rod& rod : s.rods) {
    const BodyId a = bodies[static_cast<std::size_t>(rod.a)];
    if (rod.b == Scenario::kPivot) {
      model.addConstraint(std::make_unique<DistanceConstraint>(a, point(s.pivot, s.dimension), rod.length));
    } else {
      model.addConstraint(std::make_unique<DistanceConstraint>(a, bodies[static_cast<std::size_t>(rod.b)], rod.length));
    }
  }
  for (std::size_t i = 0; i < s.particles.size(); ++i) {
    if (!s.particles[i].nailed) continue;
    model.addConstraint(std::make_unique<FixedPointConstraint>(bodies[i], point(s.particles[i].position, s.dimension)));
  }
  for (const Scenario::Box& b : s.boxes) {
    const auto motion = b.isStatic ? RigidBody::Motion::Static : RigidBody::Motion::Dynamic;
    bodies.push_back(model.addBody(
        std::make_unique<RigidBody>(b.mass, b.inertia, Shape::box(2.0 * b.halfWidth, 2.0 * b.halfHeight), motion),
        Eigen::Vector3d(b.position.x, b.position.y, 0.0)));
  }
  for (const Scenario::Disc& d : s.discs) {
    const auto motion = d.isStatic ? RigidBody::Motion::Static : RigidBody::Motion::Dynamic;
    bodies.push_back(model.addBody(std::make_unique<RigidBody>(d.mass, d.inertia, Shape::circle(d.radius), motion),
                                   Eigen::Vector3d(d.position.x, d.position.y, 0.0)));
  }
  if (s.container) {  // a kinematic body after the scenario's, its walls a closed chain
    const double h = s.container->halfSize;
    const Shape walls = Shape::chain({{-h, -h}, {h, -h}, {h, h}, {-h, h}}, true);
    const BodyId box = model.addBody(std::make_unique<RigidBody>(1.0, 1.0, walls, RigidBody::Motion::Kinematic),
                                     Eigen::Vector3d(s.container->center.x, s.container->center.y, 0.0));
    model.setVelocities(box, Eigen::Vector3d(0.0, 0.0, s.container->angularVelocity));
  }
  for (const Scenario::Pin& pin : s.pins) {
    const BodyPoint a{bodies[static_cast<std::size_t>(pin.a)], Eigen::Vector2d(pin.localA.x, pin.localA.y)};
    const BodyPoint b{bodies[static_cast<std::size_t>(pin.b)], Eigen::Vector2d(pin.localB.x, pin.localB.y)};
    model.addConstraint(std::make_unique<RevoluteJoint>(JointConnection{.a = a, .b = b}));
  }
  return model;
}

StateConstraintMatrix::StateConstraintMatrix(const Model& model, double regularization) {
  system_.build(model);
  system_.evaluate(model.state(), ConstraintSystem::Evaluation::WithoutJacobianDot);
  inverseMass_.build(model);
  inverseMass_.update(model, model.q());
  ConstraintMatrix(system_.jacobian(), inverseMass_.matrix()).diagonal(shift_);
  shift_ *= regularization;
  matrix_ = std::make_unique<ConstraintMatrix>(system_.jacobian(), inverseMass_.matrix(), &shift_);
}

void readState(const Model& model, std::size_t count, std::vector<BodyState>& out) {
  out.resize(count);
  const int d = model.dimension();
  const Eigen::VectorXd& q = model.q();
  const Eigen::VectorXd& v = model.v();
  for (std::size_t i = 0; i < count; ++i) {
    const auto at = static_cast<Eigen::Index>(model.offsetOf(model.bodyAt(i)));
    BodyState& s = out[i];
    s.position = {q[at], q[at + 1], d == 3 && !model.body(model.bodyAt(i)).hasFrame() ? q[at + 2] : 0.0};
    s.velocity = {v[at], v[at + 1], d == 3 && !model.body(model.bodyAt(i)).hasFrame() ? v[at + 2] : 0.0};
    if (model.body(model.bodyAt(i)).hasFrame()) {
      s.angle = q[at + 2];
      s.angularVelocity = v[at + 2];
    }
  }
}

}  // namespace tinkertoy::bench
