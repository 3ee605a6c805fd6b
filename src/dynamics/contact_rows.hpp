// The exact mode's rows (docs/theory.md, "The exact mode"): a ConstraintSystem's rows, then the
// contacts', stacked in one block-sparse J so that GlobalVelocitySolve solves them all at once,
// with the joints' rows keeping their indices 0 … m − 1.
//
// Impulses (ContactImpulseRows). The points of one manifold (the ContactSolver's points in a
// row with the same bodies a, b and normal n, from a to b) give a normal row each and one
// friction row for them all, after the system's m rows:
//
//   normal k    J_n = [−nᵀ, −r_a × n | nᵀ, r_b × n]   λ_n ≥ 0                  w = J_n v + b_n
//   friction    J_t = [−tᵀ, −r̄_a × t | tᵀ, r̄_b × t]   |λ_t| ≤ μ Σ_k λ_n,k       w = J_t v
//
// with t = (n_y, −n_x), r_a, r_b the arms from the centers to point k and r̄ their mean over the
// manifold (J_n v is the normal component of the points' relative velocity
// v_b + ω_b × r_b − v_a − ω_a × r_a; a particle has no ω column). One friction row per manifold,
// not per point: the points of a face lie along t, so their friction rows would be the same row
// twice, a singular system; in 2D the face's friction is one force along t, which Coulomb's law
// bounds by μ times the face's normal force. The impulse is shared among the points in
// proportion to their normal impulses for the reports, so each point keeps |λ_t,k| ≤ μ λ_n,k.
// The solve drives w to 0 on the rows inside their bounds and keeps w ≥ 0 (normal at 0), w ≤ 0
// (friction at +μ Σ λ_n) or w ≥ 0 (at −μ Σ λ_n) on the rows at one: complementarity, which for the
// friction row is Coulomb's law in 2D (the cone is the box |λ_t| ≤ μ λ_n, whose bounds move with
// λ_n: kCoupledBounds). The normal row's bias:
//   b_n = s/h   for a gap s > 0: the gap may close within the substep, not more;
//   b_n = 0     for a touch or a penetration: no approach (the projection removes a penetration);
//   b_n = e v_n⁰ after restitute(), for a point that pushes and approached faster than the
//               threshold before the solve (v_n⁰ < −v_min): it leaves at −e v_n⁰, Newton's law.
//
// Projection (ContactProjectionRows). Two rows per manifold the finder found (its two possible
// points, "slots"), after the system's: C = the separation s the narrowphase measures at q
// (ContactFinder::collideAgain), an inequality C ≥ 0, and J = J_n at that point. A slot keeps
// the point of the same features (id) from one evaluation to the next; one whose point is gone
// (the manifold has fewer points there) takes no part. J_n is ∂s/∂q exactly: for a face
// contact, s = n(θ_ref) · (x_B − x_A) with x_B − x_A = s n, so the turn of n contributes
// s n⊥ · n = 0, and the arm to the midpoint differs from the arm to the face by s/2 n, which
// n · (ω × ·) does not see; for two round features n follows the line of their centers and s
// is that distance less the radii.
//
//   ContactImpulseRows rows;
//   if (rows.prepare(system, targets, contacts)) solver.analyze(...);   // a new layout
//   rows.gather(jointImpulses, contacts, lambda); solve; rows.scatter(lambda, jointImpulses, contacts);
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/contact_finder.hpp"
#include "tinkertoy/dynamics/contact_solver.hpp"
#include "tinkertoy/dynamics/velocity_targets.hpp"
#include "tinkertoy/math/block_diagonal_matrix.hpp"

namespace tinkertoy {

// The joints' rows and then rows on two bodies each, in one J with the row-by-row access the
// active-set solve needs.
class StackedRows {
 public:
  [[nodiscard]] Eigen::Index rows() const { return J_.rows(); }
  [[nodiscard]] const BlockSparseMatrix& jacobian() const { return J_; }
  [[nodiscard]] RowKind kind(Eigen::Index r) const { return kinds_[static_cast<std::size_t>(r)]; }
  // J_r v.
  [[nodiscard]] double velocity(Eigen::Index r, const Eigen::VectorXd& v) const;
  // v += W J_rᵀ δ.
  void apply(const BlockDiagonalMatrix& W, Eigen::Index r, double delta, Eigen::VectorXd& v) const;
  // Forget the layout (the system's changed).
  void invalidate() { pairs_.clear(), J_.reset(0, 0); }

 protected:
  // Lays out the system's rows, then one row per entry of extraPairs_ (the dense bodies a, b it
  // joins), of the kind extraKinds_ gives; returns whether the layout differs from the last one.
  bool layout(const ConstraintSystem& system, const ContactSolver& contacts);
  // Copies the system's J into its rows, and writes row r's entries on its two bodies:
  // −(d, r_a × d) on a, (d, r_b × d) on b (no ω entry for a body that does not turn).
  void copyJoints(const ConstraintSystem& system);
  void writeRow(Eigen::Index r, const Eigen::Vector2d& d, const Eigen::Vector2d& rA, const Eigen::Vector2d& rB);
  void zeroRow(Eigen::Index r);

  Eigen::Index jointRows_ = 0;
  // The rows after the system's, as the derived class fills them before layout().
  std::vector<std::pair<std::size_t, std::size_t>> extraPairs_;
  std::vector<RowKind> extraKinds_;

 private:
  struct Entry {
    std::size_t value = 0;  // the first of the row's entries in J.values()
    Eigen::Index column = 0;
    int width = 0;
  };
  BlockSparseMatrix J_;
  std::vector<RowKind> kinds_;
  std::vector<std::pair<std::size_t, std::size_t>> pairs_;  // of the extra rows, as laid out
  std::vector<Entry> entries_;                              // by row
  std::vector<std::size_t> rowStart_;                       // [rows + 1] into entries_
  std::vector<std::size_t> nextEntry_;                      // scratch of layout()
  std::vector<std::array<std::size_t, 2>> extraValues_;     // an extra row's entries on a and b
  std::vector<std::array<int, 2>> extraWidths_;
};

class ContactImpulseRows : public StackedRows {
 public:
  static constexpr bool kCoupledBounds = true;  // friction's bounds follow λ_n

  // The rows for the system as evaluated (its velocity targets) and the contact points as
  // prepared. Returns whether the layout changed (the solver must analyze it).
  bool prepare(const ConstraintSystem& system, const VelocityTargets& targets, const ContactSolver& contacts);
  // The bounds of row r's accumulated impulse, the friction rows' from the λ_n in `lambda`.
  [[nodiscard]] std::pair<double, double> bounds(Eigen::Index r, const Eigen::VectorXd& lambda) const;
  [[nodiscard]] double bias(Eigen::Index r) const { return bias_[r]; }
  // λ of every row, from the joints' impulses and the points'; and back.
  void gather(const Eigen::VectorXd& joints, const ContactSolver& contacts, Eigen::VectorXd& lambda) const;
  void scatter(const Eigen::VectorXd& lambda, Eigen::VectorXd& joints, ContactSolver& contacts) const;
  // The points that push (λ_n > 0) and approached faster than their threshold aim at −e v_n⁰
  // from now on; returns whether there are any.
  bool restitute(const ContactSolver& contacts, const Eigen::VectorXd& lambda);

 private:
  struct Face {  // a manifold's points
    std::size_t first = 0, count = 0;  // its points
    Eigen::Index normalRow = 0;        // its first normal row; the friction row follows the last
    double friction = 0.0;             // μ
  };
  [[nodiscard]] Eigen::Index frictionRow(const Face& f) const { return f.normalRow + static_cast<Eigen::Index>(f.count); }

  // The most a normal row's impulse may change its point's normal velocity beyond stopping its
  // approach, m/s: far above what a pile's weight asks (a 100-row pyramid's bottom, 4 m/s at
  // 60 Hz), and a bound where no impulse can satisfy the rows (a body squeezed between a kinematic
  // body and a wall), which then stop at it instead of running away along the solve's damped
  // near-null direction.
  static constexpr double kMostPush = 100.0;

  const VelocityTargets* targets_ = nullptr;
  Eigen::VectorXd bias_;         // [rows]
  std::vector<double> normalCap_;  // of each contact row, a normal one's upper bound
  std::vector<Face> faces_;
  std::vector<int> faceOfRow_;   // of each contact row, its face (−1 for a normal row)
};

class ContactProjectionRows : public StackedRows {
 public:
  // Two slots for each manifold the finder found, after the system's rows; gaps are measured
  // within `speculative` (m), beyond which a slot takes no part. Returns whether the layout changed.
  bool prepare(const ConstraintSystem& system, const ContactSolver& contacts, const ContactFinder& finder,
               double speculative);
  // C and J at `state`: the system's evaluated there, the slots' measured by the narrowphase.
  void evaluate(ConstraintSystem& system, const ContactSolver& contacts, const ContactFinder& finder,
                const StateView& state);
  [[nodiscard]] const Eigen::VectorXd& value() const { return C_; }
  // The system's violation for its rows, max(−s, 0) for a slot's.
  [[nodiscard]] double violation(Eigen::Index r) const;
  [[nodiscard]] double maxViolation() const;
  // Below what C an inequality row joins the projection's active set: the joints' within the
  // violation `margin` (global_velocity_solve.hpp), a slot's only once it penetrates: a gap is
  // left open, not pulled shut.
  [[nodiscard]] double activationMargin(Eigen::Index r, double margin) const { return r < jointRows_ ? margin : 0.0; }
  // Whether row r takes part at this state (a slot with a point).
  [[nodiscard]] bool present(Eigen::Index r) const { return r < jointRows_ || slots_[slotOf(r)].present; }

 private:
  struct Slot {
    std::uint32_t id = 0;  // the features of its point
    bool present = false;
  };
  [[nodiscard]] std::size_t slotOf(Eigen::Index r) const { return static_cast<std::size_t>(r - jointRows_); }

  const ConstraintSystem* system_ = nullptr;
  double speculative_ = 0.0;
  Eigen::VectorXd C_;  // [rows]
  std::vector<Slot> slots_;
};

}  // namespace tinkertoy
