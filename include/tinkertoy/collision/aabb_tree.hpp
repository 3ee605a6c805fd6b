// AabbTree: a dynamic bounding-volume tree of boxes (the broadphase's, after Box2D's
// b2DynamicTree and Bullet's btDbvt). Leaves hold the boxes; every inner node holds the box
// around its two children. A query descends only into nodes whose box overlaps the query's, so
// finding what overlaps one box costs about log n for n boxes of similar sizes.
//
// Insertion walks down from the root toward the sibling that enlarges the tree least (the sum of
// the half perimeters of the boxes it changes, the surface-area heuristic in 2D) and joins the new
// leaf to it under a new inner node. Insertion and removal then walk back up, refitting boxes and
// turning any node whose children's heights differ by more than one (a single AVL rotation), so
// the tree stays within a small multiple of log₂ n deep whatever the order of insertion.
//
//   AabbTree tree;
//   const int proxy = tree.insert(box, 7);       // 7: the caller's number for it
//   tree.query(area, [&](int p) { hits.push_back(tree.user(p)); return true; });
//   tree.remove(proxy);
#pragma once

#include <vector>

#include "tinkertoy/collision/aabb.hpp"

namespace tinkertoy {

class AabbTree {
 public:
  // Adds a leaf with `box`; returns its proxy, valid until it is removed.
  int insert(const Aabb& box, int user);
  void remove(int proxy);
  [[nodiscard]] const Aabb& box(int proxy) const { return nodes_[proxy].box; }
  [[nodiscard]] int user(int proxy) const { return nodes_[proxy].user; }

  // Calls visit(proxy) for every leaf whose box overlaps `area`, until visit returns false.
  // Returns the number of nodes it looked at (a measure of the query's cost).
  template <class Visit>
  int query(const Aabb& area, Visit&& visit) const;

  // The root's height: 0 for one leaf, about log₂ n for n.
  [[nodiscard]] int height() const { return root_ < 0 ? 0 : nodes_[root_].height; }
  [[nodiscard]] int leafCount() const { return leaves_; }
  // Throws std::logic_error if a node's box does not hold its children's, or a parent link or a
  // height is wrong.
  void validate() const;

 private:
  struct Node {
    Aabb box;
    int parent = -1;
    int child1 = -1, child2 = -1;  // -1: a leaf
    int height = 0;                // 0 for a leaf
    int user = -1;
    [[nodiscard]] bool isLeaf() const { return child1 < 0; }
  };

  int allocate();
  void release(int node);
  void insertLeaf(int leaf);
  void removeLeaf(int leaf);
  // Refits boxes and heights from `node` to the root, rotating where the tree leans.
  void refitUpFrom(int node);
  // Rotates `node` if one child is more than one level taller; returns the node now in its place.
  int balance(int node);
  // Puts `replacement` where `child` hangs under `parent` (or at the root if parent is −1).
  void replaceChild(int parent, int child, int replacement);
  int validate(int node) const;

  std::vector<Node> nodes_;
  mutable std::vector<int> stack_;  // query()'s scratch, kept so that a query does not allocate: one query at a time
  int root_ = -1;
  int free_ = -1;  // released nodes, linked through `parent`
  int leaves_ = 0;
};

template <class Visit>
int AabbTree::query(const Aabb& area, Visit&& visit) const {
  if (root_ < 0) return 0;
  std::vector<int>& stack = stack_;
  stack.clear();
  stack.push_back(root_);
  int visited = 0;
  while (!stack.empty()) {
    const int index = stack.back();
    stack.pop_back();
    ++visited;
    const Node& node = nodes_[index];
    if (!node.box.overlaps(area)) continue;
    if (node.isLeaf()) {
      if (!visit(index)) break;
    } else {
      stack.push_back(node.child1);
      stack.push_back(node.child2);
    }
  }
  return visited;
}

}  // namespace tinkertoy
