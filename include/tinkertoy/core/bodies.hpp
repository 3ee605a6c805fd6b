// Bodies: the bodies of a model, their handles and names, and where each body's coordinates sit
// in the state vectors (structure only: q and v themselves live elsewhere).
//
//   q   coordinates [n]   body at dense index i occupies q[offset(i) .. offset(i + 1))
//   v   velocities  [n]   same layout, v = q̇
//
// Users hold BodyIds; a body's dense index and offset change when another body is removed (the
// last one moves into its place), its id does not. The Model owns one (model/model.hpp) and keeps
// q and v laid out as it says; forces read the bodies through it at any state:
//
//   bodies.pointKinematics(point, state, k);      // x, ẋ, J, J̇ of a point at (q, v)
//   bodies.addPointForce(point, state, f, Q);     // Q += J_pᵀ f
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tinkertoy/core/body.hpp"
#include "tinkertoy/core/handles.hpp"
#include "tinkertoy/core/state_view.hpp"

namespace tinkertoy {

class Bodies {
 public:
  Bodies() = default;
  Bodies(const Bodies&) = delete;
  Bodies& operator=(const Bodies&) = delete;
  Bodies(Bodies&&) = default;
  Bodies& operator=(Bodies&&) = default;
  ~Bodies() = default;

  // ---- structure -----------------------------------------------------------------------
  // Appends a body (already validated) at the end of the layout.
  BodyId add(std::unique_ptr<Body> body, std::string name);
  // Removes a body; the last body moves into its dense index, which this returns.
  std::size_t remove(BodyId id);
  // Puts `body` (already validated, with the same coordinate count) in the place of body `id`.
  void replace(BodyId id, std::unique_ptr<Body> body) { bodies_[indexOf(id)] = std::move(body); }

  // ---- lookup --------------------------------------------------------------------------
  [[nodiscard]] bool contains(BodyId id) const { return ids_.contains(id); }
  [[nodiscard]] std::size_t count() const { return bodies_.size(); }
  [[nodiscard]] BodyId idAt(std::size_t index) const { return ids_.idAt(index); }
  [[nodiscard]] std::size_t indexOf(BodyId id) const { return ids_.at(id); }
  [[nodiscard]] const Body& body(BodyId id) const { return *bodies_[indexOf(id)]; }
  [[nodiscard]] const Body& at(std::size_t index) const { return *bodies_[index]; }
  // The body of that name, in constant time. Of several bodies with one name it gives the first
  // added, until that one is removed.
  [[nodiscard]] std::optional<BodyId> find(std::string_view name) const;
  [[nodiscard]] const std::string& name(BodyId id) const { return names_[indexOf(id)]; }
  // "particle 'p1'", "chain 'arm'", or "bead #3" for a body without a name.
  [[nodiscard]] std::string describe(BodyId id) const;
  // The body's description, plus "point i" for bodies with several points.
  [[nodiscard]] std::string describe(const BodyPoint& point) const;
  // Whether any of the points is on a body something can move (not static or kinematic).
  [[nodiscard]] bool movesAny(std::span<const BodyPoint> points) const;

  // ---- layout --------------------------------------------------------------------------
  // n, the size of q and v.
  [[nodiscard]] std::size_t coordinateCount() const { return coordinates_; }
  // Where body `index`'s slice of q and v starts; offset(count()) is n.
  [[nodiscard]] std::size_t offset(std::size_t index) const { return offsets_[index]; }
  [[nodiscard]] std::size_t offsetOf(BodyId id) const { return offsets_[indexOf(id)]; }
  // The slice of a state vector x [n] that belongs to body `index` (dense index).
  [[nodiscard]] Eigen::Ref<const Eigen::VectorXd> slice(const Eigen::VectorXd& x, std::size_t index) const;

  // ---- points at a state ---------------------------------------------------------------
  // Throws std::invalid_argument, naming `owner`, unless every point is a site of a body here.
  void requirePoints(std::span<const BodyPoint> points, std::string_view owner) const;
  // Throws unless every point k for which usesAngle(k) is on a body with a frame.
  void requireFrames(std::span<const BodyPoint> points, const std::function<bool(std::size_t)>& usesAngle,
                     std::string_view owner) const;
  // Kinematics of a point at a state. Throws std::invalid_argument for a stale body or a point
  // index the body does not have.
  void pointKinematics(const BodyPoint& point, const StateView& state, PointKinematics& out) const;
  // Q += J_pᵀ f: a world force f applied at a point, as generalized force on its body. Q: [n]
  void addPointForce(const BodyPoint& point, const StateView& state, const Eigen::Vector3d& f,
                     Eigen::Ref<Eigen::VectorXd> Q) const;
  // Q += J_φᵀ τ: a torque τ on the frame at a point, as generalized force on its body. Q: [n]
  void addPointTorque(const BodyPoint& point, const StateView& state, double torque,
                      Eigen::Ref<Eigen::VectorXd> Q) const;
  // T = ½ vᵀ M(q) v, the sum of the bodies' kinetic energies at q and v [n].
  [[nodiscard]] double kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const;

 private:
  // Throws unless point.site is a site of the body at dense index `index`.
  void requirePointIndex(const BodyPoint& point, std::size_t index, std::string_view owner) const;
  // Drops the removed body `id` from the name index; another body of that name takes its place.
  void forgetName(BodyId id, const std::string& name);

  HandleTable<BodyTag> ids_;
  std::vector<std::unique_ptr<Body>> bodies_;
  std::vector<std::string> names_;
  // Looked up by string_view without building a string (heterogeneous lookup).
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  std::unordered_map<std::string, BodyId, NameHash, std::equal_to<>> byName_;
  // [bodies + 1], prefix sums of n_b; empty while there are no bodies, so that an empty table (a
  // model moved from) allocates nothing.
  std::vector<std::size_t> offsets_;
  std::size_t coordinates_ = 0;  // n, the sum of all n_b
};

}  // namespace tinkertoy
