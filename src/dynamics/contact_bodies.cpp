// ContactSolver's view of the bodies: their masses, where they sit in v, and their surfaces
// (build, refresh), and what each point takes of its two bodies (weigh).
#include <variant>

#include "tinkertoy/dynamics/contact_solver.hpp"

namespace tinkertoy {

namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

// 1/k along d for a point at arms rA, rB of bodies a and b (0 when neither answers).
double effectiveMass(const ContactSolver::BodyMass& a, const ContactSolver::BodyMass& b, const Eigen::Vector2d& rA,
                     const Eigen::Vector2d& rB, const Eigen::Vector2d& d) {
  const double ra = cross(rA, d), rb = cross(rB, d);
  const double sum = a.inverseMass + b.inverseMass + a.inverseInertia * ra * ra + b.inverseInertia * rb * rb;
  return sum > 0.0 ? 1.0 / sum : 0.0;
}

}  // namespace

void ContactSolver::build(const Model& model, const ContactMaterial& material) {
  material_ = material;
  refresh(model);
  points_.clear();
  previous_.clear();
  forgetLayout();
  packedAhead_ = false;
  startsBackward_ = true;  // the first prepare's passes start forward
  // Room for two points in each of a pile's contacts (a few per body), kept from step to step.
  points_.reserve(8 * bodies_.size());
  previous_.reserve(8 * bodies_.size());
  touches_.reserve(4 * bodies_.size());
  // (Each colour starts a bundle: up to one more than the manifolds fill, a colour.)
  colourBundles_.reserve(ConstraintColouring::kMostColours + 1);
  bundles_.reserve(4 * bodies_.size() / kLanes + colourBundles_.capacity());
  blockWork_.reserve(4 * bodies_.size() / kWorkBlock + 1);
  velocityCount_ = static_cast<std::size_t>(model.v().size());
  colouring_.reserve(4 * bodies_.size(), velocityCount_);
}

void ContactSolver::refresh(const Model& model) {
  carriable_ = false;  // a mass or a surface changed: the packed manifolds are stale
  bodies_.assign(model.bodyCount(), BodyMass{});
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    const Body& body = model.body(id);
    BodyMass& b = bodies_[i];
    b.offset = static_cast<Eigen::Index>(model.offsetOf(id));
    const auto surface = [&](const Collider& c) {
      b.friction = c.friction.value_or(material_.friction);
      b.restitution = c.restitution.value_or(material_.restitution);
    };
    const BodySettings settings = body.settings();
    if (const auto* rigid = std::get_if<RigidBodySettings>(&settings)) {
      surface(rigid->collider);
      b.turns = true;
      if (body.isDriven()) continue;  // a driven one answers nothing
      b.inverseMass = 1.0 / rigid->mass;
      b.inverseInertia = 1.0 / rigid->inertia.value_or(rigid->shape.inertia(rigid->mass));
    } else if (const auto* particle = std::get_if<ParticleSettings>(&settings); particle && particle->radius > 0.0) {
      surface(particle->collider);
      b.inverseMass = 1.0 / particle->mass;
    }
  }
}

void ContactSolver::weigh(Point& p) const {
  const BodyMass &a = bodies_[p.a], &b = bodies_[p.b];
  p.normalMass = effectiveMass(a, b, p.rA, p.rB, p.normal);
  p.tangentMass = effectiveMass(a, b, p.rA, p.rB, Eigen::Vector2d(p.normal.y(), -p.normal.x()));
  p.friction = mixedFriction(a.friction, b.friction);
  p.restitution = mixedRestitution(a.restitution, b.restitution);
  p.threshold = material_.restitutionThreshold;
}

}  // namespace tinkertoy
