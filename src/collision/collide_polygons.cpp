// Two polygons, capsules or segments: cores with vertices and outward edge normals, rounded by
// r_A and r_B. Worked in A's frame, where B's vertices are w_j and its normals m_j.
//
// Separating axes. For an edge i of P (vertex p_i, normal n_i), the least signed distance of Q's
// vertices from its line,
//
//   s_i = min_j n_i · (q_j − p_i),
//
// is how far Q's core lies beyond the edge (s_i > 0: the line separates them). For two convex
// cores, max over the edges of both of s is their signed distance when they overlap (−depth, the
// separating-axis theorem: a polygon pair's least translation is along an edge normal) and a lower
// bound of their distance when they do not. Rounding adds r_A + r_B in every direction, so when
// that largest s, minus r_A + r_B, exceeds the speculative distance there is no point.
//
// Reference and incident edge. The edge with the largest s, on A unless B's separates more by
// kReferenceBias, is the reference edge [v1, v2] with normal n (pointing from the reference shape
// to the other). The other shape's incident edge [w1, w2] is the one whose normal is most against
// n, min_k n · m_k: it holds the other's deepest vertex along −n.
//
// Separated cores (s > 0). The closest points of the two edges (segment to segment) are the
// shapes' closest points. When both fall on an end of their edge (f1, f2 ∈ {0, 1}), two corners
// (or caps) face each other: one point, along n = (p2 − p1)/|p2 − p1|, at distance |p2 − p1|. Else
// a face is in front of the other shape and the face contact below holds.
//
// Face contact (clipping). The incident edge is cut to the reference edge's slab, the points x with
// t·v1 ≤ t·x ≤ t·v2 (t the edge's unit direction): each end outside the slab moves along the edge
// to the slab's side. Each remaining end c has the core separation n·(c − v1); its surface points
// are x_ref = c − n·(c − v1) n + r_ref n (on the reference face) and x_inc = c − r_inc n, and it is
// kept if its separation is at most the speculative distance. Two points at most.
//
// Cores in line (two capsules end to end, a segment along a box's side) face nothing: every axis
// separates them by about 0 and the incident edge lies beside the reference slab. The closest
// points of the two edges then give the one point, as they do for two corners.
//
// Ids name the features of A and B (faceId, cornerId), not the reference's: a box rocking on
// another, whose reference face changes sides, keeps its points' ids and so its warm starts.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "collision/narrowphase.hpp"

namespace tinkertoy::narrowphase {

namespace {

// Prefer A's edge for the reference unless B's separates more by this much (m): a pair of faces
// that are parallel keeps one reference while they stay parallel to round-off.
constexpr double kReferenceBias = 1e-9;
// A distance below which two cores touch (m): cores this close are not "apart" for the corner
// test, two closest points this close give no direction of their own, and an incident edge whose
// ends differ this little along the reference edge runs along its normal.
constexpr double kTouching = 1e-12;
// The sine of the angle below which two edges are parallel.
constexpr double kParallel = 1e-12;

// A vertex or edge of A or of B (an edge i runs from vertex i to vertex i + 1).
struct Feature {
  bool ofB = false;
  int index = 0;
};
// A face point's id: the vertex (of one shape) that puts it where it is, and the edge (of the
// other) it lies against. A corner pair's: both vertices, tagged 0x20000. Either way the same
// features give the same id whichever shape is the reference.
std::uint32_t faceId(Feature vertex, Feature edge) {
  return (vertex.ofB ? 0x10000U : 0U) + (static_cast<std::uint32_t>(vertex.index) << 8) +
         (static_cast<std::uint32_t>(edge.index) << 4);
}
std::uint32_t cornerId(Feature p, Feature q) {
  const Feature& a = p.ofB ? q : p;
  const Feature& b = p.ofB ? p : q;
  return 0x20000U + (static_cast<std::uint32_t>(a.index) << 8) + (static_cast<std::uint32_t>(b.index) << 4);
}

struct Axis {
  int edge = 0;
  double separation = -std::numeric_limits<double>::infinity();
};

// The least of n · q_j over Q's vertices q_j (Q's support along −n). A parallelogram (a box), with
// corners c + d₁, c + d₂, c − d₁, c − d₂, has it in closed form: n · c − max(|n · d₁|, |n · d₂|).
class LeastAlong {
 public:
  // Q's vertices, or the center and half-diagonals of Q's parallelogram in the frame Q is in
  // (`own`'s, placed by `to`).
  LeastAlong(const Convex& q, const Convex& own, const Placement& to) : q_(q) {
    const auto& v = own.vertices;
    parallelogram_ = own.count == 4 && v[0] + v[2] == v[1] + v[3];
    if (!parallelogram_) return;
    center_ = to.apply(0.5 * (v[0] + v[2]));
    d1_ = to.rotate(0.5 * (v[0] - v[2]));
    d2_ = to.rotate(0.5 * (v[1] - v[3]));
  }
  [[nodiscard]] double operator()(const Eigen::Vector2d& n) const {
    if (parallelogram_) return n.dot(center_) - std::max(std::abs(n.dot(d1_)), std::abs(n.dot(d2_)));
    double least = std::numeric_limits<double>::infinity();
    for (int j = 0; j < q_.count; ++j) least = std::min(least, n.dot(q_.vertices[j]));
    return least;
  }

 private:
  const Convex& q_;
  bool parallelogram_ = false;
  Eigen::Vector2d center_, d1_, d2_;
};

// max_i min_j n_i · (q_j − p_i) over the edges i of P, as min_j n_i · q_j − n_i · p_i.
Axis mostSeparating(const Convex& p, const LeastAlong& leastAlong) {
  Axis best;
  for (int i = 0; i < p.count; ++i) {
    const double least = leastAlong(p.normals[i]) - p.normals[i].dot(p.vertices[i]);
    if (least > best.separation) best = {i, least};
  }
  return best;
}

// The closest points p1 + f1 (q1 − p1) and p2 + f2 (q2 − p2) of two segments (Ericson, "Real-Time
// Collision Detection", 5.1.9): f clamped to [0, 1], so that an end is exactly 0 or 1.
struct Closest {
  double f1, f2;
};
Closest closestOfSegments(const Eigen::Vector2d& p1, const Eigen::Vector2d& q1, const Eigen::Vector2d& p2,
                          const Eigen::Vector2d& q2) {
  const Eigen::Vector2d d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r), c = d1.dot(r), b = d1.dot(d2);
  const double denominator = a * e - b * b;
  double s = denominator > 0.0 ? std::clamp((b * f - c * e) / denominator, 0.0, 1.0) : 0.0;
  double t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0, s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1.0) {
    t = 1.0, s = std::clamp((b - c) / a, 0.0, 1.0);
  }
  return {s, t};
}

// B's placement relative to A's, which brings B's core into A's frame, where the pair is worked:
// x ↦ R_aᵀ (R_b x + p_b − p_a) = R(θ_b − θ_a) x + R_aᵀ (p_b − p_a), one rotation a vertex.
Placement relativeTo(const Placement& xa, const Placement& xb) {
  return {.p = xa.unrotate(xb.p - xa.p), .c = xa.c * xb.c + xa.s * xb.s, .s = xa.c * xb.s - xa.s * xb.c};
}
Convex placed(const Convex& b, const Placement& to) {
  Convex moved;
  moved.count = b.count;
  moved.radius = b.radius;
  for (int j = 0; j < b.count; ++j) {
    moved.vertices[j] = to.apply(b.vertices[j]);
    moved.normals[j] = to.rotate(b.normals[j]);
  }
  return moved;
}

}  // namespace

Manifold polygons(const Convex& a, const Placement& xa, const Convex& bOwn, const Placement& xb, double speculative) {
  const Placement relative = relativeTo(xa, xb);
  const Convex b = placed(bOwn, relative);
  const double radius = a.radius + b.radius;
  const Axis axisA = mostSeparating(a, LeastAlong(b, bOwn, relative));
  const Axis axisB = mostSeparating(b, LeastAlong(a, a, Placement{}));
  Manifold m;
  if (std::max(axisA.separation, axisB.separation) - radius > speculative) return m;

  const bool flip = axisB.separation > axisA.separation + kReferenceBias;
  const Convex& ref = flip ? b : a;
  const Convex& inc = flip ? a : b;
  const Axis& axis = flip ? axisB : axisA;
  const int i1 = axis.edge;
  const Eigen::Vector2d& v1 = ref.vertices[i1];
  const Eigen::Vector2d& v2 = ref.vertices[(i1 + 1) % ref.count];
  const Eigen::Vector2d& n = ref.normals[i1];
  int i2 = 0;
  for (int k = 1; k < inc.count; ++k) {
    if (n.dot(inc.normals[k]) < n.dot(inc.normals[i2])) i2 = k;
  }
  const Eigen::Vector2d& w1 = inc.vertices[i2];
  const Eigen::Vector2d& w2 = inc.vertices[(i2 + 1) % inc.count];

  // Surface points in A's frame, reference then incident, with the normal from reference to incident.
  const auto add = [&](const Eigen::Vector2d& onRef, const Eigen::Vector2d& onInc, const Eigen::Vector2d& normal,
                       std::uint32_t id) {
    const Eigen::Vector2d& onA = flip ? onInc : onRef;
    const Eigen::Vector2d& onB = flip ? onRef : onInc;
    m.normal = xa.rotate(flip ? Eigen::Vector2d(-normal) : normal);
    m.points[m.count++] = midway(xa.apply(onA), xa.apply(onB), m.normal, id);
  };

  // Ids by the features of A and B, not by which is the reference, so that a pair whose
  // reference face changes sides from step to step (a box rocking on another) keeps them.
  // (Feature::ofB comes out set for A's features: the other way round, the same for every pair, so
  // the ids still tell the two shapes apart; left so, as the state files hold the ids.)
  const auto vertexOf = [&](bool onRef, int index) { return Feature{onRef != flip, index}; };

  // Two corners (or caps) facing each other, or cores that touch along a line (in-line capsules):
  // one point along the line between the closest points of the two edges.
  const auto closestPoints = [&]() {
    const Closest f = closestOfSegments(v1, v2, w1, w2);
    const Eigen::Vector2d p1 = v1 + f.f1 * (v2 - v1), p2 = w1 + f.f2 * (w2 - w1);
    const Eigen::Vector2d d = p2 - p1;
    const double length = d.norm();
    if (length - radius > speculative) return;
    const Eigen::Vector2d normal = length > kTouching ? Eigen::Vector2d(d / length) : n;
    const Feature refEnd = vertexOf(true, f.f1 < 0.5 ? i1 : (i1 + 1) % ref.count);
    const Feature incEnd = vertexOf(false, f.f2 < 0.5 ? i2 : (i2 + 1) % inc.count);
    add(p1 + ref.radius * normal, p2 - inc.radius * normal, normal, cornerId(refEnd, incEnd));
  };

  // (Two parallel edges, whose closest points are not unique, are left to the face contact or,
  // side by side, to the closest points: an equal box right above another has two points.)
  const Eigen::Vector2d e1 = v2 - v1, e2 = w2 - w1;
  const bool parallel = std::abs(e1.x() * e2.y() - e1.y() * e2.x()) <= kParallel * e1.norm() * e2.norm();
  if (axis.separation > kTouching && !parallel) {
    const Closest f = closestOfSegments(v1, v2, w1, w2);
    if ((f.f1 == 0.0 || f.f1 == 1.0) && (f.f2 == 0.0 || f.f2 == 1.0)) {
      closestPoints();
      return m;
    }
  }

  const Eigen::Vector2d t = (v2 - v1).normalized();
  const double lower = t.dot(v1), upper = t.dot(v2);
  const double a1 = t.dot(w1), a2 = t.dot(w2);
  // Side by side, not facing: in line, or along each other's extension.
  if ((a1 < lower && a2 < lower) || (a1 > upper && a2 > upper)) {
    closestPoints();
    return m;
  }
  // An end of the incident edge outside the slab moves into it along the edge; an edge that runs
  // along n (a1 = a2 up to rounding) keeps its ends, which are then on the slab's side.
  const double span = std::abs(a2 - a1);
  const auto clipped = [&](const Eigen::Vector2d& end, double along, int endIndex) -> std::pair<Eigen::Vector2d, std::uint32_t> {
    const Feature own = vertexOf(false, endIndex);
    const Feature face = vertexOf(true, i1);  // the reference edge i1: the same index as its first vertex
    if ((along >= lower && along <= upper) || span <= kTouching * (upper - lower + 1.0)) return {end, faceId(own, face)};
    const bool low = along < lower;
    const double bound = low ? lower : upper;
    const Feature refEnd = vertexOf(true, low ? i1 : (i1 + 1) % ref.count);
    const Feature incEdge = vertexOf(false, i2);
    return {w1 + (bound - a1) / (a2 - a1) * (w2 - w1), faceId(refEnd, incEdge)};
  };
  const std::array<std::pair<Eigen::Vector2d, std::uint32_t>, 2> ends = {clipped(w1, a1, i2),
                                                                         clipped(w2, a2, (i2 + 1) % inc.count)};
  for (const auto& [c, id] : ends) {
    const double core = n.dot(c - v1);
    if (core - radius > speculative) continue;
    add(c - core * n + ref.radius * n, c - inc.radius * n, n, id);
  }
  return m;
}

}  // namespace tinkertoy::narrowphase
