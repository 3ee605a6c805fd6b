// The narrowphase target (fuzz/fuzz_targets.hpp): the bytes are two convex shapes (circle,
// capsule, segment, or the hull of up to 8 points, each rounded or not), their placements and a
// speculative distance. collide() must give 0 to 2 points, a unit normal, finite points, no
// separation beyond the speculative distance, and the same penetration both ways round (swapping
// overlapping shapes negates the normal and keeps the deepest separation); moving both by one
// offset keeps the deepest separation. Otherwise the function traps.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "fuzz_targets.hpp"
#include "support/convex_hull.hpp"
#include "tinkertoy/collision/collide.hpp"

namespace tinkertoy::fuzz {

namespace {

// The bytes, read in order as numbers in [lo, hi]; past the end, 0.5 of the range.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  double number(double lo, double hi) {
    const double u = at_ + 1 < size_ ? (data_[at_] * 256.0 + data_[at_ + 1]) / 65535.0 : 0.5;
    at_ += 2;
    return lo + (hi - lo) * u;
  }
  int choice(int count) { return at_ < size_ ? data_[at_++] % count : (++at_, 0); }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
};

// A shape of about a metre, or nothing when the bytes give a degenerate one.
std::optional<Convex> shape(Reader& in) {
  const double radius = in.choice(2) == 0 ? 0.0 : in.number(0.01, 0.5);
  switch (in.choice(4)) {
    case 0:
      return convexCircle(Eigen::Vector2d(in.number(-0.2, 0.2), in.number(-0.2, 0.2)), std::max(radius, 0.05));
    case 1:
    case 2: {
      const Eigen::Vector2d a(in.number(-1, 1), in.number(-1, 1)), b(in.number(-1, 1), in.number(-1, 1));
      if ((a - b).norm() < 1e-3) return std::nullopt;
      return convexCapsule(a, b, radius);
    }
    default: {
      std::vector<Eigen::Vector2d> points(static_cast<std::size_t>(3 + in.choice(6)));
      for (Eigen::Vector2d& p : points) p = Eigen::Vector2d(in.number(-1, 1), in.number(-1, 1));
      const std::vector<Eigen::Vector2d> h = test_support::convexHull(points, 1e-6);
      if (h.size() < 3) return std::nullopt;
      for (std::size_t i = 0; i < h.size(); ++i) {
        if ((h[(i + 1) % h.size()] - h[i]).norm() < 1e-3) return std::nullopt;  // an edge needs a direction
      }
      return convexPolygon(h.data(), static_cast<int>(h.size()), radius);
    }
  }
}

double deepest(const Manifold& m) {
  double s = INFINITY;
  for (int k = 0; k < m.count; ++k) s = std::min(s, m.points[k].separation);
  return s;
}

void check(const Manifold& m, double speculative) {
  if (m.count < 0 || m.count > 2) __builtin_trap();
  if (m.count == 0) return;
  if (!m.normal.allFinite() || std::abs(m.normal.norm() - 1.0) > 1e-9) __builtin_trap();
  for (int k = 0; k < m.count; ++k) {
    if (!m.points[k].point.allFinite() || !std::isfinite(m.points[k].separation)) __builtin_trap();
    if (m.points[k].separation > speculative + 1e-9) __builtin_trap();
  }
}

}  // namespace

int fuzzNarrowphase(const std::uint8_t* data, std::size_t size) {
  Reader in(data, size);
  const std::optional<Convex> a = shape(in), b = shape(in);
  if (!a || !b) return 0;
  const Placement pa = Placement::of(in.number(-2, 2), in.number(-2, 2), in.number(-4, 4));
  const Placement pb = Placement::of(in.number(-2, 2), in.number(-2, 2), in.number(-4, 4));
  const double speculative = in.number(0.0, 0.5);
  const Manifold ab = collide(*a, pa, *b, pb, speculative), ba = collide(*b, pb, *a, pa, speculative);
  check(ab, speculative);
  check(ba, speculative);
  // Where they overlap, the same deepest separation either way round, and the opposite normal.
  // (Apart, the separation of a speculative point is a bound that depends on which shape is the
  // reference, so one order may keep a point the other finds beyond the distance.)
  const double overlapAb = ab.count > 0 ? deepest(ab) : INFINITY, overlapBa = ba.count > 0 ? deepest(ba) : INFINITY;
  if (std::min(overlapAb, overlapBa) < -1e-9) {
    if (std::abs(overlapAb - overlapBa) > 1e-9) __builtin_trap();
    if ((ab.normal + ba.normal).norm() > 1e-6) __builtin_trap();
  }
  // Moved together by an offset, the same separations.
  const Eigen::Vector2d offset(in.number(-50, 50), in.number(-50, 50));
  Placement qa = pa, qb = pb;
  qa.p += offset;
  qb.p += offset;
  const Manifold moved = collide(*a, qa, *b, qb, speculative);
  if (moved.count != ab.count && std::abs(deepest(ab) - speculative) > 1e-9) __builtin_trap();
  if (moved.count == ab.count && ab.count > 0 && std::abs(deepest(moved) - deepest(ab)) > 1e-9) __builtin_trap();
  return 0;
}

}  // namespace tinkertoy::fuzz
