// SequentialKernel: the sequential impulses' passes (SequentialImpulses;
// docs/theory.md, "Sequential impulses")
// over rows laid out for them, for the models that games and most scenes are made of:
// constraints between at most two bodies of at most three coordinates each (2D rigid bodies
// (x, y, θ), 2D and 3D particles, beads), with at most three equality rows (a rod, a pin, a
// weld) and three spring rows.
//
// At prepare time every row gets, in flat arrays indexed by the system's row (struct of arrays):
//
//   J     [6 per row]   the row against body A's three coordinates, then body B's (zero-padded)
//   W Jᵀ  [6 per row]   the same, weighed by each body's inverse mass block
//   1/K   [per row]     for motor and inequality rows, solved one at a time
//
// and every constraint its two bodies' slots and the inverse of its equality block's effective
// mass K = J W Jᵀ (1 × 1, 2 × 2 or 3 × 3) and of its spring block's. The bodies' velocities are
// copied into one array of three numbers per body for the passes, and back after them, so that a
// pass is a loop over constraints with no virtual call and no block-sparse traversal: per pin,
// two dot products of six against the bodies' velocities, a 2 × 2 product, and two updates of
// six.
//
// The arithmetic is SequentialImpulses' own, row group by row group in the same order, so both
// give the same impulses to round-off (tests/solvers/sequential_kernel_test.cpp). The order is
// the constraints' colouring's (ConstraintColouring), colour by colour; with a ParallelLoop of
// two or more threads, each colour's constraints are shared among them, and since they touch
// disjoint bodies the result is the same bits as on one thread.
//
//   if (SequentialKernel::covers(system)) {
//     kernel.build(system, colouring);               // after the layout changed
//     kernel.prepare(system, W);                     // whenever J or W changed
//     kernel.solve(targets, pass, passes, lambda, v);
//   }
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>
#include <cstdint>
#include <vector>

#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/velocity_targets.hpp"
#include "tinkertoy/math/block_diagonal_matrix.hpp"
#include "tinkertoy/dynamics/constraint_colouring.hpp"

namespace tinkertoy {

class ParallelLoop;

class SequentialKernel {
 public:
  // The widest body and the largest row blocks the kernel lays out.
  static constexpr int kWidth = 3;
  static constexpr int kMostBlockRows = 3;

  // Whether the kernel can take every constraint of `system` (with rows laid out as
  // SequentialImpulses::build() accepts them).
  [[nodiscard]] static bool covers(const ConstraintSystem& system);

  // Lays out the constraints and bodies of `system`, which covers() must accept, to be solved in
  // the order of `colouring` (built for the same system).
  void build(const ConstraintSystem& system, const ConstraintColouring& colouring);
  // Lets the passes share each colour among `loop`'s threads (null: the caller's only).
  void useThreads(ParallelLoop* loop) { parallel_ = loop; }
  // J, W Jᵀ and the effective masses' inverses at the Jacobian the system holds.
  void prepare(const ConstraintSystem& system, const BlockDiagonalMatrix& W);
  // `passes` passes over every constraint toward `targets` for `pass`, updating the accumulated
  // impulses lambda [m] and the velocities v [n] (the pseudo velocity for the position pass).
  void solve(const VelocityTargets& targets, ImpulsePass pass, int passes, Eigen::VectorXd& lambda,
             Eigen::VectorXd& v);

 private:
  static constexpr std::int32_t kNoBody = -1;
  // The fewest constraints worth a thread's share of a colour: handing a share to another core
  // costs what solving about a hundred pins does (bench/RESULTS.md, "Figures behind the code's
  // thresholds").
  static constexpr std::size_t kMinimumShare = 128;
  static constexpr int kRowStride = 2 * kWidth;  // J and W Jᵀ entries per row

  // One pass of the velocity (or position) pass over every constraint.
  template <ImpulsePass pass>
  void sweep(const VelocityTargets& targets, double* lambda);
  // Constraint c's rows, all groups, in a pass.
  template <ImpulsePass pass>
  void solveConstraint(std::size_t c, const VelocityTargets& targets, double* lambda);
  // The equality block of constraint c, of `size` rows.
  template <int size>
  void solveEqualities(std::size_t c, const double* bias, double massScale, double impulseScale, double* lambda);
  // Constraint c's spring block, soft and bounded in norm.
  void solveSprings(std::size_t c, const VelocityTargets& targets, double* lambda);
  // Constraint c's motor and inequality rows, one at a time, clamped to their bounds.
  void solveSingles(std::size_t c, const VelocityTargets& targets, ImpulsePass pass, double* lambda);
  // Constraint c's two bodies' velocities in velocity_; a missing body B is `none`, three zeros
  // of the caller's (its J and W Jᵀ entries are zero: nothing reads or moves it).
  struct Bodies {
    double* a;
    double* b;
  };
  [[nodiscard]] Bodies bodies(std::size_t c, double* none);

  ConstraintColouring colouring_;
  ParallelLoop* parallel_ = nullptr;
  // Per constraint.
  std::vector<std::int32_t> bodyA_, bodyB_;   // slots in velocity_ (kNoBody: none)
  std::vector<Eigen::Index> firstRow_;        // the system's row
  std::vector<std::uint8_t> equalities_;      // equality rows, first
  std::vector<std::uint8_t> others_;          // rows after them
  std::vector<std::uint8_t> springMask_;      // which of those are spring rows (bit i: row e + i)
  std::vector<std::size_t> equalityMass_;     // K_EE⁻¹ in masses_, column-major
  std::vector<std::size_t> springMass_;       // K_SS⁻¹ in masses_
  std::vector<double> masses_;
  // Per row.
  std::vector<double> jacobian_, weighted_;   // [kRowStride × m]
  std::vector<double> rowMass_;               // 1 / K_rr for the rows solved one at a time
  // Per body slot: its columns in v and the velocities of the passes.
  std::vector<Eigen::Index> column_;
  std::vector<int> width_;
  std::vector<double> velocity_;  // [kWidth × slots]
};

// K⁻¹ of an effective mass K = J W Jᵀ (symmetric positive semi-definite), column-major into
// `out`; zero if K is singular (rows no body can move get no impulse instead of an infinite one).
template <typename Matrix>
void invertEffectiveMass(const Matrix& K, double* out) {
  Eigen::Map<Eigen::Matrix<double, Matrix::RowsAtCompileTime, Matrix::ColsAtCompileTime>> inverse(out, K.rows(),
                                                                                                  K.cols());
  const Eigen::LDLT<Matrix> ldlt(K);
  const double scale = K.diagonal().cwiseAbs().maxCoeff();
  if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().cwiseAbs().minCoeff() > 1e-12 * scale)) {
    inverse.setZero();
    return;
  }
  if constexpr (Matrix::RowsAtCompileTime != Eigen::Dynamic) {
    inverse = K.inverse();  // cofactors: a 2 × 2 or 3 × 3 block needs no triangular solves
  } else {
    inverse = ldlt.solve(Matrix::Identity(K.rows(), K.cols()));
  }
}

}  // namespace tinkertoy
