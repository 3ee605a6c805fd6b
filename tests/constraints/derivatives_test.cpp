// Finite-difference checks of J, Ċ, J̇ and J̇q̇ + Ctt for every constraint type, at random
// states in 2D and 3D, plus a deliberately wrong constraint that the audit must catch.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/driven_point_constraint.hpp"
#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/point_on_circle_constraint.hpp"
#include "tinkertoy/constraints/point_on_line_constraint.hpp"
#include "tinkertoy/constraints/point_on_plane_constraint.hpp"
#include "tinkertoy/dynamics/derivative_audit.hpp"

namespace tinkertoy {
namespace {

Eigen::VectorXd randomVector(std::mt19937& rng, int dimension, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Eigen::VectorXd x(dimension);
  for (int i = 0; i < dimension; ++i) x[i] = u(rng);
  return x;
}

// A model with two particles at random positions and velocities.
struct RandomPair {
  Model model;
  BodyId a, b;

  RandomPair(int dimension, std::mt19937& rng) : model(dimension) {
    a = model.addParticle(1.0, randomVector(rng, dimension, 2.0), randomVector(rng, dimension, 3.0));
    b = model.addParticle(2.0, randomVector(rng, dimension, 2.0), randomVector(rng, dimension, 3.0));
    model.setTime(0.7);
  }
};

void expectDerivativesMatch(const Model& model, ConstraintId id) {
  const DerivativeAuditResult r = auditConstraint(model, id);
  EXPECT_LT(r.jacobian, kDerivativeAuditTolerance) << model.describe(id);
  EXPECT_LT(r.velocity, kDerivativeAuditTolerance) << model.describe(id);
  EXPECT_LT(r.jacobianDot, kDerivativeAuditTolerance) << model.describe(id);
  EXPECT_LT(r.acceleration, kDerivativeAuditTolerance) << model.describe(id);
}

class Derivatives : public ::testing::TestWithParam<int> {};

TEST_P(Derivatives, DistanceBetweenParticles) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 20; ++trial) {
    RandomPair s(GetParam(), rng);
    expectDerivativesMatch(s.model, s.model.addConstraint(std::make_unique<DistanceConstraint>(s.a, s.b, 1.3)));
  }
}

TEST_P(Derivatives, DistanceToWorldPoint) {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 20; ++trial) {
    RandomPair s(GetParam(), rng);
    expectDerivativesMatch(s.model, s.model.addConstraint(std::make_unique<DistanceConstraint>(
                                        s.a, randomVector(rng, GetParam()), 0.8)));
  }
}

TEST_P(Derivatives, PointOnCircle) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    RandomPair s(GetParam(), rng);
    expectDerivativesMatch(s.model, s.model.addConstraint(std::make_unique<PointOnCircleConstraint>(
                                        s.a, randomVector(rng, GetParam()), 1.5)));
  }
}

TEST_P(Derivatives, FixedPoint) {
  std::mt19937 rng(4);
  RandomPair s(GetParam(), rng);
  expectDerivativesMatch(s.model, s.model.addConstraint(std::make_unique<FixedPointConstraint>(
                                      s.a, randomVector(rng, GetParam()))));
}

TEST_P(Derivatives, PointOnLine) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    RandomPair s(GetParam(), rng);
    expectDerivativesMatch(s.model, s.model.addConstraint(std::make_unique<PointOnLineConstraint>(
                                        s.a, randomVector(rng, GetParam()), randomVector(rng, GetParam()))));
  }
}

TEST_P(Derivatives, DrivenPointOnCrank) {
  std::mt19937 rng(6);
  for (int trial = 0; trial < 20; ++trial) {
    RandomPair s(GetParam(), rng);
    auto crank = std::make_shared<CurvePath>(std::make_shared<CircleCurve>(randomVector(rng, GetParam()), 0.4), 3.0, 0.2);
    expectDerivativesMatch(s.model, s.model.addConstraint(std::make_unique<DrivenPointConstraint>(s.a, crank)));
  }
}

INSTANTIATE_TEST_SUITE_P(TwoAndThreeDimensions, Derivatives, ::testing::Values(2, 3),
                         [](const ::testing::TestParamInfo<int>& p) { return std::to_string(p.param) + "D"; });

TEST(Derivatives3D, PointOnPlane) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    RandomPair s(3, rng);
    expectDerivativesMatch(s.model, s.model.addConstraint(std::make_unique<PointOnPlaneConstraint>(
                                        s.a, randomVector(rng, 3), randomVector(rng, 3))));
  }
}

// The line constraint's rows are n_i·(x − p) with unit normals orthogonal to the direction.
TEST(LineConstraint, RowsAreUnitNormalsOrthogonalToTheDirection) {
  Model model(3);
  const Eigen::Vector3d direction(1.0, 2.0, -0.5);
  const BodyId p = model.addParticle(1.0, Eigen::Vector3d(0.3, 0.1, 0.2));
  const ConstraintId id = model.addConstraint(
      std::make_unique<PointOnLineConstraint>(p, Eigen::Vector3d::Zero(), direction));
  ASSERT_EQ(model.constraint(id).rows(), 2);
  double C[2], Cdot[2], Ctt[2];
  Eigen::Vector4d G[2], Gdot[2];
  RowParameters parameters[2];
  ConstraintOutput out(C, Cdot, Ctt, G, Gdot, parameters, 2);
  const Eigen::Vector3d x(0.3, 0.1, 0.2), v = Eigen::Vector3d::Zero();
  model.constraint(id).evaluate({0.0, 3, {&x, 1}, {&v, 1}}, out);
  const Eigen::Vector3d n1 = G[0].head<3>(), n2 = G[1].head<3>();
  EXPECT_NEAR(n1.norm(), 1.0, 1e-14);
  EXPECT_NEAR(n2.norm(), 1.0, 1e-14);
  EXPECT_NEAR(n1.dot(n2), 0.0, 1e-14);
  EXPECT_NEAR(n1.dot(direction), 0.0, 1e-14);
  EXPECT_NEAR(n2.dot(direction), 0.0, 1e-14);
  // A point moved along the line keeps C = 0.
  const Eigen::Vector3d along = x + 0.7 * direction;
  model.constraint(id).evaluate({0.0, 3, {&along, 1}, {&v, 1}}, out);
  EXPECT_NEAR(C[0] - n1.dot(x), 0.0, 1e-14);
  EXPECT_NEAR(C[1] - n2.dot(x), 0.0, 1e-14);
}

// A distance constraint whose J̇ has the wrong sign: the audit must flag it, otherwise the
// derivative tests above could not fail.
class WrongJacobianDot final : public Constraint {
 public:
  WrongJacobianDot(BodyId a, BodyId b) : inner_(a, b, 1.0) {}
  std::string_view type() const override { return "wrong"; }
  int rows() const override { return 1; }
  std::span<const BodyPoint> points() const override { return inner_.points(); }
  void validate(int d) const override { inner_.validate(d); }
  void evaluate(const ConstraintInput& in, ConstraintOutput& out) const override {
    inner_.evaluate(in, out);
    const Eigen::Vector3d d = in.positions[0] - in.positions[1];
    const Eigen::Vector3d dDot = in.velocities[0] - in.velocities[1];
    const Eigen::Vector3d n = d.normalized();
    const Eigen::Vector3d nDot = (dDot - n * n.dot(dDot)) / d.norm();
    out.setJacobianDot(0, 0, -nDot);
    out.setJacobianDot(1, 0, nDot);
  }

 private:
  DistanceConstraint inner_;
};

TEST(DerivativeAudit, CatchesAWrongJacobianDot) {
  std::mt19937 rng(8);
  RandomPair s(2, rng);
  const DerivativeAuditResult r =
      auditConstraint(s.model, s.model.addConstraint(std::make_unique<WrongJacobianDot>(s.a, s.b)));
  EXPECT_LT(r.jacobian, kDerivativeAuditTolerance);
  EXPECT_GT(r.jacobianDot, 1e-2);
  EXPECT_GT(r.acceleration, 1e-2);
  EXPECT_EQ(r.verdict(), AuditVerdict::Wrong);
}

// Far from the origin (issue #16, class 7). A rod 1 m long at x = 3e4 m: the step along the
// motion grows with the coordinates, so a correct constraint still passes (at a fixed 1e-6 m step
// round-off alone gave errors near 1e-6), and the wrong J̇ is still wrong. At x = 1e12 m a
// difference of x + ε ẋ keeps about 4 digits: the differences disagree with themselves as much as
// with the derivative, and the verdict is "cannot audit", not "wrong".
TEST(DerivativeAudit, FarFromTheOriginJudgesOnlyWhatDifferencesResolve) {
  const auto rod = [](double x, bool wrong) {
    Model model(2);
    const BodyId a = model.addParticle(1.0, Eigen::Vector2d(x, 0.0), Eigen::Vector2d(0.3, 1.0));
    const BodyId b = model.addParticle(1.0, Eigen::Vector2d(x + 0.6, -0.8), Eigen::Vector2d(-0.5, 0.2));
    const ConstraintId id = wrong ? model.addConstraint(std::make_unique<WrongJacobianDot>(a, b))
                                  : model.addConstraint(std::make_unique<DistanceConstraint>(a, b, 1.0));
    return auditConstraint(model, id);
  };
  EXPECT_EQ(rod(3e4, false).verdict(), AuditVerdict::Pass) << rod(3e4, false).worst();
  EXPECT_LT(rod(3e4, false).worst(), 1e-7);
  EXPECT_EQ(rod(3e4, true).verdict(), AuditVerdict::Wrong);
  const DerivativeAuditResult far = rod(1e12, false);
  EXPECT_GT(far.worst(), kDerivativeAuditTolerance) << "no longer out of reach: pick a larger x";
  EXPECT_EQ(far.verdict(), AuditVerdict::CannotAudit) << far.worst() << " against a spread of " << far.spread;
  // At 1e150 m the step is below the coordinates' resolution (x + h == x): both differences are
  // 0 and agree, and only the round-off floor of the spread keeps the verdict honest.
  const DerivativeAuditResult beyond = rod(1e150, false);
  EXPECT_GT(beyond.worst(), 0.1);
  EXPECT_EQ(beyond.verdict(), AuditVerdict::CannotAudit) << beyond.worst() << " against a spread of " << beyond.spread;
}

}  // namespace
}  // namespace tinkertoy
