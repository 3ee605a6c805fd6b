// ConstraintSystem: the global constraint vectors and block-sparse matrices of a model.
//
// build() lays out the rows (constraint k owns rows [rowOffset(k), rowOffset(k) + rows_k);
// none if it is disabled or every body it touches is static or kinematic) and reserves one block of J and one of J̇ for every (constraint, body) pair, at the body's
// columns (Witkin, "Constrained Dynamics", §4.3): rows_k × n_b. evaluate() then loops over the constraints (Witkin, "Constrained Dynamics"
// §4.5): it gathers the position, velocity and Jacobian of each constraint point from its
// body, lets the constraint write C, Ċ, Ctt and its point gradients G_k, Ġ_k, and applies
// the chain rule into the body blocks (docs/theory.md,
// "Hybrid models: implicit constraints on parametric bodies"):
//
//   J_b += G_k J_k            J̇_b += Ġ_k J_k + G_k J̇_k          J_k = ∂(x_k, φ_k)/∂q_b
//
// For a particle J_k = I and J̇_k = 0, so its blocks are the gradients themselves.
//
//   C    [m]        Ċ  [m]        Ctt [m]  (d(∂C/∂t)/dt)
//   J    [m × n]    J̇  [m × n]    block-sparse, same layout
//
// Every row also has a RowKind and, for Motor and Spring rows, its RowParameters. The
// violation of a row is what the diagnostics count as error: |C| for an Equality row,
// max(0, −C) for an Inequality row (C ≥ 0 is legal), and nothing for Motor and Spring rows.
//
//   ConstraintSystem system;
//   system.build(model);
//   system.evaluate(model.state());
//   double error = system.violation().lpNorm<Eigen::Infinity>();
#pragma once

#include <Eigen/Core>
#include <array>
#include <span>
#include <vector>

#include "tinkertoy/math/block_sparse_matrix.hpp"
#include "tinkertoy/model/model.hpp"
#include "tinkertoy/core/state_view.hpp"

namespace tinkertoy {

class ParallelLoop;

class ConstraintSystem {
 public:
  // What an evaluation writes: everything; all but J̇ (the velocity level has no use for it);
  // or only C, Ċ and Ctt, leaving J and J̇ as they were.
  enum class Evaluation { Full, WithoutJacobianDot, ValuesOnly };

  // The blocks of J (and J̇) that belong to one constraint, one per body it touches.
  struct ConstraintBlocks {
    Eigen::Index row = 0;  // first row
    int rows = 0;
    std::size_t count = 0;
    std::array<std::size_t, kMaxConstraintPoints> offset{};     // first entry in J.values(), row-major
    std::array<Eigen::Index, kMaxConstraintPoints> column{};    // the body's first column
    std::array<int, kMaxConstraintPoints> width{};              // n_b
  };

  // Lays out rows and reserves blocks for the model's current constraints and bodies.
  void build(const Model& model);
  // Evaluates every constraint at `state`; on the threads of useThreads(), each constraint by
  // one thread, so the result is the same bits on any number.
  void evaluate(const StateView& state, Evaluation what = Evaluation::Full);
  // Lets evaluate() share the constraints among `loop`'s threads (null: the caller's thread
  // only). The loop must outlive the system or be replaced; build() keeps the choice.
  void useThreads(ParallelLoop* loop);
  // Evaluates constraint k only (dense index), leaving the other rows as they were.
  void evaluate(const StateView& state, std::size_t k, Evaluation what = Evaluation::Full);

  [[nodiscard]] Eigen::Index rows() const { return jacobian_.rows(); }
  [[nodiscard]] const Eigen::VectorXd& value() const { return C_; }
  [[nodiscard]] const Eigen::VectorXd& velocity() const { return Cdot_; }
  [[nodiscard]] const Eigen::VectorXd& timeTerm() const { return Ctt_; }
  [[nodiscard]] const BlockSparseMatrix& jacobian() const { return jacobian_; }
  [[nodiscard]] const BlockSparseMatrix& jacobianDot() const { return jacobianDot_; }
  [[nodiscard]] std::span<const RowKind> kinds() const { return kinds_; }
  [[nodiscard]] std::span<const RowParameters> parameters() const { return parameters_; }
  // The work ledger's entry for each row's force (Constraint::workSource; rows that touch a
  // kinematic body are Driven), and whether any row is Driven.
  [[nodiscard]] std::span<const WorkSource> workSources() const { return workSources_; }
  [[nodiscard]] bool hasDrivenRows() const { return hasDrivenRows_; }
  // Whether every row is an Equality row (Witkin's formulation needs that).
  [[nodiscard]] bool allEquality() const { return allEquality_; }

  // The error the diagnostics count: |C| (Equality), max(0, −C) (Inequality), 0 otherwise.
  [[nodiscard]] double violation(Eigen::Index row) const;
  // The same for Ċ: |Ċ| for Equality rows, and for an Inequality row at or past its bound
  // (C ≤ 0) the rate max(0, −Ċ) at which it is getting worse.
  [[nodiscard]] double velocityViolation(Eigen::Index row) const;
  // ‖violation‖∞ and ‖velocityViolation‖∞ over all rows.
  [[nodiscard]] double maxViolation() const;
  [[nodiscard]] double maxVelocityViolation() const;

  // The force and couple that constraint k applies at its point p for multipliers λ_k
  // [rows_k]: Σ_r λ_r ∂C_r/∂(x_p, φ_p), i.e. (force (N), torque about the point (N·m)) at
  // `state`. Leaves C, J and the other outputs alone.
  [[nodiscard]] Eigen::Vector4d pointForce(const Model& model, const StateView& state, std::size_t k, std::size_t p,
                                           std::span<const double> lambda);

  [[nodiscard]] std::size_t constraintCount() const { return entries_.size(); }
  // The id of the constraint at dense index k when the system was built.
  [[nodiscard]] ConstraintId constraintId(std::size_t k) const { return entries_[k].id; }
  [[nodiscard]] const ConstraintBlocks& blocks(std::size_t k) const { return entries_[k].blocks; }
  // First row of the constraint at dense index k.
  [[nodiscard]] Eigen::Index rowOffset(std::size_t k) const { return entries_[k].blocks.row; }
  // Dense index of the constraint that owns `row`.
  [[nodiscard]] std::size_t constraintOfRow(Eigen::Index row) const;

 private:
  // Where one point of a constraint lives.
  struct PointSlot {
    std::size_t body = 0;         // the body's dense index (bodies_); a body replaced by its edited settings is found there
    Eigen::Index offset = 0;      // the body's slice of q and v
    int coordinates = 0;          // n_b
    Site site;                    // the point's site on its body
    bool particle = false;        // J_k = I: gather straight from q and v
    bool direct = false;          // a particle alone in its block: G_k is written into J itself
    std::size_t block = 0;        // which of the constraint's blocks is its body's
  };
  struct Entry {
    ConstraintId id;
    const Constraint* constraint = nullptr;  // valid until the model's structure changes
    ConstraintBlocks blocks;
    std::size_t pointCount = 0;
    std::array<PointSlot, kMaxConstraintPoints> points{};
  };

  // What evaluating one constraint needs besides the system's own storage: its points and its
  // gradients G, Ġ [rows × points]. One per thread that evaluates.
  struct Scratch {
    std::array<PointKinematics, kMaxConstraintPoints> kinematics;
    std::array<Eigen::Vector3d, kMaxConstraintPoints> positions, velocities;
    std::array<double, kMaxConstraintPoints> angles{}, angularVelocities{};
    std::vector<Eigen::Vector4d> gradients, gradientDots;
  };

  // One Scratch per thread, each with room for `gradients` G and Ġ entries.
  void sizeScratch(std::size_t gradients);
  // Calls constraint k's evaluate(), noting k in an UndefinedConstraintError it throws.
  void evaluateConstraint(std::size_t k, const ConstraintInput& input, ConstraintOutput& output) const;
  // Evaluates constraint k into its rows and the blocks `what` asks for, which must be zero.
  void evaluateInto(const StateView& state, std::size_t k, Evaluation what, Scratch& scratch);
  // Gathers the points of constraint k at `state` into `scratch`; returns its input.
  ConstraintInput gather(const StateView& state, std::size_t k, int dimension, Scratch& scratch) const;
  // Adds G_k J_k into J_b and, if withJacobianDot, Ġ_k J_k + G_k J̇_k into J̇_b for point p of
  // entry e.
  void applyChainRule(const Entry& e, std::size_t p, int dimension, bool withJacobianDot, const Scratch& scratch);

  std::vector<Entry> entries_;
  const Bodies* bodies_ = nullptr;  // the model's, from build() until its structure changes
  int dimension_ = 2;
  BlockSparseMatrix jacobian_, jacobianDot_;
  Eigen::VectorXd C_, Cdot_, Ctt_;
  std::vector<RowKind> kinds_;
  std::vector<RowParameters> parameters_;
  std::vector<WorkSource> workSources_;
  bool allEquality_ = true;
  bool hasDrivenRows_ = false;
  ParallelLoop* parallel_ = nullptr;  // the threads evaluate() may use (none: the caller's)
  std::vector<Scratch> scratch_;       // [threads]
  std::vector<double> rowScratch_;  // C, Ċ, Ctt of one constraint for pointForce() [3 × widest]
  std::vector<RowParameters> rowParameterScratch_;  // and its row parameters [widest]
};

}  // namespace tinkertoy
