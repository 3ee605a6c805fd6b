// ContactSolver: sequential impulses for contacts (seed 004's clamped accumulated impulses, as
// Box2D and Chipmunk solve contacts), on the velocities of a model's rigid bodies.
//
// Each manifold point (dynamics/contact_finder.hpp) between bodies a and b, with normal n from a
// to b, tangent t = (n_y, −n_x), and arms r_a, r_b from the bodies' centers to the point, gives two
// rows on the relative velocity of the point,
//
//   v_rel = (v_b + ω_b × r_b) − (v_a + ω_a × r_a),   v_n = n · v_rel,   v_t = t · v_rel,
//
// with the effective masses k = m_a⁻¹ + m_b⁻¹ + I_a⁻¹ (r_a × d)² + I_b⁻¹ (r_b × d)² for d = n, t.
//
//   normal    λ_n ≥ 0 (a push, never a pull), toward v_n = target:
//               s > 0 (a gap): target −s/h, so that the gap may close within the substep but
//                 no further (a speculative contact: no tunnelling at ordinary speeds);
//               s ≤ 0: target β max(−s − slop, 0)/h (Baumgarte: out of a penetration deeper than
//                 the slop, by the fraction β per substep).
//   friction  |λ_t| ≤ μ λ_n (Coulomb's cone in 2D), toward v_t = 0.
//
// Each pass updates a point's friction then its normal row, the increment δ = −(v − target)/k
// added to the accumulated impulse and the sum clamped to its bounds (not the increment: so a
// pass may take back what an earlier one gave too much). Restitution comes after the passes
// (restitute): a point that closed faster than the threshold before the solve, v_n⁰ < −v_min,
// and that pushes, is driven toward v_n = −e v_n⁰.
//
// Warm start: a point keeps its impulses from the previous prepare when the same pair of bodies
// touches by the same features (the manifold point's id); they are applied to the velocities at
// once, and the passes correct them.
//
//   solver.build(model);
//   solver.prepare(finder.find(state, speculative), state, v, h, material);
//   for (int k = 0; k < iterations; ++k) solver.solve(v);
//   solver.restitute(v);
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tinkertoy/archive/state_archive.hpp"
#include "tinkertoy/dynamics/contact_finder.hpp"
#include "tinkertoy/dynamics/contact_report.hpp"

namespace tinkertoy {

// What the contacts are made of, for every pair for now.
struct ContactMaterial {
  double friction = 0.6;               // μ ≥ 0
  double restitution = 0.0;            // e in [0, 1]
  double restitutionThreshold = 1.0;   // m/s: slower approaches do not bounce
  double baumgarte = 0.2;              // β: the fraction of a penetration removed per substep
  double slop = 0.005;                 // m: a penetration left alone, so resting contacts stay closed
};

class ContactSolver {
 public:
  // Each body's inverse mass and inverse inertia (0 for a driven body) and where its (x, y, θ)
  // sit in v. Call again when the model's structure changes.
  void build(const Model& model);
  // The rows of `contacts` at `state` for a substep of h, warm-started from the previous prepare
  // (its impulses applied to v).
  void prepare(std::span<const BodyContact> contacts, const StateView& state, Eigen::VectorXd& v, double h,
               const ContactMaterial& material);
  // One pass over the points. Without `bias` (the soft step's relax passes) a penetration is not
  // pushed out: its target is 0, a gap's stays −s/h.
  void solve(Eigen::VectorXd& v, bool bias = true);
  // The bounce of the points that closed fast, after the passes.
  void restitute(Eigen::VectorXd& v);
  // The work the accumulated impulses did in taking the velocities from v0 to v1, J: each point's
  // impulse times its relative velocity's mean, (λ_n n + λ_t t) · (v_rel(v0) + v_rel(v1)) / 2,
  // exact for the kinetic energy they changed (as the joints' rows are booked).
  [[nodiscard]] double work(const Eigen::VectorXd& v0, const Eigen::VectorXd& v1) const;

  struct PointImpulse {
    double normal = 0.0, tangent = 0.0;  // N·s
  };
  // The accumulated impulses, by point in the order of prepare's contacts and their points.
  [[nodiscard]] std::vector<PointImpulse> impulses() const;
  [[nodiscard]] std::size_t pointCount() const { return points_.size(); }
  // The points as the last prepare found them, with their impulses now, the bodies named by id.
  [[nodiscard]] std::vector<ContactReport> reports(const Model& model) const;
  // The deepest penetration among the points prepared, −min(s, 0), m.
  [[nodiscard]] double deepestPenetration() const { return deepest_; }
  // The points' keys and impulses, all the next prepare's warm start needs, in either direction.
  void serialize(StateArchive& archive);
  // The largest speed of a point of a shape (|v| + |ω| times the shape's reach), for the
  // speculative distance: what two bodies can close within a step is at most twice it times h.
  [[nodiscard]] double fastestPoint(const Eigen::VectorXd& v) const;

 private:
  struct BodyMass {
    Eigen::Index offset = 0;
    double inverseMass = 0.0, inverseInertia = 0.0;
    double reach = 0.0;  // the farthest point of its shape from its center, m (0: no shape)
  };
  struct Point {
    std::size_t a = 0, b = 0;  // dense body indices
    std::uint32_t id = 0;
    Eigen::Vector2d normal, rA, rB;
    Eigen::Vector2d position = Eigen::Vector2d::Zero();  // world, at prepare
    double separation = 0.0;
    double normalMass = 0.0, tangentMass = 0.0;  // 1/k
    double target = 0.0;                         // the normal row's target velocity
    double relaxedTarget = 0.0;                  // and without the push out of a penetration
    double approach = 0.0;                       // v_n before the solve
    double friction = 0.0, restitution = 0.0, threshold = 0.0;
    double normalImpulse = 0.0, tangentImpulse = 0.0;
  };
  // v_rel at the point.
  [[nodiscard]] Eigen::Vector2d relativeVelocity(const Point& p, const Eigen::VectorXd& v) const;
  // v_a −= m_a⁻¹ P, ω_a −= I_a⁻¹ r_a × P, and the opposite on b.
  void apply(const Point& p, const Eigen::Vector2d& impulse, Eigen::VectorXd& v) const;
  // The normal row's update toward `target`, accumulated and clamped at 0.
  void pushToward(Point& p, double target, Eigen::VectorXd& v) const;

  std::vector<BodyMass> bodies_;
  std::vector<Point> points_, previous_;
  double deepest_ = 0.0;
};

}  // namespace tinkertoy
