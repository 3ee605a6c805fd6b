// ConstraintForest: the graph of a model's bodies and constraints (Baraff's "matrix graph",
// Linear-time dynamics using Lagrange multipliers, 1996, §7) cut into a spanning forest and the
// constraints that close loops, with an elimination order for the primal–dual matrix
//
//   H = [ M   Jᵀ ]        bodies:       M_b = W_b⁻¹, one node per body that moves (W_b ≠ 0)
//       [ J  −S  ]        constraints:  one node per constraint (its rows of J), −S on the diagonal
//
// whose off-diagonal blocks are J's blocks: a constraint node meets the bodies it acts on.
//
// Eliminating a node couples all its neighbours, so in an order where every node comes before
// its parent in a tree (a postorder), each node has one later neighbour and the factorization
// creates no fill: linear time on any forest, however many joints share a body (a star, whose
// J W Jᵀ is dense). Two rules keep the pivots invertible. A constraint node must be eliminated
// after at least one of its bodies, or its pivot −S has nothing to make it definite: so a
// constraint on a single moving body (a nail, a joint to the ground) can only be the root of its
// tree, and a tree can have at most one such root; its other bodies hang below it. And a body's
// pivot M_b − Σ J_cbᵀ D_c⁻¹ J_cb stays positive definite since each D_c is negative definite.
//
// Constraints are taken in order: one joins the forest if it links bodies in different trees and
// leaves at most one rooted (single-body) constraint per tree; otherwise it closes a loop (or is
// a second tie of a tree to the world) and is *auxiliary*: its rows are solved through a dense
// Schur complement instead (TreeFactorization). Constraints with more rows come first, so that a
// loop is closed by as few rows as possible.
//
//   ConstraintForest forest = ConstraintForest::build(J, W);
//   for (const ConstraintForest::Node& node : forest.nodes()) ...   // children before parents
#pragma once

#include <Eigen/Core>
#include <vector>

#include "tinkertoy/math/block_diagonal_matrix.hpp"
#include "tinkertoy/math/block_sparse_matrix.hpp"

namespace tinkertoy {

class ConstraintForest {
 public:
  // A constraint: a group of J's rows with one block per body it touches.
  struct Constraint {
    Eigen::Index row = 0;  // first row
    int rows = 0;
    std::vector<std::size_t> blocks;  // its blocks of J on moving bodies
  };
  struct Node {
    bool isBody = false;
    std::size_t index = 0;   // the body (W's block) or the constraint (constraints()[index])
    int size = 0;            // n_b or the constraint's rows
    int parent = -1;         // node index, or −1 for a root
    std::size_t coupling = 0;  // with a parent: the J block between the node and its parent
    Eigen::Index offset = 0;   // its first entry in the primal–dual vector [bodies, constraints]
  };

  // Builds the forest of J's constraints over W's moving bodies: a block W laid out as zero is a
  // body nothing moves, which is part of the world.
  static ConstraintForest build(const BlockSparseMatrix& J, const BlockDiagonalMatrix& W);

  [[nodiscard]] const std::vector<Node>& nodes() const { return nodes_; }  // elimination order
  [[nodiscard]] const std::vector<Constraint>& constraints() const { return constraints_; }
  // The constraints that close loops, as indices into constraints().
  [[nodiscard]] const std::vector<std::size_t>& auxiliary() const { return auxiliary_; }
  // Their rows in all.
  [[nodiscard]] int auxiliaryRows() const { return auxiliaryRows_; }
  // The size of the primal–dual vector of the tree nodes.
  [[nodiscard]] Eigen::Index size() const { return size_; }
  // The node of a moving body (W's block index), or −1.
  [[nodiscard]] int nodeOfBody(std::size_t block) const { return bodyNode_[block]; }
  // Whether W's block moves (is part of the forest).
  [[nodiscard]] bool moves(std::size_t block) const { return bodyNode_[block] >= 0; }


 private:
  std::vector<Node> nodes_;
  std::vector<Constraint> constraints_;
  std::vector<std::size_t> auxiliary_;
  int auxiliaryRows_ = 0;
  Eigen::Index size_ = 0;
  std::vector<int> bodyNode_;
};

}  // namespace tinkertoy
