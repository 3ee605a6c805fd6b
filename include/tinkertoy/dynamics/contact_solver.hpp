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
//               s ≤ 0: target 0, and a push out of the penetration where the position
//                 correction puts it (below).
//   friction  |λ_t| ≤ μ λ_n (Coulomb's cone in 2D), toward v_t = 0.
//
// The push (ContactPush), as the joints' position correction does it:
//   - Velocity (the soft step): in the solve passes each penetrating point is Box2D v3's soft
//     contact, an implicit damped spring on s (dynamics/softness.hpp) of frequency f (30 Hz,
//     capped at a quarter of the substep rate, and twice that against a body nothing moves, which
//     holds a pile up from the ground) and damping ratio ζ (10): the update is
//     λ' = max(λ − s_m k⁻¹ (v_n − p) − i λ, 0) with p = min(r (−s), v_push), r, s_m and i the
//     spring's bias rate, mass scale and impulse scale. At rest under a load F a point sits at
//     s = −k F / ω² (ω = 2πf): no slop, and a sag that grows with the load. The relax passes, after
//     the positions moved, are rigid and aim at v_n = 0, so that the push moves the bodies but
//     leaves no velocity (Box2D v3's relax); they measure a gap again, s = s₀ + h v_n;
//   - Position (Baumgarte): the velocity passes aim at v_n = 0; position passes on a pseudo
//     velocity (ImpulsePass::Position), which moves the positions only, aim at
//     v_n = p = min(β (−s − slop)/h, v_push), with impulses of their own;
//   - None: no push; a penetration stays as deep as it is.
// The cap v_push (3 m/s, Box2D's) keeps bodies that start deep in each other from flying apart.
//
// A particle (a disc without an angle) has no ω and no I⁻¹ term. μ and e are the two bodies' own,
// or the material's where a body has none, mixed by core/collider.hpp's rules.
//
// Each pass updates every normal row, then every friction row, each the increment
// δ = −(v − target)/k added to the accumulated impulse and the sum clamped to its bounds (not
// the increment: so a pass may take back what an earlier one gave too much). Each of the two
// sweeps goes manifold by manifold, and the passes visit the manifolds, and each manifold's
// points, forward and backward in turn (a symmetric Gauss–Seidel), so that no point always goes
// first; and each prepare's first pass goes the other way from the last prepare's, so that with
// one pass of each kind a substep (the soft step's solve and relax, as Box2D v3 runs it) the
// solve passes do not always go forward and the relax passes backward. With one pass each, a
// stack of ten boxes drifts 0.15 mm sideways in 10 s, where one-way passes let it drift 18 mm,
// and a 60-row pyramid spreads 2 cm in 3 s, where passes that start forward at every prepare
// let it spread 0.4 m. From 2 × kMinimumShare manifolds on, where two threads can share the
// work, the manifolds go in the colours of a greedy graph colouring by the bodies they move
// (ConstraintColouring, as Box2D v3 colours its contacts; static and kinematic bodies take no
// colour, and are never written): the manifolds of one colour move disjoint bodies, so with a
// ParallelLoop of two or more threads each colour is shared among them, to the same bits as on
// one (as are the loops over the manifolds that write only their own: prepare, pack, carry,
// moved; and bookWork's sum, taken in blocks of a fixed size). (Colours converge more slowly
// along a stack, where a pass moves an impulse two boxes instead of the whole height: the ten
// boxes in two colours drift 13 mm. Which order a pile gets depends on its size only, never on
// the threads.) Restitution comes after the passes
// (restitute): a point that closed faster than the threshold before the solve, v_n⁰ < −v_min,
// and that pushes, is driven toward v_n = −e v_n⁰.
//
// Warm start: a point keeps its impulses from the previous prepare when the same pair of bodies
// touches by the same features (the manifold point's id); they are applied to the velocities at
// once, and the passes correct them.
//
// Layout: prepare keeps the points in the finder's order (for the warm start's match, the
// reports and the state file) and packs a copy of each manifold, with its bodies' masses, in the
// order the passes visit them (colour by colour), so that a pass reads memory front to back; the
// impulses and gaps go back to the points only when something reads them. Packing took
// large_pyramid's soft step from 66.7 to 33.5 ms a step. The copies go kLanes manifolds of one
// colour to a bundle, each field an array with one entry a manifold, and the passes update a
// bundle's manifolds at once (AVX2 where the processor has it), to the bits each would get
// alone (dynamics/contact_lanes.hpp): large_pyramid's soft step from about 16.7 to 12.8 ms.
//
//   solver.build(model, material);
//   solver.prepare(finder.find(state, v, h, material.slop), state, v, h);
//   for (int k = 0; k < iterations; ++k) solver.solve(v, ContactPass::Solve);
//   solver.restitute(v);
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "tinkertoy/archive/state_archive.hpp"
#include "tinkertoy/dynamics/constraint_colouring.hpp"
#include "tinkertoy/dynamics/contact_finder.hpp"
#include "tinkertoy/dynamics/contact_report.hpp"
#include "tinkertoy/dynamics/softness.hpp"
#include "tinkertoy/dynamics/work_ledger.hpp"

namespace tinkertoy {

class ParallelLoop;

// Where the push out of a penetration goes (above).
enum class ContactPush { Velocity, Position, None };

// The passes of a substep (above): the solve and relax passes on v, the position passes on a
// pseudo velocity.
enum class ContactPass { Solve, Relax, Position };

// How contacts behave: the surface of bodies that have none of their own, and the solver's margins.
struct ContactMaterial {
  double friction = 0.6;               // μ ≥ 0, for a body without its own
  double restitution = 0.0;            // e in [0, 1], for a body without its own
  double restitutionThreshold = 1.0;   // m/s: slower approaches do not bounce
  double baumgarte = 0.2;              // β: the fraction of a penetration removed per substep
  double slop = 0.005;                 // m: a penetration left alone, so resting contacts stay closed
  double maxPushSpeed = 3.0;           // m/s: the fastest push out of a penetration
  // The soft step's contact spring (Box2D v3's): its frequency, capped at a quarter of the
  // substep rate and doubled against a body that nothing moves, and its damping ratio.
  double contactHertz = 30.0;
  double contactDampingRatio = 10.0;
  ContactPush push = ContactPush::Velocity;
  bool warmStart = true;               // start from the impulses of the same points at the last prepare
  // The exact mode solves the points as rows of one system (dynamics/contact_rows.hpp), which
  // applies their warm start itself: prepare only carries the impulses over.
  bool solvedAsRows = false;
};

class ContactSolver {
 public:
  // A body as the rows see it.
  struct BodyMass {
    Eigen::Index offset = 0;
    bool turns = false;  // has an angle (ω at offset + 2)
    double inverseMass = 0.0, inverseInertia = 0.0;
    double friction = 0.0, restitution = 0.0;
  };
  // A manifold point's two rows, as prepare made them and the passes left them.
  struct Point {
    std::size_t a = 0, b = 0;  // dense body indices
    std::uint32_t id = 0;
    Eigen::Vector2d normal = Eigen::Vector2d::Zero(), rA = Eigen::Vector2d::Zero(), rB = Eigen::Vector2d::Zero();
    Eigen::Vector2d position = Eigen::Vector2d::Zero();  // world, at prepare
    double separation = 0.0;
    double normalMass = 0.0, tangentMass = 0.0;  // 1/k
    double push = 0.0;                           // p above, m/s (0 within the slop)
    double massScale = 1.0, impulseScale = 0.0;  // the soft solve passes' s and i (rigid: 1, 0)
    double gapTarget = 0.0;                      // −max(s, 0)/h: a gap's target, 0 for a penetration
    double approach = 0.0;                       // v_n before the solve
    double friction = 0.0, restitution = 0.0, threshold = 0.0;
    double normalImpulse = 0.0, tangentImpulse = 0.0;
    double pushImpulse = 0.0;                    // the position passes', this substep
  };

  // For a new layout of `model`: forgets the points, and reads the bodies (refresh).
  void build(const Model& model, const ContactMaterial& material);
  // Lets `loop`'s threads share the work (null: the caller's thread only): each colour of the
  // passes, the warm start and the bounce, and each manifold of prepare, carry, moved and
  // bookWork, to the same bits as on one thread.
  void useThreads(ParallelLoop* loop);
  // Each body's inverse mass and inverse inertia (0 for a driven body), surface, and where its
  // (x, y, θ) sit in v. Call after an edit of the model (a mass, a friction); keeps the points.
  void refresh(const Model& model);
  [[nodiscard]] const ContactMaterial& material() const { return material_; }
  // The rows of `contacts` at `state` for a substep of h, warm-started from the previous prepare
  // (its impulses applied to v, unless the material's solvedAsRows).
  void prepare(std::span<const BodyContact> contacts, const StateView& state, Eigen::VectorXd& v, double h);
  // One pass over the points: Solve and Relax on the velocities v, Position on a pseudo velocity
  // (which starts at zero each substep).
  void solve(Eigen::VectorXd& v, ContactPass pass);
  // After the positions moved by h v: each gap measured again, s ← s + h v_n, for the relax passes
  // (and carry).
  void moved(const Eigen::VectorXd& v, double h);
  // The points of the last prepare into the next substep of h (the soft step finds contacts once
  // a step, as Box2D v3 does, and not at all while nothing moves far): each gap as moved() left
  // it, s + h v_n summed over the substeps so far, sets its targets and push; the approach is
  // measured at v; normals, arms and effective masses stay those of prepare; and the accumulated
  // impulses are applied to v again as the warm start. Only while carriable().
  void carry(Eigen::VectorXd& v, double h);
  // Whether the points of the last prepare can be carried on: packed, and no edit, state,
  // sleeping island or exact solve changed them since.
  [[nodiscard]] bool carriable() const { return carriable_; }
  // The bounce of the points that closed fast, after the passes.
  void restitute(Eigen::VectorXd& v);
  // Books the work the accumulated impulses did in taking the velocities from v0 to v1, J: each
  // point's impulse P = λ_n n + λ_t t times its relative velocity's mean, P · (v_rel(v0) +
  // v_rel(v1)) / 2, under `impulses` (as the joints' rows are booked); and, against a kinematic
  // body, what its motion put in under `driven`: P · v̄_a at the point when a is kinematic,
  // −P · v̄_b when b is. Their sum is what the impulses did to the moving bodies, exact for the
  // kinetic energy they changed.
  void bookWork(const Eigen::VectorXd& v0, const Eigen::VectorXd& v1, WorkLedger& ledger) const;

  struct PointImpulse {
    double normal = 0.0, tangent = 0.0;  // N·s
  };
  // The accumulated impulses, by point in the order of prepare's contacts and their points.
  [[nodiscard]] std::vector<PointImpulse> impulses() const;
  [[nodiscard]] std::size_t pointCount() const { return points_.size(); }
  // The points, for a solver of all rows at once (dynamics/contact_rows.hpp), which sets their impulses.
  [[nodiscard]] std::span<Point> points() {
    writeBack();
    return points_;
  }
  [[nodiscard]] std::span<const Point> points() const {
    writeBack();
    return points_;
  }
  [[nodiscard]] const BodyMass& body(std::size_t dense) const { return bodies_[dense]; }
  // The points as they are (out: their copy), and back, for a substep tried again from its
  // start (the next prepare's warm start).
  void keepPoints(std::vector<Point>& out) const {
    writeBack();
    out.assign(points_.begin(), points_.end());
  }
  // (The next prepare packs them again: no pass runs between the two.)
  void restorePoints(const std::vector<Point>& in) {
    points_.assign(in.begin(), in.end());
    forgetLayout();
    packedAhead_ = false;
  }
  // The points of a sleeping island (their bodies' flags in `asleep`, by dense index) moved to
  // the end of `out`, with their impulses (dynamics/sleeping_islands.hpp).
  void setAside(std::span<const char> asleep, std::vector<Point>& out);
  // Points set aside, back for the next prepare's warm start (their island woke).
  void welcome(std::span<const Point> woken);
  // The points as the last prepare found them (where they were found, and in the soft step
  // their gaps as moved() left them), with their impulses now, then the points `asleep` (a
  // sleeping island's), the bodies named by id.
  [[nodiscard]] std::vector<ContactReport> reports(const Model& model, std::span<const Point> asleep = {}) const;
  // The deepest penetration among the points prepared, −min(s, 0), m.
  [[nodiscard]] double deepestPenetration() const { return deepest_; }
  // The points' keys and impulses (all the next prepare's warm start needs) and what reports
  // show, in either direction; while carriable(), also their manifolds, and their gaps as moved()
  // left them, with the arms read back as each point's position less its body's place at the
  // search, `searchedAt` (ContactFinder::searchedAt, read before): all carry needs, so that a
  // run that carries its points resumes bit for bit.
  void serialize(StateArchive& archive, std::span<const double> searchedAt);
  // `points`' keys, impulses and reports, in either direction, checked against `bodies` bodies.
  static void serializePoints(StateArchive& archive, std::vector<Point>& points, std::size_t bodies);

 private:
  // The points of one BodyContact (consecutive in points_), and the first columns of the bodies
  // it moves (its colouring's).
  struct Touch {
    std::size_t first = 0, count = 0;
    std::array<Eigen::Index, 2> movers{};
    std::size_t moverCount = 0;
  };
  // The manifolds side by side (dynamics/contact_lanes.hpp's kWidth): four, as AVX2 packs
  // doubles; two with Clang on x86-64, which passes no vector of four doubles without AVX.
#if defined(__clang__) && defined(__x86_64__)
  static constexpr int kLanes = 2;
#else
  static constexpr int kLanes = 4;
#endif
  // One point of each lane's manifold: what the passes read and write of it (a copy of its Point's).
  struct alignas(kLanes * sizeof(double)) SlotLanes {
    double rAx[kLanes]{}, rAy[kLanes]{}, rBx[kLanes]{}, rBy[kLanes]{};
    double normalMass[kLanes]{}, tangentMass[kLanes]{}, push[kLanes]{}, gapTarget[kLanes]{};
    double massScale[kLanes]{}, impulseScale[kLanes]{};
    double approach[kLanes]{}, separation[kLanes]{};  // s as prepare found it, moved on by moved()
    double normalImpulse[kLanes]{}, tangentImpulse[kLanes]{}, pushImpulse[kLanes]{};
    std::int64_t present[kLanes]{};  // all ones where the lane's manifold has this point
    std::size_t source[kLanes]{};    // its Point in points_
  };
  // Up to kLanes manifolds of one colour as the passes see them: their points and what they need
  // of their bodies, laid out in the order the passes visit the manifolds (colour by colour,
  // each colour from a new bundle), so that a pass reads its rows front to back (or back to
  // front) instead of gathering them from all over points_. A lane without a manifold has a
  // count of 0, no points present and no body it moves.
  struct alignas(kLanes * sizeof(double)) Bundle {
    Eigen::Index offsetA[kLanes]{}, offsetB[kLanes]{};
    Eigen::Index spinA[kLanes]{}, spinB[kLanes]{};  // ω's entry in v, or offset for a body that does not turn
    double inverseMassA[kLanes]{}, inverseInertiaA[kLanes]{}, inverseMassB[kLanes]{}, inverseInertiaB[kLanes]{};
    double normalX[kLanes]{}, normalY[kLanes]{}, friction[kLanes]{}, restitution[kLanes]{};
    // All ones where the body moves (m⁻¹ > 0: the passes write it), and where it turns too.
    std::int64_t movesA[kLanes]{}, movesB[kLanes]{}, turningA[kLanes]{}, turningB[kLanes]{};
    std::int64_t anchored[kLanes]{};  // all ones where one of its bodies nothing moves (its springs are stiffer)
    int count[kLanes]{};
    std::array<SlotLanes, 2> slots;
  };
  // A colour's bundles, and whether their manifolds move disjoint bodies (every lane at once)
  // or must go one after another (the overflow colour, or a pile too small to colour).
  struct ColourBundles {
    std::size_t first = 0, count = 0;
    bool disjoint = false;
  };
  // The fewest manifolds worth a thread's share of a colour's pass (about what the kernel's pins
  // take), and of one of the lighter loops over all the manifolds (prepare's, pack's, carry's,
  // moved's, bookWork's): below it, pyramid-20's 400 manifolds lost on two threads.
  static constexpr std::size_t kMinimumShare = 128;
  static constexpr std::size_t kMinimumLoopShare = 512;

  // body(begin, end, thread) over [0, n), shared among the threads (each thread's share fixed by
  // n alone, so whatever it computes per iteration is the same on one thread or several).
  template <class Body>
  void shared(std::size_t n, Body&& body, std::size_t minimumShare = kMinimumLoopShare) const;
  // The packed manifolds, colour by colour (last to first when `backward`): each share of a
  // disjoint colour's bundles to disjoint(first bundle, count), the shares on the threads; the
  // others' manifolds one by one, in order, to inOrder(bundle, lanes::OneLane).
  template <class Disjoint, class InOrder>
  void inColours(bool backward, Disjoint&& disjoint, InOrder&& inOrder);

  // Which rows a sweep updates: the normal rows (toward their gap targets, or with the push
  // too), the friction rows, or the position passes' pushes.
  enum class Rows { Normals, PushingNormals, Friction, Push };
  // The points of one contact at `state` into out[0, count), the warm start's impulses from the
  // previous prepare's points of the same pair, which start at `same`; the deepest penetration
  // into `deepest`.
  void preparePoints(const BodyContact& contact, const StateView& state, const Eigen::VectorXd& v, double h,
                     std::vector<Point>::const_iterator same, Point* out, double& deepest) const;
  // The soft step's contact springs for a substep of h.
  void springsFor(double h);
  // The manifold of bodies a and b whose `count` points start at points_[first].
  [[nodiscard]] Touch touchOf(std::size_t a, std::size_t b, std::size_t first, std::size_t count) const;
  // Colours touches_ (for v of `velocities` entries).
  void colour(std::size_t velocities);
  // Forgets the packed manifolds (the points changed): the next substep prepares.
  void forgetLayout();
  // A point's effective masses from its arms and normal, and its surface from its bodies'.
  void weigh(Point& p) const;
  // The manifolds packed in the colouring's order.
  void pack();
  // Each point's accumulated impulses applied to v.
  void warmStart(Eigen::VectorXd& v);
  // Each prepare's and carry's first pass goes the other way from the one before.
  void alternate() {
    startsBackward_ = !startsBackward_;
    backward_ = !startsBackward_;
  }
  // The packed impulses back into points_, if the passes moved them since.
  void writeBack() const;
  // One sweep over every manifold, colour by colour (last to first when `backward`).
  void sweep(Eigen::VectorXd& v, Rows rows, bool backward);
  template <Rows rows>
  void sweep(Eigen::VectorXd& v, bool backward);
  // The rows of a bundle's points, in the lanes `lane` covers (last to first when `backward`);
  // and of `count` bundles from `first`, every lane at once.
  template <Rows rows, class Lane>
  [[gnu::always_inline]] inline void solveBundle(Bundle& m, Eigen::VectorXd& v, bool backward, Lane lane) const;
  template <Rows rows>
  void solveBundles(Bundle* first, std::size_t count, Eigen::VectorXd& v, bool backward) const;
  // Each point's accumulated impulses applied to v, in the lanes `lane` covers; and for `count`
  // bundles from `first`.
  template <class Lane>
  [[gnu::always_inline]] inline void warmBundle(const Bundle& m, Eigen::VectorXd& v, Lane lane) const;
  void warmBundles(const Bundle* first, std::size_t count, Eigen::VectorXd& v) const;
  // moved() on `count` bundles from `first`; and carry()'s gaps, targets and approaches, the
  // deepest penetration among them into `deepest`.
  void moveBundles(Bundle* first, std::size_t count, const Eigen::VectorXd& v, double h) const;
  void carryBundles(Bundle* first, std::size_t count, const Eigen::VectorXd& v, double h, double& deepest) const;
  // The work of a bundle's points (bookWork), added to impulses and driven in the order of its
  // manifolds and their points; and of `count` bundles from `first`, in order.
  [[gnu::always_inline]] inline void addBundleWork(const Bundle& m, const Eigen::VectorXd& v0, const Eigen::VectorXd& v1,
                                                   double& impulses, double& driven) const;
  void addWork(const Bundle* first, std::size_t count, const Eigen::VectorXd& v0, const Eigen::VectorXd& v1,
               double& impulses, double& driven) const;

  ContactMaterial material_;
  std::vector<BodyMass> bodies_;
  mutable std::vector<Point> points_;  // their impulses and gaps as writeBack() leaves them
  std::vector<Point> previous_;
  std::vector<Touch> touches_;
  ConstraintColouring colouring_;  // of touches_
  std::vector<Bundle> bundles_;    // touches_ in colouring_.order() (not in the exact mode)
  std::vector<ColourBundles> colourBundles_;  // by colour
  Softness softness_, anchoredSoftness_;  // the soft step's contact springs, as of prepare's h
  mutable bool packedAhead_ = false;  // the passes moved bundles_' impulses or gaps since writeBack()
  bool carriable_ = false;            // carriable()
  std::size_t velocityCount_ = 0;     // the model's v entries (the colouring's range)
  ParallelLoop* parallel_ = nullptr;
  mutable std::vector<double> threadDeepest_{0.0};  // [threads] each share's deepest penetration
  // bookWork's sums over each block of kWorkBlock bundles (impulses, driven), added in order
  // after the shared loop.
  static constexpr std::size_t kWorkBlock = 32;
  mutable std::vector<std::array<double, 2>> blockWork_;
  bool backward_ = true;         // the last pass's direction
  bool startsBackward_ = true;   // the direction of the last prepare's first pass
  double deepest_ = 0.0;
};

}  // namespace tinkertoy
