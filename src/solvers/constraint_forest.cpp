#include "solvers/constraint_forest.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

namespace tinkertoy {

namespace {

// Union–find over the moving bodies, each set knowing whether a single-body constraint roots it.
class Components {
 public:
  explicit Components(std::size_t count) : parent_(count), rooted_(count, false) {
    std::iota(parent_.begin(), parent_.end(), std::size_t{0});
  }
  std::size_t find(std::size_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  [[nodiscard]] bool rooted(std::size_t set) const { return rooted_[set]; }
  void root(std::size_t set) { rooted_[set] = true; }
  void join(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    parent_[b] = a;
    rooted_[a] = rooted_[a] || rooted_[b];
  }

 private:
  std::vector<std::size_t> parent_;
  std::vector<bool> rooted_;
};

}  // namespace

ConstraintForest ConstraintForest::build(const BlockSparseMatrix& J, const BlockDiagonalMatrix& W) {
  ConstraintForest forest;
  const auto blocks = J.blocks();
  const std::size_t bodies = W.blocks().size();

  // The constraints: J's row groups, in row order, each with its blocks on moving bodies.
  std::map<Eigen::Index, std::size_t> byRow;
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const auto [at, fresh] = byRow.try_emplace(blocks[k].row, forest.constraints_.size());
    if (fresh) forest.constraints_.push_back({blocks[k].row, blocks[k].rows, {}});
    if (!W.isZeroBlock(W.indexOfColumn(blocks[k].col))) forest.constraints_[at->second].blocks.push_back(k);
  }
  const auto bodyOf = [&](std::size_t block) { return W.indexOfColumn(blocks[block].col); };

  // Primary or auxiliary, the larger constraints first.
  std::vector<std::size_t> order(forest.constraints_.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return forest.constraints_[a].rows > forest.constraints_[b].rows;
  });
  Components components(bodies);
  std::vector<std::size_t> rootOf(bodies, SIZE_MAX);  // a set's single-body constraint
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> bodyEdges(bodies);  // (constraint, block)
  std::vector<bool> primary(forest.constraints_.size(), false);
  for (const std::size_t c : order) {
    const Constraint& constraint = forest.constraints_[c];
    std::vector<std::size_t> sets;
    for (const std::size_t block : constraint.blocks) sets.push_back(components.find(bodyOf(block)));
    std::vector<std::size_t> distinct = sets;
    std::sort(distinct.begin(), distinct.end());
    const bool loop = std::adjacent_find(distinct.begin(), distinct.end()) != distinct.end();
    const auto rootedSets = std::count_if(distinct.begin(), distinct.end(), [&](std::size_t s) { return components.rooted(s); });
    const bool single = sets.size() == 1;
    if (loop || rootedSets + (single ? 1 : 0) > 1) {
      forest.auxiliary_.push_back(c);
      forest.auxiliaryRows_ += constraint.rows;
      continue;
    }
    primary[c] = true;
    std::size_t root = SIZE_MAX;
    for (const std::size_t s : distinct) {
      if (components.rooted(s)) root = rootOf[s];
    }
    if (single) {
      components.root(sets.front());
      root = c;
    }
    for (std::size_t i = 1; i < sets.size(); ++i) components.join(sets.front(), sets[i]);
    if (!sets.empty()) rootOf[components.find(sets.front())] = root;
    for (const std::size_t block : constraint.blocks) bodyEdges[bodyOf(block)].emplace_back(c, block);
  }
  std::sort(forest.auxiliary_.begin(), forest.auxiliary_.end());

  // Each tree from its root: a depth-first preorder (parents before children; iterative, since
  // a chain may be thousands of nodes deep), whose reverse is the elimination order. A
  // constraint node's neighbours are its bodies; a body node's, its primary constraints.
  struct Visit {
    bool isBody;
    std::size_t index;
    std::size_t coupling;  // the block to the parent
    int parent;            // the parent's preorder position, or −1
  };
  std::vector<Visit> preorder;
  std::vector<bool> seenBody(bodies, false), seenConstraint(forest.constraints_.size(), false);
  std::vector<Visit> stack;
  const auto grow = [&](bool isBody, std::size_t index) {
    stack.push_back({isBody, index, 0, -1});
    (isBody ? seenBody : seenConstraint)[index] = true;
    while (!stack.empty()) {
      const Visit visit = stack.back();
      stack.pop_back();
      const auto position = static_cast<int>(preorder.size());
      preorder.push_back(visit);
      if (visit.isBody) {
        for (const auto& [c, block] : bodyEdges[visit.index]) {
          if (seenConstraint[c]) continue;
          seenConstraint[c] = true;
          stack.push_back({false, c, block, position});
        }
      } else {
        for (const std::size_t block : forest.constraints_[visit.index].blocks) {
          const std::size_t body = bodyOf(block);
          if (seenBody[body]) continue;
          seenBody[body] = true;
          stack.push_back({true, body, block, position});
        }
      }
    }
  };
  // Roots first: the rooted trees' single-body constraints and constraints on no moving body,
  // then every other tree from its first body.
  for (std::size_t c = 0; c < forest.constraints_.size(); ++c) {
    if (primary[c] && forest.constraints_[c].blocks.size() <= 1 && !seenConstraint[c]) grow(false, c);
  }
  for (std::size_t b = 0; b < bodies; ++b) {
    if (!seenBody[b] && !bodyEdges[b].empty()) grow(true, b);
  }
  const auto count = static_cast<int>(preorder.size());
  forest.bodyNode_.assign(bodies, -1);
  forest.nodes_.resize(preorder.size());
  for (int p = 0; p < count; ++p) {
    const Visit& visit = preorder[static_cast<std::size_t>(p)];
    Node& node = forest.nodes_[static_cast<std::size_t>(count - 1 - p)];
    node.isBody = visit.isBody;
    node.index = visit.index;
    node.size = visit.isBody ? W.blocks()[visit.index].size : forest.constraints_[visit.index].rows;
    node.coupling = visit.coupling;
    node.parent = visit.parent < 0 ? -1 : count - 1 - visit.parent;
    if (visit.isBody) forest.bodyNode_[visit.index] = count - 1 - p;
  }
  Eigen::Index offset = 0;
  for (Node& node : forest.nodes_) {
    node.offset = offset;
    offset += node.size;
  }
  forest.size_ = offset;
  return forest;
}

}  // namespace tinkertoy
