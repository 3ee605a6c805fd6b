// Model: what exists. Bodies with their state, forces, and constraints.
//
// The state is stored the way the monolithic view of Witkin's "Constrained Dynamics" (§3) wants it: every body
// owns a contiguous slice of two global vectors,
//
//   q   coordinates [n]   body b occupies q[offsetOf(b) .. offsetOf(b) + n_b)
//   v   velocities  [n]   same layout, v = q̇
//
// with n_b = d for a particle, 1 for a bead, N for an N-link chain (model/body.hpp). The
// mass matrix M(q) is block-diagonal with one block per body; the simulator computes it (and
// W = M⁻¹) at whatever state it evaluates.
//
// Users hold BodyId / ForceId / ConstraintId handles, never pointers into these arrays.
// Removing a body moves the last body into its place, so dense indices and offsets change
// but ids stay valid. How the model moves is the Simulator's business (dynamics/simulator.hpp).
//
//   tinkertoy::Model model(2);
//   auto bob = model.addParticle(1.0, Eigen::Vector2d(1, 0));
//   model.addConstraint(std::make_unique<tinkertoy::DistanceConstraint>(bob, Eigen::Vector2d(0, 0), 1.0));
//   model.addForce(std::make_unique<tinkertoy::Gravity>(Eigen::Vector2d(0, -9.81)));
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/forces/force.hpp"
#include "tinkertoy/model/body.hpp"
#include "tinkertoy/model/handles.hpp"
#include "tinkertoy/model/particle.hpp"
#include "tinkertoy/model/state_view.hpp"

namespace tinkertoy {

class Model {
 public:
  // dimension: 2 or 3.
  explicit Model(int dimension);
  // A model owns its bodies, forces and constraints: it moves, it is not copied.
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  Model(Model&&) = default;
  Model& operator=(Model&&) = default;
  ~Model() = default;

  [[nodiscard]] int dimension() const { return dimension_; }
  // The model's size: the diagonal of the bounding box of all its points now, at least 1 m.
  [[nodiscard]] double size() const;
  // The lowest and highest corners of that box (z = 0 in 2D); +∞ and −∞ in a model without bodies.
  [[nodiscard]] std::array<Eigen::Vector3d, 2> boundingBox() const;

  // ---- bodies ----------------------------------------------------------------------
  // A particle: mass > 0 and finite; position and velocity [dimension] (empty velocity: zero).
  BodyId addParticle(double mass, const Eigen::VectorXd& position,
                     const Eigen::VectorXd& velocity = {}, std::string name = {});
  // Any body, with its initial coordinates q_b and velocities v_b [n_b] (empty v_b: zero).
  BodyId addBody(std::unique_ptr<Body> body, const Eigen::VectorXd& coordinates,
                 const Eigen::VectorXd& velocities = {}, std::string name = {});
  // Whether any of the points is on a body something can move (not static or kinematic). A
  // constraint whose points are all immovable gets no rows; its error is still measured.
  [[nodiscard]] bool movesAny(std::span<const BodyPoint> points) const;
  // Removes the body and every force and constraint that names one of its points.
  void removeBody(BodyId id);

  [[nodiscard]] bool contains(BodyId id) const { return bodyIds_.contains(id); }
  [[nodiscard]] std::size_t bodyCount() const { return bodies_.size(); }
  [[nodiscard]] BodyId bodyAt(std::size_t index) const { return bodyIds_.idAt(index); }
  [[nodiscard]] std::size_t indexOf(BodyId id) const { return bodyIds_.at(id); }
  // The body's slice of q and v starts here and has body(id).coordinateCount() entries.
  [[nodiscard]] std::size_t offsetOf(BodyId id) const { return offsets_[indexOf(id)]; }
  // The body of that name, in constant time. Names need not be unique: of several bodies with one
  // name it gives the first added, until that one is removed.
  [[nodiscard]] std::optional<BodyId> findBody(std::string_view name) const;
  [[nodiscard]] const Body& body(BodyId id) const { return *bodies_[indexOf(id)]; }
  // Mutable access to edit a body's parameters (a particle's mass, say). Counts as an edit.
  [[nodiscard]] Body& body(BodyId id) {
    touch();
    return *bodies_[indexOf(id)];
  }
  [[nodiscard]] bool isParticle(BodyId id) const { return body(id).type() == "particle"; }
  [[nodiscard]] const std::string& name(BodyId id) const { return bodyNames_[indexOf(id)]; }
  // "particle 'p1'", "chain 'arm'", or "bead #3" for a body without a name.
  [[nodiscard]] std::string describe(BodyId id) const;
  // The body's description, plus "point i" for bodies with several points.
  [[nodiscard]] std::string describe(const BodyPoint& point) const;

  // q_b and v_b of one body [n_b].
  [[nodiscard]] Eigen::VectorXd coordinates(BodyId id) const;
  [[nodiscard]] Eigen::VectorXd velocities(BodyId id) const;
  void setCoordinates(BodyId id, const Eigen::VectorXd& coordinates);
  void setVelocities(BodyId id, const Eigen::VectorXd& velocities);
  // The total mass of a body, kg.
  [[nodiscard]] double mass(BodyId id) const { return body(id).totalMass(); }

  // World position and velocity of a point at the model's state [dimension].
  [[nodiscard]] Eigen::VectorXd position(const BodyPoint& point) const;
  [[nodiscard]] Eigen::VectorXd velocity(const BodyPoint& point) const;
  // Particles only: their coordinates are their position. Throws for other bodies.
  void setPosition(BodyId particle, const Eigen::VectorXd& position);
  void setVelocity(BodyId particle, const Eigen::VectorXd& velocity);
  void setMass(BodyId particle, double mass);

  // T = ½ vᵀ M(q) v, the sum of the bodies' kinetic energies at coordinates q and velocities v [n].
  [[nodiscard]] double kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const;

  // Kinematics of a point at an arbitrary state (an integrator stage, say). Throws
  // std::invalid_argument for a stale body or a point index the body does not have.
  void pointKinematics(const BodyPoint& point, const StateView& state, PointKinematics& out) const;
  // Q += J_pᵀ f: a world force f applied at a point, as generalized force on its body. Q: [n]
  void addPointForce(const BodyPoint& point, const StateView& state, const Eigen::Vector3d& f,
                     Eigen::Ref<Eigen::VectorXd> Q) const;
  // Q += J_φᵀ τ: a torque τ on the frame at a point, as generalized force on its body. Q: [n]
  void addPointTorque(const BodyPoint& point, const StateView& state, double torque,
                      Eigen::Ref<Eigen::VectorXd> Q) const;

  // ---- forces ----------------------------------------------------------------------
  ForceId addForce(std::unique_ptr<Force> force);
  void removeForce(ForceId id);
  [[nodiscard]] bool contains(ForceId id) const { return forceIds_.contains(id); }
  [[nodiscard]] std::size_t forceCount() const { return forces_.size(); }
  [[nodiscard]] ForceId forceAt(std::size_t index) const { return forceIds_.idAt(index); }
  [[nodiscard]] Force& force(ForceId id) {  // counts as an edit
    touch();
    return *forces_[forceIds_.at(id)];
  }
  [[nodiscard]] const Force& force(ForceId id) const { return *forces_[forceIds_.at(id)]; }

  // ---- constraints -----------------------------------------------------------------
  // `name` identifies the constraint in messages (the scene loader passes its JSON path).
  ConstraintId addConstraint(std::unique_ptr<Constraint> constraint, std::string name = {});
  void removeConstraint(ConstraintId id);
  [[nodiscard]] bool contains(ConstraintId id) const { return constraintIds_.contains(id); }
  [[nodiscard]] std::size_t constraintCount() const { return constraints_.size(); }
  [[nodiscard]] ConstraintId constraintAt(std::size_t index) const {
    return constraintIds_.idAt(index);
  }
  [[nodiscard]] std::size_t indexOf(ConstraintId id) const { return constraintIds_.at(id); }
  [[nodiscard]] Constraint& constraint(ConstraintId id) {  // counts as an edit
    touch();
    return *constraints_[indexOf(id)];
  }
  [[nodiscard]] const Constraint& constraint(ConstraintId id) const {
    return *constraints_[indexOf(id)];
  }
  // The name it was added with (may be empty).
  [[nodiscard]] const std::string& name(ConstraintId id) const { return constraintNames_[indexOf(id)]; }
  // The name if it has one, else "<type> constraint #<dense index>".
  [[nodiscard]] std::string describe(ConstraintId id) const;
  // A disabled constraint stays in the model but takes no part in the dynamics (no rows). A
  // joint that breaks is disabled.
  [[nodiscard]] bool isEnabled(ConstraintId id) const { return enabled_[indexOf(id)]; }
  void setEnabled(ConstraintId id, bool enabled);
  // The reaction force (N) above which the simulator breaks the constraint; ∞ (the default)
  // never breaks.
  [[nodiscard]] double breakForce(ConstraintId id) const { return breakForces_[indexOf(id)]; }
  void setBreakForce(ConstraintId id, double force);
  // Whether any constraint has a finite break force (the simulator checks reactions only then).
  [[nodiscard]] bool anyBreakForce() const { return breakable_ > 0; }
  // Replaces constraint `id` by the one `settings` describe (constraints/constraint_settings.hpp),
  // keeping its id, name, enabled flag and break force: how a running model changes a motor's
  // speed or force, limits, a spring, a length or a mouse target. It counts as a change of
  // structure (the simulator lays its rows out again at the next step, carrying the warm-start
  // impulses of rows that stay). Throws std::invalid_argument, changing nothing, if the settings
  // are invalid or of a constraint defined outside the library.
  void setConstraintSettings(ConstraintId id, const ConstraintSettings& settings);
  // Edits the settings of constraint `id`, which must be of type Settings, in place:
  //   model.editConstraint<RevoluteJointSettings>(hinge, [](auto& s) { s.motor->speed = 3.0; });
  // Throws std::invalid_argument if the constraint is of another type.
  template <class Settings, class Edit>
  void editConstraint(ConstraintId id, Edit&& edit) {
    ConstraintSettings settings = std::as_const(*this).constraint(id).settings();
    auto* typed = std::get_if<Settings>(&settings);
    if (!typed) throwWrongConstraintType(id, Settings::type);
    std::forward<Edit>(edit)(*typed);
    setConstraintSettings(id, settings);
  }

  // ---- state -----------------------------------------------------------------------
  [[nodiscard]] double time() const { return time_; }
  // Throws std::invalid_argument for a time that is not finite.
  void setTime(double time);
  [[nodiscard]] const Eigen::VectorXd& q() const { return q_; }
  [[nodiscard]] const Eigen::VectorXd& v() const { return v_; }
  // Mutable access (counts as an edit); the size must not change. The storage of q and v stays
  // where it is while the layout does: stepping and restoring write into it, and only adding or
  // removing a body lays the state out anew.
  [[nodiscard]] Eigen::VectorXd& q() {
    touch();
    return q_;
  }
  [[nodiscard]] Eigen::VectorXd& v() {
    touch();
    return v_;
  }
  // The slice of a state vector x [n] that belongs to body `index` (dense index).
  [[nodiscard]] Eigen::Ref<const Eigen::VectorXd> slice(const Eigen::VectorXd& x, std::size_t index) const;

  // Increments whenever bodies or constraints are added or removed, i.e. whenever the
  // row/column layout of J changes. The simulator rebuilds its matrices when it changes.
  [[nodiscard]] std::uint64_t structureVersion() const { return structureVersion_; }
  // Increments at every edit of any kind: a change of structure, a setter, or a call of a
  // non-const accessor (q(), v(), body(), force(), constraint()), which may have changed what it
  // gave access to. The simulator keeps what it derived from the model (the constant blocks of
  // W, the constraints' evaluation at the state it left) only while this stays the same.
  [[nodiscard]] std::uint64_t revision() const { return revision_; }

 private:
  // Throws std::invalid_argument: constraint `id` is not of type `wanted`.
  [[noreturn]] void throwWrongConstraintType(ConstraintId id, std::string_view wanted) const;
  void requireVector(const Eigen::VectorXd& x, std::string_view what) const;
  void requirePoints(std::span<const BodyPoint> points, std::string_view owner) const;
  // Throws unless `constraint` is valid in this model: its parameters, its points and frames.
  void requireFits(const Constraint& constraint) const;
  // Throws unless every point k for which usesAngle(k) is on a body with a frame.
  void requireFrames(std::span<const BodyPoint> points, const std::function<bool(std::size_t)>& usesAngle,
                     std::string_view owner) const;
  // Throws unless point.site is a site of the body at dense index `index`.
  void requirePointIndex(const BodyPoint& point, std::size_t index, std::string_view owner) const;
  // The particle `id`; throws naming `operation` if the body is not a particle.
  Particle& particle(BodyId id, std::string_view operation);
  void layOutState();
  // Drops the removed body `id` from the name index; another body of that name takes its place.
  void forgetName(BodyId id, const std::string& name);
  void touch() { ++revision_; }

  int dimension_;
  double time_ = 0.0;

  HandleTable<BodyTag> bodyIds_;
  std::vector<std::unique_ptr<Body>> bodies_;
  std::vector<std::string> bodyNames_;
  // Looked up by string_view without building a string (heterogeneous lookup).
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  std::unordered_map<std::string, BodyId, NameHash, std::equal_to<>> bodyByName_;
  std::vector<std::size_t> offsets_;  // [bodies + 1], prefix sums of n_b
  Eigen::VectorXd q_, v_;

  HandleTable<ForceTag> forceIds_;
  std::vector<std::unique_ptr<Force>> forces_;

  HandleTable<ConstraintTag> constraintIds_;
  std::vector<std::unique_ptr<Constraint>> constraints_;
  std::vector<std::string> constraintNames_;
  std::vector<bool> enabled_;
  std::vector<double> breakForces_;
  std::size_t breakable_ = 0;  // how many of breakForces_ are finite

  std::uint64_t structureVersion_ = 0;
  std::uint64_t revision_ = 0;
};

}  // namespace tinkertoy
