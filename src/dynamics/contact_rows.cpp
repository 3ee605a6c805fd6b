#include "dynamics/contact_rows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tinkertoy {

namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

constexpr double kInfinity = std::numeric_limits<double>::infinity();

}  // namespace

double StackedRows::velocity(Eigen::Index r, const Eigen::VectorXd& v) const {
  const auto J = J_.values();
  double sum = 0.0;
  for (std::size_t e = rowStart_[static_cast<std::size_t>(r)]; e < rowStart_[static_cast<std::size_t>(r) + 1]; ++e) {
    const Entry& entry = entries_[e];
    for (int c = 0; c < entry.width; ++c) sum += J[entry.value + static_cast<std::size_t>(c)] * v[entry.column + c];
  }
  return sum;
}

void StackedRows::apply(const BlockDiagonalMatrix& W, Eigen::Index r, double delta, Eigen::VectorXd& v) const {
  if (delta == 0.0) return;
  const auto J = J_.values();
  double weighted[kMaxBlockWidth];
  for (std::size_t e = rowStart_[static_cast<std::size_t>(r)]; e < rowStart_[static_cast<std::size_t>(r) + 1]; ++e) {
    const Entry& entry = entries_[e];
    W.multiplyRow(entry.column, J.data() + entry.value, weighted);
    for (int c = 0; c < entry.width; ++c) v[entry.column + c] += weighted[c] * delta;
  }
}

bool StackedRows::layout(const ConstraintSystem& system, const ContactSolver& contacts) {
  const std::vector<std::pair<std::size_t, std::size_t>>& pairs = extraPairs_;
  const BlockSparseMatrix& joints = system.jacobian();
  if (J_.rows() == system.rows() + static_cast<Eigen::Index>(pairs.size()) && jointRows_ == system.rows() &&
      J_.cols() == joints.cols() && pairs == pairs_) {
    return false;
  }
  jointRows_ = system.rows();
  pairs_ = pairs;
  J_.reset(jointRows_ + static_cast<Eigen::Index>(pairs.size()), joints.cols());
  // The joints' blocks first and in their order, so that their entries are a copy of the system's.
  for (const BlockSparseMatrix::Block& b : joints.blocks()) J_.reserveBlock(b.row, b.col, b.rows, b.cols);
  extraValues_.resize(pairs.size());
  extraWidths_.resize(pairs.size());
  for (std::size_t e = 0; e < pairs.size(); ++e) {
    const Eigen::Index row = jointRows_ + static_cast<Eigen::Index>(e);
    const ContactSolver::BodyMass &a = contacts.body(pairs[e].first), &b = contacts.body(pairs[e].second);
    extraWidths_[e] = {a.turns ? 3 : 2, b.turns ? 3 : 2};
    extraValues_[e] = {J_.reserveBlock(row, a.offset, 1, extraWidths_[e][0]),
                       J_.reserveBlock(row, b.offset, 1, extraWidths_[e][1])};
  }
  kinds_.assign(system.kinds().begin(), system.kinds().end());
  kinds_.insert(kinds_.end(), extraKinds_.begin(), extraKinds_.end());
  // Row r's entries, one per block it crosses.
  const auto rows = static_cast<std::size_t>(J_.rows());
  rowStart_.assign(rows + 1, 0);
  for (const BlockSparseMatrix::Block& b : J_.blocks()) {
    for (int k = 0; k < b.rows; ++k) ++rowStart_[static_cast<std::size_t>(b.row + k) + 1];
  }
  for (std::size_t r = 0; r < rows; ++r) rowStart_[r + 1] += rowStart_[r];
  entries_.resize(rowStart_[rows]);
  std::vector<std::size_t>& next = nextEntry_;
  next.assign(rowStart_.begin(), rowStart_.end() - 1);
  for (const BlockSparseMatrix::Block& b : J_.blocks()) {
    for (int k = 0; k < b.rows; ++k) {
      entries_[next[static_cast<std::size_t>(b.row + k)]++] = {
          .value = b.offset + static_cast<std::size_t>(k * b.cols), .column = b.col, .width = b.cols};
    }
  }
  return true;
}

void StackedRows::copyJoints(const ConstraintSystem& system) {
  const auto from = system.jacobian().values();
  std::copy(from.begin(), from.end(), J_.values().begin());
}

void StackedRows::writeRow(Eigen::Index r, const Eigen::Vector2d& d, const Eigen::Vector2d& rA, const Eigen::Vector2d& rB) {
  const auto e = static_cast<std::size_t>(r - jointRows_);
  double* a = J_.values().data() + extraValues_[e][0];
  double* b = J_.values().data() + extraValues_[e][1];
  a[0] = -d.x(), a[1] = -d.y();
  if (extraWidths_[e][0] == 3) a[2] = -cross(rA, d);
  b[0] = d.x(), b[1] = d.y();
  if (extraWidths_[e][1] == 3) b[2] = cross(rB, d);
}

void StackedRows::zeroRow(Eigen::Index r) {
  const auto e = static_cast<std::size_t>(r - jointRows_);
  for (int side = 0; side < 2; ++side) {
    double* x = J_.values().data() + extraValues_[e][static_cast<std::size_t>(side)];
    std::fill(x, x + extraWidths_[e][static_cast<std::size_t>(side)], 0.0);
  }
}

bool ContactImpulseRows::prepare(const ConstraintSystem& system, const VelocityTargets& targets,
                                 const ContactSolver& contacts) {
  const std::span<const ContactSolver::Point> points = contacts.points();
  faces_.clear();
  for (std::size_t k = 0; k < points.size(); ++k) {
    const ContactSolver::Point& p = points[k];
    if (!faces_.empty()) {
      const ContactSolver::Point& first = points[faces_.back().first];
      if (first.a == p.a && first.b == p.b && first.normal == p.normal) {
        ++faces_.back().count;
        continue;
      }
    }
    faces_.push_back({.first = k, .count = 1, .friction = p.friction});
  }
  extraPairs_.clear();
  extraKinds_.clear();
  faceOfRow_.clear();
  Eigen::Index row = system.rows();
  for (std::size_t f = 0; f < faces_.size(); ++f) {
    Face& face = faces_[f];
    face.normalRow = row;
    const ContactSolver::Point& p = points[face.first];
    extraPairs_.insert(extraPairs_.end(), face.count + 1, {p.a, p.b});
    extraKinds_.insert(extraKinds_.end(), face.count, RowKind::Inequality);
    // Friction is a row with two bounds and target 0, as a motor at rest is.
    extraKinds_.push_back(RowKind::Motor);
    faceOfRow_.insert(faceOfRow_.end(), face.count, -1);
    faceOfRow_.push_back(static_cast<int>(f));
    row += static_cast<Eigen::Index>(face.count) + 1;
  }
  const bool changed = layout(system, contacts);
  copyJoints(system);
  bias_.resize(rows());
  normalCap_.resize(static_cast<std::size_t>(rows() - jointRows_));
  bias_.head(jointRows_) = targets.bias(ImpulsePass::Velocity);
  for (const Face& face : faces_) {
    Eigen::Vector2d meanA = Eigen::Vector2d::Zero(), meanB = Eigen::Vector2d::Zero();
    for (std::size_t k = 0; k < face.count; ++k) {
      const ContactSolver::Point& p = points[face.first + k];
      const Eigen::Index normal = face.normalRow + static_cast<Eigen::Index>(k);
      writeRow(normal, p.normal, p.rA, p.rB);
      bias_[normal] = -p.gapTarget;  // s/h for a gap, else 0
      normalCap_[static_cast<std::size_t>(normal - jointRows_)] = p.normalMass * (kMostPush + std::max(-p.approach, 0.0));
      meanA += p.rA;
      meanB += p.rB;
    }
    const Eigen::Vector2d n = points[face.first].normal;
    const auto count = static_cast<double>(face.count);
    writeRow(frictionRow(face), Eigen::Vector2d(n.y(), -n.x()), meanA / count, meanB / count);
    bias_[frictionRow(face)] = 0.0;
  }
  targets_ = &targets;
  return changed;
}

std::pair<double, double> ContactImpulseRows::bounds(Eigen::Index r, const Eigen::VectorXd& lambda) const {
  if (r < jointRows_) return targets_->bounds(r, ImpulsePass::Velocity);
  const int f = faceOfRow_[static_cast<std::size_t>(r - jointRows_)];
  if (f < 0) return {0.0, normalCap_[static_cast<std::size_t>(r - jointRows_)]};
  const Face& face = faces_[static_cast<std::size_t>(f)];
  double normal = 0.0;
  for (std::size_t k = 0; k < face.count; ++k) normal += std::max(lambda[face.normalRow + static_cast<Eigen::Index>(k)], 0.0);
  const double bound = face.friction * normal;
  return {-bound, bound};
}

void ContactImpulseRows::gather(const Eigen::VectorXd& joints, const ContactSolver& contacts, Eigen::VectorXd& lambda) const {
  if (lambda.size() != rows()) lambda.resize(rows());
  lambda.head(jointRows_) = joints;
  const std::span<const ContactSolver::Point> points = contacts.points();
  for (const Face& face : faces_) {
    double tangent = 0.0;
    for (std::size_t k = 0; k < face.count; ++k) {
      lambda[face.normalRow + static_cast<Eigen::Index>(k)] = points[face.first + k].normalImpulse;
      tangent += points[face.first + k].tangentImpulse;
    }
    lambda[frictionRow(face)] = tangent;
  }
}

void ContactImpulseRows::scatter(const Eigen::VectorXd& lambda, Eigen::VectorXd& joints, ContactSolver& contacts) const {
  // The spring rows' impulses are their sequential passes' own, in `joints` already.
  for (Eigen::Index r = 0; r < jointRows_; ++r) {
    if (kind(r) != RowKind::Spring) joints[r] = lambda[r];
  }
  const std::span<ContactSolver::Point> points = contacts.points();
  for (const Face& face : faces_) {
    double normal = 0.0;
    for (std::size_t k = 0; k < face.count; ++k) normal += lambda[face.normalRow + static_cast<Eigen::Index>(k)];
    const double tangent = lambda[frictionRow(face)];
    for (std::size_t k = 0; k < face.count; ++k) {
      ContactSolver::Point& p = points[face.first + k];
      p.normalImpulse = lambda[face.normalRow + static_cast<Eigen::Index>(k)];
      // The face's friction shared as its normal impulse is (none where it pushes not: its bound is 0).
      p.tangentImpulse = normal > 0.0 ? tangent * (p.normalImpulse / normal) : 0.0;
    }
  }
}

bool ContactImpulseRows::restitute(const ContactSolver& contacts, const Eigen::VectorXd& lambda) {
  bool any = false;
  const std::span<const ContactSolver::Point> points = contacts.points();
  for (const Face& face : faces_) {
    for (std::size_t k = 0; k < face.count; ++k) {
      const ContactSolver::Point& p = points[face.first + k];
      const Eigen::Index normal = face.normalRow + static_cast<Eigen::Index>(k);
      if (p.restitution == 0.0 || p.approach >= -p.threshold || !(lambda[normal] > 0.0)) continue;
      bias_[normal] = p.restitution * p.approach;
      any = true;
    }
  }
  return any;
}

bool ContactProjectionRows::prepare(const ConstraintSystem& system, const ContactSolver& contacts,
                                    const ContactFinder& finder, double speculative) {
  const std::span<const BodyContact> found = finder.found();
  extraPairs_.clear();
  slots_.clear();
  for (const BodyContact& c : found) {
    extraPairs_.insert(extraPairs_.end(), 2, {c.a, c.b});
    for (int k = 0; k < 2; ++k) {
      slots_.push_back({.id = k < c.manifold.count ? c.manifold.points[k].id : 0U, .present = k < c.manifold.count});
    }
  }
  extraKinds_.assign(extraPairs_.size(), RowKind::Inequality);
  const bool changed = layout(system, contacts);
  C_.resize(rows());
  system_ = &system;
  speculative_ = speculative;
  return changed;
}

void ContactProjectionRows::evaluate(ConstraintSystem& system, const ContactSolver& contacts,
                                     const ContactFinder& finder, const StateView& state) {
  system.evaluate(state, ConstraintSystem::Evaluation::WithoutJacobianDot);
  copyJoints(system);
  const Eigen::Index m = jointRows_;
  C_.head(m) = system.value();
  const std::span<const BodyContact> found = finder.found();
  for (std::size_t c = 0; c < found.size(); ++c) {
    const Manifold manifold = finder.collideAgain(found[c], state, speculative_);
    const Eigen::Vector2d centerA = state.q.segment<2>(contacts.body(found[c].a).offset);
    const Eigen::Vector2d centerB = state.q.segment<2>(contacts.body(found[c].b).offset);
    // Each slot keeps the point of its features; a slot whose point is gone takes a new one.
    std::array<int, 2> pointOf{-1, -1};
    std::array<bool, 2> taken{false, false};
    for (std::size_t k = 0; k < 2; ++k) {
      const Slot& slot = slots_[2 * c + k];
      for (int j = 0; j < manifold.count; ++j) {
        if (!taken[static_cast<std::size_t>(j)] && slot.present && manifold.points[static_cast<std::size_t>(j)].id == slot.id) {
          pointOf[k] = j;
          taken[static_cast<std::size_t>(j)] = true;
          break;
        }
      }
    }
    for (std::size_t k = 0; k < 2; ++k) {
      for (int j = 0; j < manifold.count && pointOf[k] < 0; ++j) {
        if (taken[static_cast<std::size_t>(j)]) continue;
        pointOf[k] = j;
        taken[static_cast<std::size_t>(j)] = true;
      }
      Slot& slot = slots_[2 * c + k];
      const Eigen::Index r = m + 2 * static_cast<Eigen::Index>(c) + static_cast<Eigen::Index>(k);
      slot.present = pointOf[k] >= 0;
      if (!slot.present) {
        zeroRow(r);
        C_[r] = kInfinity;
        continue;
      }
      const ContactPoint& p = manifold.points[static_cast<std::size_t>(pointOf[k])];
      slot.id = p.id;
      writeRow(r, manifold.normal, p.point - centerA, p.point - centerB);
      C_[r] = p.separation;
    }
  }
}

double ContactProjectionRows::violation(Eigen::Index r) const {
  return r < jointRows_ ? system_->violation(r) : std::max(-C_[r], 0.0);
}

double ContactProjectionRows::maxViolation() const {
  double worst = system_->maxViolation();
  for (Eigen::Index r = jointRows_; r < rows(); ++r) worst = std::max(worst, -C_[r]);
  return worst;
}

}  // namespace tinkertoy
