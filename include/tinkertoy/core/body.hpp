// Body: anything with generalized coordinates and points in the world (docs/theory.md,
// "Parametric bodies: Lagrange's equations").
//
// A body owns a slice of the model's state vectors: its coordinates q_b [n_b] and velocities
// v_b = q̇_b [n_b]. Its points have world positions x(q_b) that forces and constraints act
// on; the chain rule turns a constraint's gradient with respect to a point, ∂C/∂x, into its
// Jacobian block with respect to the body, ∂C/∂q_b = ∂C/∂x · ∂x/∂q_b. This is what lets one
// distance constraint join particles, beads on wires and the masses of a reduced chain
// (Witkin–Gleicher–Welch's hybrid models, Witkin, "Constrained Dynamics", §5.1).
//
// The kinds of body:
//
//   particle  q_b = x itself [d], one point, M = m I                (model/particle.hpp)
//   bead      q_b = u [1], a bead on a parametric wire x = c(u)     (model/bead.hpp)
//   chain     q_b = joint angles [N], N point masses                (model/chain.hpp)
//
// For a body whose points move nonlinearly with q_b, Lagrange's equation in q_b is Witkin, "Constrained Dynamics"
// eq. 13 (docs/theory.md, "Parametric bodies: Lagrange's equations"):
//
//   M(q) q̈ = Σ_i J_iᵀ f_i − Σ_i m_i J_iᵀ J̇_i q̇,    M(q) = Σ_i m_i J_iᵀ J_i
//
// where J_i = ∂x_i/∂q_b and f_i is the applied force on point i. The defaults below evaluate
// these sums from pointKinematics() and pointMass(); a body overrides them only to be faster.
//
//   const Body& body = model.body(arm);
//   PointKinematics k;
//   body.pointKinematics(2, q_b, v_b, k);   // k.position, k.jacobian [3 × n_b], ...
#pragma once

#include <Eigen/Core>
#include <string_view>

#include "tinkertoy/core/body_settings.hpp"
#include "tinkertoy/core/handles.hpp"
#include "tinkertoy/math/block_sparse_matrix.hpp"

namespace tinkertoy {

// The most coordinates one body may have; bounds the stack storage of a point's Jacobian
// and the width of the body's Jacobian blocks.
inline constexpr int kMaxBodyCoordinates = kMaxBlockWidth;

// Where on a body a point sits: the body's index-th point (a chain's masses are its points
// 0 … N−1; a particle or bead has just point 0) and, for a body with a frame (a rigid body),
// an offset `local` in that frame. Like MuJoCo's sites.
struct Site {
  int index = 0;
  Eigen::Vector2d local = Eigen::Vector2d::Zero();

  Site() = default;
  Site(int i) : index(i) {}  // NOLINT(google-explicit-constructor): a bare index is a site
  explicit Site(const Eigen::Vector2d& offset) : local(offset) {}
  friend bool operator==(const Site&, const Site&) = default;
};

// A point of a body: a particle's position, a bead, a chain's index-th mass, or a point fixed
// in a rigid body.
struct BodyPoint {
  BodyId body;
  Site site;

  BodyPoint() = default;
  // A body converts to its first point, so a particle id names the particle's position.
  BodyPoint(BodyId b, int index = 0) : body(b), site(index) {}  // NOLINT(google-explicit-constructor)
  // A point at `local` in a rigid body's frame.
  BodyPoint(BodyId b, const Eigen::Vector2d& local) : body(b), site(local) {}
  friend bool operator==(const BodyPoint&, const BodyPoint&) = default;
};

using PointJacobian = Eigen::Matrix<double, 3, Eigen::Dynamic, Eigen::ColMajor, 3, kMaxBodyCoordinates>;
using AngleJacobian = Eigen::Matrix<double, 1, Eigen::Dynamic, Eigen::RowMajor, 1, kMaxBodyCoordinates>;
using BodyCoordinates = Eigen::Ref<const Eigen::VectorXd>;
// A vector of one body's coordinates on the stack, for scratch that must not allocate.
using BodyVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxBodyCoordinates, 1>;

// The motion of one point at one state. In 2D every z component is zero. A point of a body
// with a frame (a rigid body) also has the frame's angle φ about z, so that constraints can
// act on orientations (weld, angle joint); for other bodies `oriented` is false and the angle
// fields are left alone.
struct PointKinematics {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  // x
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();  // ẋ = J q̇_b
  PointJacobian jacobian;                              // J = ∂x/∂q_b  [3 × n_b]
  PointJacobian jacobianDot;                           // J̇ = dJ/dt    [3 × n_b]
  bool oriented = false;
  double angle = 0.0;            // φ, rad
  double angularVelocity = 0.0;  // φ̇ = J_φ q̇_b
  AngleJacobian angleJacobian;     // J_φ = ∂φ/∂q_b  [1 × n_b]
  AngleJacobian angleJacobianDot;  // J̇_φ            [1 × n_b]
};

class Body {
 public:
  virtual ~Body() = default;

  // The scene-file type name: "particle", "bead", "chain", "rigid".
  [[nodiscard]] virtual std::string_view type() const = 0;
  // What the body is made of, as plain data (core/body_settings.hpp): makeBody(settings()) builds
  // an equal body. A body defined outside the library has none (std::monostate).
  [[nodiscard]] virtual BodySettings settings() const { return std::monostate{}; }
  // n_b, the size of the body's slices of q and v (at most kMaxBodyCoordinates).
  [[nodiscard]] virtual int coordinateCount() const = 0;
  // Points are numbered 0 .. pointCount() − 1.
  [[nodiscard]] virtual int pointCount() const = 0;
  // Whether the body has a frame: then sites may have local offsets and points an angle.
  [[nodiscard]] virtual bool hasFrame() const { return false; }
  // Whether the coordinates are the position of the body's one point, x = q_b (J = I, J̇ = 0),
  // as a particle's are.
  [[nodiscard]] virtual bool coordinatesArePosition() const { return false; }
  // The mass concentrated at a point, kg.
  [[nodiscard]] virtual double pointMass(int point) const = 0;
  // Throws std::invalid_argument if a parameter does not fit a model of this dimension.
  virtual void validate(int dimension) const = 0;
  // Throws std::invalid_argument if q_b (or v_b) is not a legal starting state (e.g. of the
  // wrong size).
  virtual void validateCoordinates(BodyCoordinates q) const;
  virtual void validateVelocities(BodyCoordinates v) const;

  // x, ẋ, J and J̇ (and the angle terms, for a body with a frame) of a site at (q_b, v_b).
  virtual void pointKinematics(const Site& site, BodyCoordinates q, BodyCoordinates v,
                               PointKinematics& out) const = 0;

  // ---- derived from the point masses; override only for speed ----------------------
  // Whether M is diagonal (it is for particles and rigid bodies). A diagonal M must also be
  // constant: the engine then computes W_b once per step instead of at every configuration.
  [[nodiscard]] virtual bool hasDiagonalMass() const { return false; }
  // Whether the body moves on its own (a static or kinematic rigid body): forces and
  // constraints do not move it, W_b = 0, and its velocity stays what it was given.
  [[nodiscard]] virtual bool isDriven() const { return false; }
  // M(q) = Σ m_i J_iᵀ J_i.  M: [n_b × n_b]
  virtual void massMatrix(BodyCoordinates q, Eigen::Ref<Eigen::MatrixXd> M) const;
  // Q_b −= Σ m_i J_iᵀ J̇_i q̇, the velocity-dependent (centrifugal and Coriolis) term of eq. 13.
  virtual void addInertialForce(BodyCoordinates q, BodyCoordinates v,
                                Eigen::Ref<Eigen::VectorXd> Q) const;
  // Q_b += Σ m_i J_iᵀ g, the weight in uniform gravity g.
  virtual void addWeight(const Eigen::Vector3d& g, BodyCoordinates q,
                         Eigen::Ref<Eigen::VectorXd> Q) const;
  // Q_b += J_pᵀ f, a force f applied at a site.
  virtual void addPointForce(const Site& site, const Eigen::Vector3d& f, BodyCoordinates q,
                             Eigen::Ref<Eigen::VectorXd> Q) const;
  // Σ m_i x_i, so that gravity's potential is −g · Σ m_i x_i.
  [[nodiscard]] virtual Eigen::Vector3d massMoment(BodyCoordinates q) const;
  // T = ½ q̇ᵀ M q̇ = ½ Σ m_i |ẋ_i|².
  [[nodiscard]] virtual double kineticEnergy(BodyCoordinates q, BodyCoordinates v) const;
  // Σ m_i.
  [[nodiscard]] double totalMass() const;
};

}  // namespace tinkertoy
