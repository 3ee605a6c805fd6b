// SequentialImpulses: the velocity-level solver of seed 004 (dyn4j, Box2D): each constraint in
// turn gets the impulse that makes its rows meet their velocity targets given the current
// velocities of its bodies, and the passes are repeated to converge toward the global
// solution (projected Gauss–Seidel on J W Jᵀ λ = −J v* − b; docs/theory.md §12).
//
// Per constraint, the rows are solved in groups:
//
//   spring rows      one soft block, |λ| ≤ max force as a vector (a mouse joint's two rows)
//   motor rows       one at a time, |λ| ≤ max force · h
//   inequality rows  one at a time, λ ≥ 0
//   equality rows    one block, e × e (2 × 2 for a pin, 3 × 3 for a weld), last, so they win
//
// and the *accumulated* impulse of each row is clamped, never the increment: a row may give
// back impulse it pushed too hard with earlier in the same substep. The impulses of a substep
// warm-start the next one.
//
// Baumgarte's drift correction has a pass of its own (split impulses): the same blocks, with
// targets β C / h and impulses that start from zero every substep, solved for a pseudo velocity
// that moves the positions and is then forgotten. Kept out of the velocities, the correction
// adds no kinetic energy; kept out of the warm start, its impulses cannot pile up in redundant
// structures (a grid of pins), where β C / h has no exact solution and every pass of the
// Gauss–Seidel iteration walks λ further along the null space of J W Jᵀ.
//
// The same per-constraint blocks also correct positions: projectPositions() is the nonlinear
// Gauss–Seidel projection that moves each constraint's bodies straight back onto C = 0.
//
//   SequentialImpulses si;
//   si.build(system);                        // after the layout changed
//   si.prepare(system, W, v, h, settings);   // each substep, system evaluated at (q, v*)
//   si.warmStart(v, true);
//   for (int i = 0; i < iterations; ++i) si.solve(v);
//   u.setZero();                             // Baumgarte: the position pass
//   for (int i = 0; i < iterations; ++i) si.solve(u, SequentialImpulses::Pass::Position);
//
// A global solve (VelocityFormulation) uses the same targets, bounds and row operations, and
// these passes only for the spring rows.
#pragma once

#include <Eigen/Core>
#include <utility>
#include <vector>

#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/simulation_settings.hpp"
#include "tinkertoy/math/block_diagonal_matrix.hpp"

namespace tinkertoy {

// The most rows one constraint may have under the sequential solver.
inline constexpr int kMaxRowsPerConstraint = 6;

class SequentialImpulses {
 public:
  // Velocity: the rows' velocity targets, warm-started. Position: Baumgarte's targets, for the
  // equality and inequality rows only, from zero impulses each substep.
  enum class Pass { Velocity, Position };

  // Lays out the per-constraint groups and forgets the impulses. Throws std::invalid_argument if
  // a constraint has more than kMaxRowsPerConstraint rows, or an equality row after a row of
  // another kind (joints put their equality rows first).
  void build(const ConstraintSystem& system);

  // Prepares one substep of length h from `system` evaluated with v* (the velocities after the
  // applied forces) at the substep's start q or at the prediction q + h v*, and from C at the
  // start (`current`) and at the prediction (`predicted`) [m]: the effective masses of every row
  // group, each row's velocity target (bias) and impulse bounds, and with Baumgarte's
  // correction its position-pass target; the position pass's impulses are reset to zero.
  void prepare(const ConstraintSystem& system, const BlockDiagonalMatrix& W, const Eigen::VectorXd& v,
               const Eigen::VectorXd& current, const Eigen::VectorXd& predicted, double h,
               const VelocitySettings& settings);
  // Applies the previous substep's impulses to v (v += W Jᵀ λ), or forgets them.
  void warmStart(Eigen::VectorXd& v, bool enabled);
  // One pass over all constraints. v is the velocity, or for the position pass the pseudo
  // velocity.
  void solve(Eigen::VectorXd& v, Pass pass = Pass::Velocity);
  // One pass over the spring rows only.
  void solveSprings(Eigen::VectorXd& v);

  // Single rows of the prepared system (row: a system row): J_row v; v += W J_rowᵀ impulse; and
  // the bounds on the row's accumulated impulse in the pass (equal bounds: the row takes no part).
  [[nodiscard]] double rowVelocity(Eigen::Index row, const Eigen::VectorXd& v) const;
  void applyImpulse(Eigen::Index row, double impulse, Eigen::VectorXd& v) const;
  [[nodiscard]] std::pair<double, double> bounds(Eigen::Index row, Pass pass) const;

  // Accumulated impulses of the current substep, N·s (or N·m·s) [m]; row r of an equality
  // block wants J_r v = −bias_r.
  [[nodiscard]] Eigen::VectorXd& impulses(Pass pass = Pass::Velocity) {
    return pass == Pass::Velocity ? impulses_ : positionImpulses_;
  }
  [[nodiscard]] const Eigen::VectorXd& bias(Pass pass = Pass::Velocity) const {
    return pass == Pass::Velocity ? bias_ : positionBias_;
  }
  [[nodiscard]] bool hasSpringRows() const { return hasSprings_; }

  // Nonlinear Gauss–Seidel projection: up to `iterations` passes, each evaluating every
  // constraint at the current q in turn and moving its bodies by q += W Jᵀ δ with
  // J W Jᵀ δ = −C for its equality rows (and, for an inequality row past its bound, −C alone).
  // Stops early once the largest violation is at most `tolerance`; returns that violation.
  double projectPositions(const Model& model, ConstraintSystem& system, const BlockDiagonalMatrix& W, double time,
                          Eigen::VectorXd& q, const Eigen::VectorXd& v, int iterations, double tolerance);

 private:
  using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxRowsPerConstraint, kMaxRowsPerConstraint>;
  using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxRowsPerConstraint, 1>;

  // One constraint's rows: the leading `equality` rows form a block, the spring rows another.
  struct Group {
    std::size_t constraint = 0;
    int equality = 0;
    std::vector<int> equalityRows;  // 0 … equality − 1
    std::vector<int> springRows;   // relative row indices
    std::vector<int> singleRows;   // motor and inequality rows, solved one at a time
    std::size_t equalityMass = 0;  // first entry of K_EE⁻¹ in masses_
    std::size_t springMass = 0;    // first entry of K_SS⁻¹ in masses_
  };

  // J W for the blocks of constraint k, into JW_.
  void weighBlocks(const ConstraintSystem& system, const BlockDiagonalMatrix& W, std::size_t k);
  // K_rs = (J W Jᵀ)_rs over the constraint's blocks (relative rows).
  [[nodiscard]] double effectiveMass(const ConstraintSystem& system, std::size_t k, int r, int s) const;
  // The K⁻¹ of a set of relative rows, as a square block in masses_ at `at`.
  void invertBlock(const ConstraintSystem& system, std::size_t k, const std::vector<int>& rows, std::size_t at);
  // J_r x for relative row r of constraint k.
  [[nodiscard]] double rowTimes(const ConstraintSystem& system, std::size_t k, int r, const Eigen::VectorXd& x) const;
  // x += W J_rᵀ δ.
  void applyRow(const ConstraintSystem& system, std::size_t k, int r, double delta, Eigen::VectorXd& x) const;
  // Solves a block of rows: δ = −scale · K⁻¹ (J v + b) − impulseScale λ, clamped in norm.
  void solveBlock(const Group& g, const std::vector<int>& rows, std::size_t mass, double massScale,
                  double impulseScale, double maxImpulse, Pass pass, Eigen::VectorXd& v);
  // The soft block of a group's spring rows.
  void solveSprings(const Group& g, Eigen::VectorXd& v);

  std::vector<Group> groups_;
  std::vector<std::size_t> rowConstraint_;    // the constraint of each system row
  const ConstraintSystem* system_ = nullptr;  // the system of the last prepare()
  std::vector<double> JW_;                    // J W, laid out like J.values()
  std::vector<double> masses_;                // inverted effective-mass blocks
  Eigen::VectorXd impulses_, bias_, lower_, upper_, rowMass_;                // [m]
  Eigen::VectorXd positionImpulses_, positionBias_;                          // [m]
  Eigen::VectorXd massScale_, impulseScale_;                                 // [m], spring rows
  bool hasSprings_ = false;
};

}  // namespace tinkertoy
