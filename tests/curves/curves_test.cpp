// Curves and parametric bodies checked against finite differences and geometry.
//
// Central differences with step h have error ≈ h²/6 |f'''| + ε|f|/h; with h = 1e-5 and
// derivatives of order 10 that is ≈ 2e-10 + 2e-11, so 1e-7 bounds a correct derivative with a
// wide margin while a wrong factor or sign (errors of order 1) fails by orders of magnitude.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <vector>

#include "tinkertoy/curves/ellipse_curve.hpp"
#include "tinkertoy/curves/formula_curve.hpp"
#include "tinkertoy/curves/helix_curve.hpp"
#include "tinkertoy/curves/line_curve.hpp"
#include "tinkertoy/curves/spline_curve.hpp"
#include "tinkertoy/dynamics/derivative_audit.hpp"
#include "tinkertoy/model/bead.hpp"
#include "tinkertoy/model/chain.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {
namespace {

using std::numbers::pi;
constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-7;

Eigen::VectorXd vec(std::initializer_list<double> values) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (const double x : values) v[i++] = x;
  return v;
}

std::vector<Eigen::VectorXd> wigglyPoints(int dimension, int count) {
  std::vector<Eigen::VectorXd> points;
  for (int k = 0; k < count; ++k) {
    Eigen::VectorXd p(dimension);
    p[0] = 1.3 * k;
    p[1] = std::sin(1.7 * k) + 0.3 * k;
    if (dimension == 3) p[2] = std::cos(0.9 * k);
    points.push_back(p);
  }
  return points;
}

struct NamedCurve {
  const char* name;
  std::function<std::shared_ptr<const Curve>()> make;
};

std::vector<NamedCurve> everyCurve() {
  return {
      {"circle 2D", [] { return std::make_shared<CircleCurve>(vec({0.5, -0.2}), 1.3); }},
      {"circle 3D tilted", [] { return std::make_shared<CircleCurve>(vec({0, 1, 2}), 0.7, Eigen::Vector3d(1, 2, 3)); }},
      {"ellipse 2D", [] { return std::make_shared<EllipseCurve>(vec({1, 1}), 2.0, 0.5); }},
      {"ellipse 3D", [] { return std::make_shared<EllipseCurve>(vec({0, 0, 0}), 1.5, 0.4, Eigen::Vector3d(0, 1, 0)); }},
      {"line", [] { return std::make_shared<LineCurve>(vec({1, 2}), vec({3, -4})); }},
      {"helix", [] { return std::make_shared<HelixCurve>(vec({0, 0, 0}), 0.8, 0.5); }},
      {"helix tilted", [] { return std::make_shared<HelixCurve>(vec({1, 0, 0}), 0.8, -0.3, Eigen::Vector3d(1, 1, 0)); }},
      {"open spline 2D", [] { return std::make_shared<SplineCurve>(wigglyPoints(2, 6), false); }},
      {"closed spline 2D", [] { return std::make_shared<SplineCurve>(wigglyPoints(2, 5), true); }},
      {"open spline 3D", [] { return std::make_shared<SplineCurve>(wigglyPoints(3, 4), false); }},
      {"two-point spline", [] { return std::make_shared<SplineCurve>(wigglyPoints(2, 2), false); }},
      {"formula figure eight",
       [] { return std::make_shared<FormulaCurve>(std::vector<std::string>{"a*cos(u)", "0.5*sin(2*u) + u^2/9"}, FormulaParameters{{"a", 1.5}}); }},
      {"formula trefoil in C++", [] {
         return formulaCurve([](auto u) {
           using std::cos, std::sin;
           return std::array{sin(u) + 2 * sin(2 * u), cos(u) - 2 * cos(2 * u), -sin(3 * u)};
         });
       }},
  };
}

// c' and c'' against central differences of c and c', over a range that covers every span of
// the splines and their straight continuations (knots are avoided by the irrational stride).
TEST(Curves, DerivativesMatchFiniteDifferences) {
  for (const NamedCurve& named : everyCurve()) {
    const auto curve = named.make();
    ASSERT_NO_THROW(curve->validate()) << named.name;
    double worstTangent = 0.0, worstCurvature = 0.0;
    for (double u = -3.0; u < 12.0; u += 0.0731 * std::sqrt(2.0)) {
      const CurvePoint at = curve->evaluate(u), ahead = curve->evaluate(u + kStep),
                       behind = curve->evaluate(u - kStep);
      worstTangent = std::max(worstTangent, ((ahead.position - behind.position) / (2 * kStep) - at.tangent).norm());
      worstCurvature =
          std::max(worstCurvature, ((ahead.tangent - behind.tangent) / (2 * kStep) - at.curvature).norm());
    }
    EXPECT_LT(worstTangent, kTolerance) << named.name;
    EXPECT_LT(worstCurvature, 10 * kTolerance) << named.name;  // c''' jumps at spline knots
  }
}

// A bead on each curve: its point, J = c'(u) and J̇ u̇ = c''(u) u̇², by the body audit.
TEST(Curves, BeadKinematicsPassTheAudit) {
  for (const NamedCurve& named : everyCurve()) {
    const Bead bead(named.make(), 1.5);
    for (const double u : {-0.7, 0.4, 2.2, 5.9}) {
      for (const double uDot : {0.0, 1.3, -2.4}) {
        const DerivativeAuditResult r = auditBody(bead, 0, vec({u}), vec({uDot}));
        EXPECT_LT(r.worst(), kDerivativeAuditTolerance) << named.name << " at u = " << u << ", u̇ = " << uDot;
      }
    }
  }
}

TEST(Curves, ClosedFormsOfTheConicsAndTheHelix) {
  const CircleCurve circle(vec({1, 2}), 0.5);
  const CurvePoint c = circle.evaluate(pi / 3);
  EXPECT_LT((c.position - Eigen::Vector3d(1 + 0.5 * std::cos(pi / 3), 2 + 0.5 * std::sin(pi / 3), 0)).norm(), 1e-15);
  EXPECT_NEAR(c.tangent.dot(c.position - Eigen::Vector3d(1, 2, 0)), 0.0, 1e-15);
  const EllipseCurve ellipse(vec({0, 0}), 3.0, 2.0);
  EXPECT_LT((ellipse.evaluate(0).position - Eigen::Vector3d(3, 0, 0)).norm(), 1e-15);
  EXPECT_LT((ellipse.evaluate(pi / 2).position - Eigen::Vector3d(0, 2, 0)).norm(), 1e-15);
  // A 3D circle with the default normal ẑ is the 2D circle in the plane z = center z.
  const CircleCurve flat(vec({1, 2, 3}), 0.5);
  EXPECT_LT((flat.evaluate(0.3).position - Eigen::Vector3d(1 + 0.5 * std::cos(0.3), 2 + 0.5 * std::sin(0.3), 3)).norm(),
            1e-15);
  // The default helix climbs ŷ by the pitch per turn and keeps its radius about the y axis.
  const HelixCurve helix(vec({0, 0, 0}), 2.0, 0.5);
  for (const double u : {0.0, 1.0, 2 * pi, 7.5}) {
    const Eigen::Vector3d x = helix.evaluate(u).position;
    EXPECT_NEAR(x.y(), 0.5 * u / (2 * pi), 1e-14);
    EXPECT_NEAR(std::hypot(x.x(), x.z()), 2.0, 1e-14);
    EXPECT_NEAR(helix.evaluate(u).tangent.norm(), std::hypot(2.0, 0.5 / (2 * pi)), 1e-14);
  }
  // A line's parameter is arc length along the unit direction.
  const LineCurve line(vec({1, 1}), vec({3, 4}));
  EXPECT_LT((line.evaluate(5.0).position - Eigen::Vector3d(4, 5, 0)).norm(), 1e-15);
}

TEST(Curves, SplinesInterpolateTheirPointsAndAreTwiceDifferentiable) {
  for (const bool closed : {false, true}) {
    const auto points = wigglyPoints(3, 6);
    const SplineCurve spline(points, closed);
    double u = 0.0;
    for (std::size_t k = 0; k < points.size(); ++k) {
      EXPECT_LT((spline.evaluate(u).position - points[k]).norm(), 1e-12) << "point " << k;
      // c, c' and c'' are continuous across the knot (C²); c''' may jump.
      const CurvePoint left = spline.evaluate(u - 1e-9), right = spline.evaluate(u + 1e-9);
      EXPECT_LT((left.position - right.position).norm(), 1e-8);
      EXPECT_LT((left.tangent - right.tangent).norm(), 1e-7);
      EXPECT_LT((left.curvature - right.curvature).norm(), 1e-6);
      if (k + 1 < points.size()) u += (points[k + 1] - points[k]).norm();
    }
    if (closed) {
      const double T = spline.length();
      EXPECT_NEAR(T, u + (points.front() - points.back()).norm(), 1e-12);
      for (const double s : {0.3, 2.1}) {
        EXPECT_LT((spline.evaluate(s).position - spline.evaluate(s + T).position).norm(), 1e-12);
        EXPECT_LT((spline.evaluate(s).curvature - spline.evaluate(s - 2 * T).curvature).norm(), 1e-9);
      }
    } else {
      // Natural ends: no curvature, and the continuation is straight.
      EXPECT_LT(spline.evaluate(0.0).curvature.norm(), 1e-12);
      EXPECT_LT(spline.evaluate(spline.length()).curvature.norm(), 1e-12);
      const CurvePoint end = spline.evaluate(spline.length());
      EXPECT_LT((spline.evaluate(spline.length() + 2.0).position - (end.position + 2.0 * end.tangent)).norm(), 1e-12);
    }
  }
}

TEST(Curves, BadSplinesAndCurvesAreRejected) {
  auto expectInvalid = [](const std::function<void()>& f, const std::string& what) {
    try {
      f();
      ADD_FAILURE() << "expected std::invalid_argument mentioning '" << what << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  expectInvalid([] { SplineCurve({vec({0, 0})}, false); }, "at least 2 points");
  expectInvalid([] { SplineCurve({vec({0, 0}), vec({1, 0})}, true); }, "at least 3 points");
  expectInvalid([] { SplineCurve({vec({0, 0}), vec({1, 0}), vec({1, 0})}, false); }, "points 1 and 2 coincide");
  expectInvalid([] { SplineCurve({vec({0, 0}), vec({1, 0}), vec({0, 0})}, true); }, "points 2 and 0 coincide");
  expectInvalid([] { SplineCurve({vec({0, 0}), vec({1, 0, 0})}, false); }, "point 1 has 3 components");
  expectInvalid([] { SplineCurve({vec({0, NAN}), vec({1, 0})}, false); }, "finite");
  expectInvalid([] { CircleCurve(vec({0, 0}), -1.0).validate(); }, "circle radius");
  expectInvalid([] { EllipseCurve(vec({0, 0}), 1.0, 0.0).validate(); }, "semi-axis b");
  expectInvalid([] { LineCurve(vec({0, 0}), vec({0, 0})).validate(); }, "direction");
  expectInvalid([] { HelixCurve(vec({0, 0}), 1.0, 1.0).validate(); }, "helix center");
  expectInvalid([] { HelixCurve(vec({0, 0, 0}), 1.0, 1.0, Eigen::Vector3d::Zero()).validate(); }, "axis");
  Model model(2);
  expectInvalid([&] { model.addBody(std::make_unique<Bead>(std::make_shared<HelixCurve>(vec({0, 0, 0}), 1.0, 1.0), 1.0), vec({0})); },
                "is 3D but the model is 2D");
  expectInvalid([&] { model.addBody(std::make_unique<Bead>(std::make_shared<CircleCurve>(vec({0, 0}), 1.0), 0.0), vec({0})); },
                "bead mass");
  expectInvalid([&] { model.addBody(std::make_unique<Bead>(std::make_shared<CircleCurve>(vec({0, 0}), 1.0), 1.0), vec({0, 1})); },
                "needs 1 coordinates");
  expectInvalid([] { Bead(nullptr, 1.0); }, "needs a curve");
  EXPECT_EQ(model.bodyCount(), 0u) << "failed additions must leave nothing behind";
}

// A bead whose J̇ has the wrong sign: the body audit must flag it, or the audits above could
// not fail.
class WrongBead final : public Body {
 public:
  std::string_view type() const override { return "wrong"; }
  int coordinateCount() const override { return 1; }
  int pointCount() const override { return 1; }
  double pointMass(int) const override { return 1.0; }
  void validate(int) const override {}
  void pointKinematics(const Site&, BodyCoordinates q, BodyCoordinates v, PointKinematics& out) const override {
    const CurvePoint c = circle_.evaluate(q[0]);
    out.position = c.position;
    out.velocity = c.tangent * v[0];
    out.jacobian = c.tangent;
    out.jacobianDot = -c.curvature * v[0];
  }

 private:
  CircleCurve circle_{vec({0, 0}), 1.0};
};

// A spline's curvature has a kink at every knot, so a central difference of c' across a knot
// errs by O(ε); the audit's one-sided differences must still pass a correct bead sitting on one.
TEST(Curves, TheBodyAuditPassesABeadSittingOnASplineKnot) {
  const auto square = std::make_shared<SplineCurve>(
      std::vector<Eigen::VectorXd>{vec({0, 0}), vec({0.1, 0}), vec({0.1, 0.1}), vec({0, 0.1})}, true);
  const Bead bead(square, 1.0);
  for (const double knot : {0.0, 0.1, 0.2}) {
    const DerivativeAuditResult r = auditBody(bead, 0, vec({knot}), vec({1.0}));
    EXPECT_LT(r.worst(), kDerivativeAuditTolerance) << "knot at u = " << knot;
  }
}

// A bead whose mass matrix override forgets a factor: the mass-terms audit must notice.
class BeadWithWrongMass final : public Body {
 public:
  std::string_view type() const override { return "heavy"; }
  int coordinateCount() const override { return 1; }
  int pointCount() const override { return 1; }
  double pointMass(int) const override { return 2.0; }
  void validate(int) const override {}
  void pointKinematics(const Site&, BodyCoordinates q, BodyCoordinates v, PointKinematics& out) const override {
    inner_.pointKinematics(0, q, v, out);
  }
  void massMatrix(BodyCoordinates q, Eigen::Ref<Eigen::MatrixXd> M) const override {
    M(0, 0) = circle_->evaluate(q[0]).tangent.squaredNorm();  // should be 2 |c'|²
  }

 private:
  std::shared_ptr<CircleCurve> circle_ = std::make_shared<CircleCurve>(vec({0, 0}), 1.5);
  Bead inner_{circle_, 2.0};
};

TEST(Curves, TheBodyAuditCatchesAWrongMassMatrix) {
  const DerivativeAuditResult r = auditBody(BeadWithWrongMass(), 0, vec({0.4}), vec({1.5}));
  EXPECT_LT(r.jacobianDot, kDerivativeAuditTolerance);
  EXPECT_GT(r.massTerms, 0.1);
  EXPECT_THROW((void)auditBody(BeadWithWrongMass(), 1, vec({0.4}), vec({1.5})), std::invalid_argument);
  EXPECT_THROW((void)auditBody(BeadWithWrongMass(), 0, vec({0.4, 1}), vec({1.5, 1})), std::invalid_argument);
}

TEST(Curves, TheBodyAuditCatchesAWrongJacobianDot) {
  const DerivativeAuditResult r = auditBody(WrongBead(), 0, vec({0.4}), vec({1.5}));
  EXPECT_LT(r.jacobian, kDerivativeAuditTolerance);
  EXPECT_LT(r.velocity, kDerivativeAuditTolerance);
  EXPECT_GT(r.jacobianDot, 0.1);
  EXPECT_GT(r.acceleration, 0.1);
}

// ---- the chain -------------------------------------------------------------------------

TEST(Chain, PositionsFollowTheAbsoluteAngleConvention) {
  const Chain chain(vec({1, 2}), {1.0, 0.5, 2.0}, {1.0, 1.0, 1.0});
  // All links hanging straight down: θ = 0.
  PointKinematics k;
  chain.pointKinematics(2, vec({0, 0, 0}), vec({0, 0, 0}), k);
  EXPECT_LT((k.position - Eigen::Vector3d(1, 2 - 3.5, 0)).norm(), 1e-15);
  // θ = π/2 points along +x, counter-clockwise from down; θ = −π/2 along −x.
  chain.pointKinematics(1, vec({pi / 2, -pi / 2, 0}), vec({0, 0, 0}), k);
  EXPECT_LT((k.position - Eigen::Vector3d(1 + 1.0 - 0.5, 2, 0)).norm(), 1e-15);
  // Angles are absolute: link 2 at θ = π points straight up whatever link 1 does.
  chain.pointKinematics(2, vec({0.3, 1.1, pi}), vec({0, 0, 0}), k);
  PointKinematics elbow;
  chain.pointKinematics(1, vec({0.3, 1.1, pi}), vec({0, 0, 0}), elbow);
  EXPECT_LT((k.position - elbow.position - Eigen::Vector3d(0, 2.0, 0)).norm(), 1e-14);
}

TEST(Chain, KinematicsAndMassMatrixPassTheirChecks) {
  const Chain chain(vec({0.2, -0.1}), {1.0, 0.7, 1.3, 0.4}, {2.0, 1.0, 0.5, 1.5});
  const Eigen::VectorXd q = vec({0.3, -1.2, 2.5, 0.9}), v = vec({1.1, -0.4, 2.0, -3.0});
  for (int i = 0; i < chain.pointCount(); ++i) {
    EXPECT_LT(auditBody(chain, i, q, v).worst(), kDerivativeAuditTolerance) << "point " << i;
  }
  // M_jk = L_j L_k cos(θ_j − θ_k) Σ_{i ≥ max(j,k)} m_i (the closed form in chain.hpp).
  Eigen::MatrixXd M(4, 4);
  chain.massMatrix(q, M);
  const std::vector<double> L = chain.lengths(), m = chain.masses();
  for (int j = 0; j < 4; ++j) {
    for (int k = 0; k < 4; ++k) {
      double tail = 0.0;
      for (int i = std::max(j, k); i < 4; ++i) tail += m[static_cast<std::size_t>(i)];
      const double expected = L[static_cast<std::size_t>(j)] * L[static_cast<std::size_t>(k)] * std::cos(q[j] - q[k]) * tail;
      EXPECT_NEAR(M(j, k), expected, 1e-13) << j << ", " << k;
    }
  }
  // T = ½ q̇ᵀ M q̇ equals the sum of the point masses' kinetic energies.
  EXPECT_NEAR(0.5 * v.dot(M * v), chain.kineticEnergy(q, v), 1e-12);
}

// The generalized inertial force −Σ m_i J_iᵀ J̇_i q̇ is eq. 13's velocity term: with no applied
// force, M q̈ = that term, and the resulting point accelerations must do no net work against
// the Lagrangian: d/dt T = q̇ᵀ M q̈ + ½ q̇ᵀ Ṁ q̇ = 0. Ṁ comes from differences of M along q̇.
TEST(Chain, InertialForceConservesKineticEnergy) {
  const Chain chain(vec({0, 0}), {1.0, 0.7, 1.3}, {2.0, 1.0, 0.5});
  const Eigen::VectorXd q = vec({0.3, -1.2, 2.5}), v = vec({1.1, -0.4, 2.0});
  Eigen::MatrixXd M(3, 3), ahead(3, 3), behind(3, 3);
  chain.massMatrix(q, M);
  chain.massMatrix(q + kStep * v, ahead);
  chain.massMatrix(q - kStep * v, behind);
  const Eigen::MatrixXd Mdot = (ahead - behind) / (2 * kStep);
  Eigen::VectorXd Q = Eigen::VectorXd::Zero(3);
  chain.addInertialForce(q, v, Q);
  const Eigen::VectorXd qddot = M.ldlt().solve(Q);
  EXPECT_NEAR(v.dot(M * qddot) + 0.5 * v.dot(Mdot * v), 0.0, 1e-8);
  EXPECT_GT(Q.norm(), 1.0) << "the test needs a non-trivial velocity term";
}

TEST(Chain, BadChainsAreRejected) {
  Model model(2);
  auto add = [&](std::vector<double> L, std::vector<double> m, Eigen::VectorXd q) {
    model.addBody(std::make_unique<Chain>(vec({0, 0}), std::move(L), std::move(m)), q);
  };
  EXPECT_THROW(add({}, {}, Eigen::VectorXd()), std::invalid_argument);
  EXPECT_THROW(add({1, 1}, {1}, vec({0, 0})), std::invalid_argument);
  EXPECT_THROW(add({1, -1}, {1, 1}, vec({0, 0})), std::invalid_argument);
  EXPECT_THROW(add({1, 1}, {1, 0}, vec({0, 0})), std::invalid_argument);
  EXPECT_THROW(add({1, 1}, {1, 1}, vec({0})), std::invalid_argument);
  EXPECT_THROW(add({1, 1}, {1, 1}, vec({0, NAN})), std::invalid_argument);
  EXPECT_THROW(add(std::vector<double>(65, 1.0), std::vector<double>(65, 1.0), Eigen::VectorXd::Zero(65)),
               std::invalid_argument);
  EXPECT_EQ(model.bodyCount(), 0u);
}

}  // namespace
}  // namespace tinkertoy
