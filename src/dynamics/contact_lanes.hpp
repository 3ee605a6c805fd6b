// Lanes: the contact passes' arithmetic written once for one manifold or for a few side by side.
//
// ContactSolver lays its manifolds out in bundles of `width` (ContactSolver::kLanes), each field
// an array with one entry a manifold (a lane). The passes' kernels are templates on a lane view:
//   - OneLane: one manifold of a bundle, its numbers doubles and its masks bools;
//   - AllLanes: every manifold of the bundle at once, its numbers a vector of `width` doubles
//     (GCC's vector extension: SSE2 packs two doubles an instruction) and its masks vectors of
//     all-ones or all-zeros integers.
// Each lane of a vector goes through the same IEEE operations, in the same order, as OneLane's
// double would (a select in place of each branch; no fused multiply-add, which the targets built
// for lack), so a manifold's numbers are the same bits whichever view updates it. The passes
// use AllLanes on a colour's bundles, whose manifolds move disjoint bodies, and OneLane, lane by
// lane in order, on the manifolds that must go one after another (dynamics/contact_solver.hpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

// The vectors live in registers within a loop over bundles, every function that takes or returns
// one inlined into it (always_inline, at any optimization, lambdas included: none takes or
// returns a vector): a loop built for AVX2 never calls a function built without it with a vector,
// whose argument-passing convention differs (the warning GCC gives for it is off here).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace tinkertoy::lanes {

// A lane's yes or no as a bundle stores it: all ones or all zeros, which AllLanes loads as a mask.
using Flag = std::int64_t;
inline constexpr Flag kYes = -1;

// How many manifolds a bundle holds (ContactSolver::kLanes): as many doubles as AVX2 packs, or
// SSE2 in two instructions. Clang on x86-64 refuses a vector of four doubles in a function
// built without AVX, even one it inlines: there, two (one SSE2 instruction), and one build of
// the loops. (The bundles' sizes change the ledger's blocks, so its sum's last digits; each
// manifold's numbers are the same.)
#if defined(__clang__) && defined(__x86_64__)
inline constexpr int kWidth = 2;
#else
inline constexpr int kWidth = 4;
#endif

// The loops over bundles built twice with GCC, for AVX2 and for any x86-64, the one the
// processor runs chosen when the program loads (function clones); elsewhere, one build.
#if defined(__x86_64__) && defined(__linux__) && !defined(__clang__)
#define TINKERTOY_LANES_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TINKERTOY_LANES_CLONES
#endif

struct AllLanes {
  using Real = double __attribute__((vector_size(kWidth * sizeof(double))));
  using Mask = decltype(Real{} < Real{});
  [[gnu::always_inline]] static Real load(const double* field) {
    Real x;
    std::memcpy(&x, field, sizeof x);
    return x;
  }
  [[gnu::always_inline]] static void store(double* field, Real x) { std::memcpy(field, &x, sizeof x); }
  [[gnu::always_inline]] static Mask loadMask(const Flag* field) {
    Mask m;
    std::memcpy(&m, field, sizeof m);
    return m;
  }
  [[gnu::always_inline]] static Real broadcast(double x) {
    Real r;
    for (int l = 0; l < kWidth; ++l) r[l] = x;
    return r;
  }
  // The vector of f(l) over the lanes (a gather).
  template <class F>
  [[gnu::always_inline]] static Real gather(F&& f) {
    Real r;
    for (int l = 0; l < kWidth; ++l) r[l] = f(l);
    return r;
  }
  [[gnu::always_inline]] static double lane(Real x, int l) { return x[l]; }
  // The lanes [first, last) it covers.
  static constexpr int first() { return 0; }
  static constexpr int last() { return kWidth; }
};

struct OneLane {
  using Real = double;
  using Mask = bool;
  int at = 0;  // which lane of the bundle
  [[nodiscard]] Real load(const double* field) const { return field[at]; }
  void store(double* field, Real x) const { field[at] = x; }
  [[nodiscard]] Mask loadMask(const Flag* field) const { return field[at] != 0; }
  static Real broadcast(double x) { return x; }
  template <class F>
  [[nodiscard]] Real gather(F&& f) const {
    return f(at);
  }
  static double lane(Real x, int /*l*/) { return x; }
  [[nodiscard]] int first() const { return at; }
  [[nodiscard]] int last() const { return at + 1; }
};

// m ? a : b, lane by lane.
inline double select(bool m, double a, double b) { return m ? a : b; }
template <class Real, class Mask>
  requires(!std::is_same_v<Real, double>)
[[gnu::always_inline]] inline Real select(Mask m, Real a, Real b) {
  return reinterpret_cast<Real>((reinterpret_cast<Mask>(a) & m) | (reinterpret_cast<Mask>(b) & ~m));
}
inline bool both(bool a, bool b) { return a && b; }
template <class Mask>
  requires(!std::is_same_v<Mask, bool>)
[[gnu::always_inline]] inline Mask both(Mask a, Mask b) {
  return a & b;
}

// std::max(a, b), std::min(a, b) and std::clamp(x, lo, hi), with the same bits for any x
// (signed zeros too).
template <class Real>
[[gnu::always_inline]] inline Real maximum(Real a, Real b) {
  return select(a < b, b, a);
}
template <class Real>
[[gnu::always_inline]] inline Real minimum(Real a, Real b) {
  return select(b < a, b, a);
}
template <class Real>
[[gnu::always_inline]] inline Real clamped(Real x, Real lo, Real hi) {
  const Real atLeast = select(x < lo, lo, x);
  return select(hi < atLeast, hi, atLeast);
}

}  // namespace tinkertoy::lanes
