// SequentialImpulses: the velocity-level solver of dyn4j's "Equality Constraints" (and Box2D): each constraint in
// turn gets the impulse that makes its rows meet their velocity targets given the current
// velocities of its bodies, and the passes are repeated to converge toward the global
// solution (projected Gauss–Seidel on J W Jᵀ λ = −J v* − b; docs/theory.md, "Sequential impulses").
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
//   si.prepare(system, W, targets);          // each substep (dynamics/velocity_targets.hpp)
//   v += W Jᵀ si.impulses();                  // warm start from the last substep's impulses
//   for (int i = 0; i < iterations; ++i) si.solve(v);
//   u.setZero();                             // Baumgarte: the position pass
//   for (int i = 0; i < iterations; ++i) si.solve(u, ImpulsePass::Position);
//
// A global solve (dynamics/global_velocity_solve.hpp) uses the same targets and bounds, and
// these passes only for the spring rows: build(system, true) lays out only those.
#pragma once

#include <Eigen/Core>
#include <utility>
#include <vector>

#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/simulation_settings.hpp"
#include "tinkertoy/dynamics/velocity_targets.hpp"
#include "tinkertoy/math/block_diagonal_matrix.hpp"
#include "tinkertoy/dynamics/sequential_kernel.hpp"

namespace tinkertoy {

// The most rows one constraint may have under the sequential solver.
inline constexpr int kMaxRowsPerConstraint = 6;

class SequentialImpulses {
 public:
  using Pass = ImpulsePass;
  // How the passes run: through SequentialKernel whenever it covers the system, or always over
  // the system's blocks (the reference the kernel is tested against).
  enum class Path { Kernel, Generic };

  explicit SequentialImpulses(Path path = Path::Kernel) : path_(path) {}

  // Lays out the per-constraint groups and forgets the impulses; with springsOnly, only the
  // spring rows (for a global solve that takes the rest). Throws std::invalid_argument if a
  // constraint has more than kMaxRowsPerConstraint rows, or an equality row after a row of
  // another kind (joints put their equality rows first).
  void build(const ConstraintSystem& system, bool springsOnly = false);

  // Prepares one substep from `system` as evaluated for it (at the substep's start q or at the
  // prediction q + h v*) and the rows' targets, which must outlive the substep: the effective
  // masses of every row group; the position pass's impulses are reset to zero.
  void prepare(const ConstraintSystem& system, const BlockDiagonalMatrix& W, const VelocityTargets& targets);
  // `passes` passes over all constraints. v is the velocity, or for the position pass the pseudo
  // velocity.
  void solve(Eigen::VectorXd& v, Pass pass = Pass::Velocity, int passes = 1);
  // One pass over the spring rows only.
  void solveSprings(Eigen::VectorXd& v);

  // Accumulated impulses of the current substep, N·s (or N·m·s) [m]; row r of an equality
  // block wants J_r v = −bias_r.
  [[nodiscard]] Eigen::VectorXd& impulses(Pass pass = Pass::Velocity) {
    return pass == Pass::Velocity ? impulses_ : positionImpulses_;
  }
  [[nodiscard]] bool hasSpringRows() const { return hasSprings_; }
  // Lets the kernel's passes share each colour among `loop`'s threads (null: the caller's
  // thread only); the results are the same bits on any number.
  void useThreads(ParallelLoop* loop) { kernel_.useThreads(loop); }
  // Whether the passes run through SequentialKernel (decided by build()).
  [[nodiscard]] bool usesKernel() const { return packed_; }

  // Nonlinear Gauss–Seidel projection: up to `iterations` passes, each evaluating every
  // constraint at the current q in turn and moving its bodies by q += W Jᵀ δ with
  // J W Jᵀ δ = −C for its equality rows (and, for an inequality row past its bound, −C alone).
  // Stops early once the largest violation is at most `tolerance`; returns that violation.
  double projectPositions(ConstraintSystem& system, const BlockDiagonalMatrix& W, double time,
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
  // One pass over all constraints, over the system's blocks.
  void sweep(Eigen::VectorXd& v, Pass pass);

  std::vector<Group> groups_;
  const ConstraintSystem* system_ = nullptr;  // the system of the last prepare()
  const VelocityTargets* targets_ = nullptr;  // and its targets
  std::vector<double> JW_;                    // J W, laid out like J.values()
  std::vector<double> masses_;                // inverted effective-mass blocks
  Eigen::VectorXd impulses_, positionImpulses_, rowMass_;  // [m]
  bool hasSprings_ = false;
  Path path_;
  ConstraintColouring colouring_;  // the order of the passes, colour by colour
  bool packed_ = false;            // the passes run through kernel_
  SequentialKernel kernel_;
};

}  // namespace tinkertoy
