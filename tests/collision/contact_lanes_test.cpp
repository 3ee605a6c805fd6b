// The contact passes' lanes (dynamics/contact_lanes.hpp): a vector of manifolds' numbers goes
// through the same IEEE operations as each manifold's double would, so that the passes give the
// same bits whether they update a manifold alone or beside others.
#include "dynamics/contact_lanes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace tinkertoy {
namespace {

using lanes::AllLanes;
using lanes::OneLane;
constexpr int kWidth = lanes::kWidth;
using Lanes = std::array<double, kWidth>;

// The awkward values: both zeros, the infinities, the smallest normal and subnormal numbers.
std::vector<double> edgeValues() {
  const double inf = std::numeric_limits<double>::infinity();
  return {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, inf, -inf, std::numeric_limits<double>::min(),
          -std::numeric_limits<double>::denorm_min(), 1e300, -1e-300};
}

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

// f applied to vectors made of `a` and `b` lane by lane, against g on each lane's doubles.
template <class Wide, class Scalar>
void expectLaneByLane(const std::vector<double>& values, Wide&& wide, Scalar&& scalar) {
  for (const double x : values) {
    for (const double y : values) {
      for (int at = 0; at < kWidth; ++at) {
        Lanes a{}, b{};
        a.fill(1.0);
        b.fill(-1.0);
        a[static_cast<std::size_t>(at)] = x;
        b[static_cast<std::size_t>(at)] = y;
        Lanes out{};
        AllLanes::store(out.data(), wide(AllLanes::load(a.data()), AllLanes::load(b.data())));
        for (int l = 0; l < kWidth; ++l) {
          const auto k = static_cast<std::size_t>(l);
          EXPECT_EQ(bits(out[k]), bits(scalar(a[k], b[k]))) << "lane " << l << " of (" << x << ", " << y << ")";
        }
      }
    }
  }
}

TEST(ContactLanes, MaximumMinimumAndClampAreStdsToTheBitInEveryLane) {
  const std::vector<double> values = edgeValues();
  expectLaneByLane(values, [](auto a, auto b) { return lanes::maximum(a, b); },
                   [](double a, double b) { return std::max(a, b); });
  expectLaneByLane(values, [](auto a, auto b) { return lanes::minimum(a, b); },
                   [](double a, double b) { return std::min(a, b); });
  expectLaneByLane(values, [](auto a, auto b) { return lanes::maximum(a, b); },
                   [](double a, double b) { return lanes::maximum(a, b); });
  // Clamped to [−|b|, |b|] as the friction rows are, and to [0, ∞) as the normal rows are.
  expectLaneByLane(values,
                   [](auto a, auto b) {
                     const auto bound = lanes::maximum(b, -b);
                     return lanes::clamped(a, -bound, bound);
                   },
                   [](double a, double b) {
                     const double bound = std::max(b, -b);
                     return std::clamp(a, -bound, bound);
                   });
  const double inf = std::numeric_limits<double>::infinity();
  expectLaneByLane(values,
                   [&](auto a, auto /*b*/) { return lanes::clamped(a, AllLanes::broadcast(0.0), AllLanes::broadcast(inf)); },
                   [&](double a, double /*b*/) { return std::clamp(a, 0.0, inf); });
}

TEST(ContactLanes, SelectTakesEachLanesOwnChoice) {
  expectLaneByLane(edgeValues(), [](auto a, auto b) { return lanes::select(a < b, a, b); },
                   [](double a, double b) { return a < b ? a : b; });
  // A mask as a bundle stores it.
  const std::array<lanes::Flag, kWidth> flags = [] {
    std::array<lanes::Flag, kWidth> f{};
    for (int l = 0; l < kWidth; l += 2) f[static_cast<std::size_t>(l)] = lanes::kYes;
    return f;
  }();
  Lanes yes{}, no{};
  yes.fill(-0.0);
  no.fill(0.0);
  Lanes out{};
  AllLanes::store(out.data(), lanes::select(AllLanes::loadMask(flags.data()), AllLanes::load(yes.data()),
                                            AllLanes::load(no.data())));
  for (int l = 0; l < kWidth; ++l) {
    const OneLane lane{l};
    EXPECT_EQ(bits(out[static_cast<std::size_t>(l)]),
              bits(lanes::select(lane.loadMask(flags.data()), lane.load(yes.data()), lane.load(no.data()))));
    EXPECT_EQ(std::signbit(out[static_cast<std::size_t>(l)]), l % 2 == 0);
  }
}

TEST(ContactLanes, ASoftNormalRowsUpdateIsTheSameBitsBesideOthers) {
  // impulse::updated's expression, clamped to [0, ∞), on random rows: the vector's lanes against
  // each row's doubles.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> number(-3.0, 3.0);
  for (int trial = 0; trial < 1000; ++trial) {
    std::array<Lanes, 6> in{};
    for (Lanes& x : in) {
      for (double& lane : x) lane = number(random);
    }
    const auto update = [](auto old, auto scale, auto mass, auto vn, auto target, auto push, auto impulseScale,
                           auto zero, auto inf) {
      return lanes::clamped(old - scale * mass * (vn - target - push) - impulseScale * old, zero, inf);
    };
    const double inf = std::numeric_limits<double>::infinity();
    const auto load = [&](std::size_t k) { return AllLanes::load(in[k].data()); };
    Lanes out{};
    AllLanes::store(out.data(), update(load(0), load(1), load(2), load(3), load(4), load(5), load(0) * load(1),
                                       AllLanes::broadcast(0.0), AllLanes::broadcast(inf)));
    for (std::size_t l = 0; l < static_cast<std::size_t>(kWidth); ++l) {
      const double expected = update(in[0][l], in[1][l], in[2][l], in[3][l], in[4][l], in[5][l], in[0][l] * in[1][l], 0.0, inf);
      ASSERT_EQ(bits(out[l]), bits(expected)) << "trial " << trial << ", lane " << l;
    }
  }
}

}  // namespace
}  // namespace tinkertoy
