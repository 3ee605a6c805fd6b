#include "tinkertoy/collision/aabb_tree.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace tinkertoy {

int AabbTree::allocate() {
  if (free_ < 0) {
    nodes_.emplace_back();
    return static_cast<int>(nodes_.size()) - 1;
  }
  const int node = free_;
  free_ = nodes_[node].parent;
  nodes_[node] = Node{};
  return node;
}

void AabbTree::release(int node) {
  nodes_[node].parent = free_;
  nodes_[node].height = -1;
  free_ = node;
}

int AabbTree::insert(const Aabb& box, int user) {
  const int leaf = allocate();
  nodes_[leaf].box = box;
  nodes_[leaf].user = user;
  insertLeaf(leaf);
  ++leaves_;
  return leaf;
}

void AabbTree::remove(int proxy) {
  removeLeaf(proxy);
  release(proxy);
  --leaves_;
}

void AabbTree::insertLeaf(int leaf) {
  if (root_ < 0) {
    root_ = leaf;
    nodes_[leaf].parent = -1;
    return;
  }
  // The sibling: from the root down, the child whose box grows least, until stopping here costs less.
  const Aabb box = nodes_[leaf].box;  // a copy: allocate() below may move the nodes
  int index = root_;
  while (!nodes_[index].isLeaf()) {
    const Node& node = nodes_[index];
    const double combined = node.box.merged(box).halfPerimeter();
    const double here = 2.0 * combined;                                // a new parent of this node and the leaf
    const double inherited = 2.0 * (combined - node.box.halfPerimeter());  // what every node below pays to grow this one
    const auto descend = [&](int child) {
      const Aabb& c = nodes_[child].box;
      const double grown = c.merged(box).halfPerimeter();
      return (nodes_[child].isLeaf() ? grown : grown - c.halfPerimeter()) + inherited;
    };
    const double cost1 = descend(node.child1), cost2 = descend(node.child2);
    if (here < cost1 && here < cost2) break;
    index = cost1 < cost2 ? node.child1 : node.child2;
  }
  const int sibling = index;
  const int oldParent = nodes_[sibling].parent;
  const int parent = allocate();
  nodes_[parent].parent = oldParent;
  nodes_[parent].box = box.merged(nodes_[sibling].box);
  nodes_[parent].height = nodes_[sibling].height + 1;
  nodes_[parent].child1 = sibling;
  nodes_[parent].child2 = leaf;
  replaceChild(oldParent, sibling, parent);
  nodes_[sibling].parent = parent;
  nodes_[leaf].parent = parent;
  refitUpFrom(parent);
}

void AabbTree::removeLeaf(int leaf) {
  if (leaf == root_) {
    root_ = -1;
    return;
  }
  const int parent = nodes_[leaf].parent;
  const int grandparent = nodes_[parent].parent;
  const int sibling = nodes_[parent].child1 == leaf ? nodes_[parent].child2 : nodes_[parent].child1;
  replaceChild(grandparent, parent, sibling);
  nodes_[sibling].parent = grandparent;
  release(parent);
  if (grandparent >= 0) refitUpFrom(grandparent);
}

void AabbTree::replaceChild(int parent, int child, int replacement) {
  if (parent < 0) {
    root_ = replacement;
  } else if (nodes_[parent].child1 == child) {
    nodes_[parent].child1 = replacement;
  } else {
    nodes_[parent].child2 = replacement;
  }
}

void AabbTree::refitUpFrom(int node) {
  for (int index = node; index >= 0; index = nodes_[index].parent) {
    index = balance(index);
    Node& n = nodes_[index];
    n.height = 1 + std::max(nodes_[n.child1].height, nodes_[n.child2].height);
    n.box = nodes_[n.child1].box.merged(nodes_[n.child2].box);
  }
}

// With A's children B and C, C taller by two or more and C's children F and G: C takes A's place,
// A becomes C's child and takes the shorter of F and G in C's place; the taller stays under C.
// Both boxes and heights are refitted, A's first. The mirror image when B is the taller.
int AabbTree::balance(int a) {
  Node& A = nodes_[a];
  if (A.isLeaf() || A.height < 2) return a;
  const int b = A.child1, c = A.child2;
  const int lean = nodes_[c].height - nodes_[b].height;
  if (std::abs(lean) <= 1) return a;
  const int up = lean > 0 ? c : b;        // the taller child, which rises
  const int stays = lean > 0 ? b : c;     // the other child of A
  const int f = nodes_[up].child1, g = nodes_[up].child2;
  const bool fTaller = nodes_[f].height > nodes_[g].height;
  const int keep = fTaller ? f : g, give = fTaller ? g : f;

  // `up` takes A's place.
  nodes_[up].parent = A.parent;
  replaceChild(A.parent, a, up);
  nodes_[up].child1 = a;
  nodes_[up].child2 = keep;
  nodes_[a].parent = up;
  // A keeps `stays` and takes `give`.
  nodes_[a].child1 = stays;
  nodes_[a].child2 = give;
  nodes_[give].parent = a;
  for (const int n : {a, up}) {
    Node& node = nodes_[n];
    node.box = nodes_[node.child1].box.merged(nodes_[node.child2].box);
    node.height = 1 + std::max(nodes_[node.child1].height, nodes_[node.child2].height);
  }
  return up;
}

void AabbTree::validate() const {
  if (root_ >= 0 && nodes_[root_].parent != -1) throw std::logic_error("the root has a parent");
  if (root_ >= 0) validate(root_);
}

int AabbTree::validate(int node) const {
  const Node& n = nodes_[node];
  if (n.isLeaf()) {
    if (n.height != 0) throw std::logic_error("a leaf's height is not 0");
    return 1;
  }
  for (const int child : {n.child1, n.child2}) {
    if (nodes_[child].parent != node) throw std::logic_error("a child's parent link is wrong");
    if (!n.box.contains(nodes_[child].box)) throw std::logic_error("a node's box does not hold its child's");
  }
  if (n.height != 1 + std::max(nodes_[n.child1].height, nodes_[n.child2].height)) {
    throw std::logic_error("a node's height is wrong");
  }
  return validate(n.child1) + validate(n.child2);
}

}  // namespace tinkertoy
