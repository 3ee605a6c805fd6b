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
#include <algorithm>
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
#include "tinkertoy/forces/force_settings.hpp"
#include "tinkertoy/core/bodies.hpp"
#include "tinkertoy/core/body.hpp"
#include "tinkertoy/core/handles.hpp"
#include "tinkertoy/model/particle.hpp"
#include "tinkertoy/core/state_view.hpp"

namespace tinkertoy {

class Model {
 public:
  // dimension: 2 or 3.
  explicit Model(int dimension);
  // A model owns its bodies, forces and constraints: it moves, it is not copied. Its edit counters
  // and its hold stay with the object (Stamp below): a model moved into a held one is new to the
  // simulator that holds it, which lays it out again at its next step.
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  // A model moved from is left empty, as Model(dimension) makes one (without allocating).
  Model(Model&& other) noexcept;
  Model& operator=(Model&& other) noexcept;
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
  [[nodiscard]] bool movesAny(std::span<const BodyPoint> points) const { return bodies_.movesAny(points); }
  // Removes the body and every force and constraint that names one of its points.
  void removeBody(BodyId id);

  // The bodies and their layout in q and v (core/bodies.hpp): what forces read.
  [[nodiscard]] const Bodies& bodies() const { return bodies_; }
  [[nodiscard]] bool contains(BodyId id) const { return bodies_.contains(id); }
  [[nodiscard]] std::size_t bodyCount() const { return bodies_.count(); }
  [[nodiscard]] BodyId bodyAt(std::size_t index) const { return bodies_.idAt(index); }
  [[nodiscard]] std::size_t indexOf(BodyId id) const { return bodies_.indexOf(id); }
  // The body's slice of q and v starts here and has body(id).coordinateCount() entries.
  [[nodiscard]] std::size_t offsetOf(BodyId id) const { return bodies_.offsetOf(id); }
  // The body of that name, in constant time. Names need not be unique: of several bodies with one
  // name it gives the first added, until that one is removed.
  [[nodiscard]] std::optional<BodyId> findBody(std::string_view name) const { return bodies_.find(name); }
  [[nodiscard]] const Body& body(BodyId id) const { return bodies_.body(id); }
  // Replaces body `id` by the one `settings` describe (core/body_settings.hpp), keeping its id,
  // name and coordinates, which must still fit it: a particle's mass, a chain's lengths. It counts
  // as an edit, and as a change of structure if the body starts or stops being driven (a rigid
  // body made static or kinematic, or dynamic again). Throws std::invalid_argument, changing
  // nothing, if the settings are invalid, of another kind of body, or give it another number of
  // coordinates or points.
  void setBodySettings(BodyId id, const BodySettings& settings);
  // Edits the settings of body `id`, which must be of type Settings:
  //   model.editBody<ParticleSettings>(ball, [](auto& s) { s.mass = 2.0; });
  template <class Settings, class Edit>
  void editBody(BodyId id, Edit&& edit) {
    editSettings<Settings>(body(id).settings(), std::forward<Edit>(edit),
                           [&] { throwWrongType(describe(id), body(id).type(), "body", Settings::type); },
                           [&](const BodySettings& s) { setBodySettings(id, s); });
  }
  // How the body collides (core/collider.hpp): a rigid body's or a particle's; none for a kind
  // that never collides (a bead, a chain).
  [[nodiscard]] std::optional<Collider> collider(BodyId id) const;
  // Sets it, through setBodySettings (an edit, not a change of structure). Throws
  // std::invalid_argument, changing nothing, for a kind that never collides or a bad value.
  void setCollider(BodyId id, const Collider& collider);
  // Whether the body is a particle, whose coordinates are its position.
  [[nodiscard]] bool isParticle(BodyId id) const { return body(id).coordinatesArePosition(); }
  [[nodiscard]] const std::string& name(BodyId id) const { return bodies_.name(id); }
  // "particle 'p1'", "chain 'arm'", or "bead #3" for a body without a name.
  [[nodiscard]] std::string describe(BodyId id) const { return bodies_.describe(id); }
  // The body's description, plus "point i" for bodies with several points.
  [[nodiscard]] std::string describe(const BodyPoint& point) const { return bodies_.describe(point); }

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
  [[nodiscard]] double kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
    return bodies_.kineticEnergy(q, v);
  }

  // Kinematics of a point at an arbitrary state (an integrator stage, say). Throws
  // std::invalid_argument for a stale body or a point index the body does not have.
  void pointKinematics(const BodyPoint& point, const StateView& state, PointKinematics& out) const {
    bodies_.pointKinematics(point, state, out);
  }
  // Q += J_pᵀ f: a world force f applied at a point, as generalized force on its body. Q: [n]
  void addPointForce(const BodyPoint& point, const StateView& state, const Eigen::Vector3d& f,
                     Eigen::Ref<Eigen::VectorXd> Q) const {
    bodies_.addPointForce(point, state, f, Q);
  }
  // Q += J_φᵀ τ: a torque τ on the frame at a point, as generalized force on its body. Q: [n]
  void addPointTorque(const BodyPoint& point, const StateView& state, double torque,
                      Eigen::Ref<Eigen::VectorXd> Q) const {
    bodies_.addPointTorque(point, state, torque, Q);
  }

  // ---- forces ----------------------------------------------------------------------
  ForceId addForce(std::unique_ptr<Force> force);
  void removeForce(ForceId id);
  [[nodiscard]] bool contains(ForceId id) const { return forceIds_.contains(id); }
  [[nodiscard]] std::size_t forceCount() const { return forces_.size(); }
  [[nodiscard]] ForceId forceAt(std::size_t index) const { return forceIds_.idAt(index); }
  [[nodiscard]] const Force& force(ForceId id) const { return *forces_[forceIds_.at(id)]; }
  // Replaces force `id` by the one `settings` describe (forces/force_settings.hpp), keeping its
  // id: how a running model moves a mouse spring's target or changes gravity. Counts as an edit.
  // Throws std::invalid_argument, changing nothing, if the settings are invalid or of a force
  // defined outside the library.
  void setForceSettings(ForceId id, const ForceSettings& settings);
  // Edits the settings of force `id`, which must be of type Settings:
  //   model.editForce<MouseSpringSettings>(drag, [&](auto& s) { s.target = cursor; });
  template <class Settings, class Edit>
  void editForce(ForceId id, Edit&& edit) {
    editSettings<Settings>(force(id).settings(), std::forward<Edit>(edit),
                           [&] { throwWrongType("the force", force(id).type(), "force", Settings::type); },
                           [&](const ForceSettings& s) { setForceSettings(id, s); });
  }

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
  // Whether the bodies the constraint joins may still collide (core/collider.hpp); by default
  // they do not, as a hinge's bodies overlap at the hinge by design.
  [[nodiscard]] bool collideConnected(ConstraintId id) const { return collideConnected_[indexOf(id)]; }
  void setCollideConnected(ConstraintId id, bool collide);
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
    editSettings<Settings>(constraint(id).settings(), std::forward<Edit>(edit),
                           [&] { throwWrongType(describe(id), constraint(id).type(), "constraint", Settings::type); },
                           [&](const ConstraintSettings& s) { setConstraintSettings(id, s); });
  }

  // ---- state -----------------------------------------------------------------------
  // The state (t, q, v), apart from the structure above. Reading it is never an edit.
  [[nodiscard]] const State& state() const { return state_; }
  [[nodiscard]] double time() const { return state_.time; }
  [[nodiscard]] const Eigen::VectorXd& q() const { return state_.q; }
  [[nodiscard]] const Eigen::VectorXd& v() const { return state_.v; }
  // Throws std::invalid_argument for a time that is not finite.
  void setTime(double time);
  // Writes the whole state: q and v [n], copied into the storage the model has, which stays
  // where it is while the layout does (stepping and restoring write into it; only adding or
  // removing a body lays the state out anew), so views of it stay valid. Throws
  // std::invalid_argument, changing nothing, for a vector of another size or a value that is not
  // finite. Counts as an edit.
  void setState(double time, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  // The storage of q and v itself, for a caller that lends out views of it (the Python module's
  // NumPy arrays). The model does not see writes through it: the caller reports them with
  // stateWritten(), which counts as an edit.
  [[nodiscard]] Eigen::VectorXd& qStorage() { return state_.q; }
  [[nodiscard]] Eigen::VectorXd& vStorage() { return state_.v; }
  void stateWritten() { touch(); }
  // The slice of a state vector x [n] that belongs to body `index` (dense index).
  [[nodiscard]] Eigen::Ref<const Eigen::VectorXd> slice(const Eigen::VectorXd& x, std::size_t index) const {
    return bodies_.slice(x, index);
  }

  // Increments whenever bodies or constraints are added or removed, i.e. whenever the
  // row/column layout of J changes. The simulator rebuilds its matrices when it changes.
  [[nodiscard]] std::uint64_t structureVersion() const { return stamp_.structure; }
  // Increments at every edit of any kind: a change of structure, a setter, a settings edit, or a
  // write reported by stateWritten(); reading never counts. The simulator keeps what it derived from the model (the constant blocks of
  // W, the constraints' evaluation at the state it left) only while this stays the same.
  [[nodiscard]] std::uint64_t revision() const { return stamp_.revision; }
  // Whether something steps this model (a Simulator holds it: ModelHold below).
  [[nodiscard]] bool isHeld() const { return stamp_.held; }

 private:
  // What editBody, editForce and editConstraint share: the item's settings, which must be of type
  // Settings (else `refuse` throws), edited and put back.
  template <class Settings, class Variant, class Edit, class Refuse, class Put>
  static void editSettings(Variant settings, Edit&& edit, Refuse&& refuse, Put&& put) {
    auto* typed = std::get_if<Settings>(&settings);
    if (!typed) std::forward<Refuse>(refuse)();
    std::forward<Edit>(edit)(*typed);
    std::forward<Put>(put)(settings);
  }
  // "<who> is a <type> <kind>, not a <wanted> one".
  [[noreturn]] static void throwWrongType(const std::string& who, std::string_view type, std::string_view kind,
                                          std::string_view wanted);
  void requireVector(const Eigen::VectorXd& x, std::string_view what) const;
  // Throws unless `constraint` is valid in this model: its parameters, its points and frames.
  void requireFits(const Constraint& constraint) const;
  void requireFits(const Force& force) const;
  // Throws std::invalid_argument, naming `operation`, unless body `id` is a particle.
  void requireParticle(BodyId id, std::string_view operation) const;
  void touch() { ++stamp_.revision; }
  // Takes every member of `other` but the stamp, and leaves `other` empty.
  void takeContents(Model& other) noexcept;

  int dimension_;

  Bodies bodies_;
  State state_;

  HandleTable<ForceTag> forceIds_;
  std::vector<std::unique_ptr<Force>> forces_;

  HandleTable<ConstraintTag> constraintIds_;
  std::vector<std::unique_ptr<Constraint>> constraints_;
  std::vector<std::string> constraintNames_;
  std::vector<bool> enabled_;
  std::vector<bool> collideConnected_;
  std::vector<double> breakForces_;
  std::size_t breakable_ = 0;  // how many of breakForces_ are finite

  // The edit counters and the hold, which belong to the object rather than to its contents. A
  // model moved from is emptied (takeContents): an edit of its structure. A model moved into takes counters past
  // both its own and the source's, so that a simulator holding it sees a new structure, and keeps
  // its hold (the simulator refers to this object). A model moved into a new object is not held.
  struct Stamp {
    std::uint64_t structure = 0;  // structureVersion()
    std::uint64_t revision = 0;   // revision()
    bool held = false;            // by a ModelHold

    Stamp() = default;
    Stamp(const Stamp&) = delete;
    Stamp& operator=(const Stamp&) = delete;
    Stamp(Stamp&& other) noexcept : structure(other.structure), revision(other.revision) { other.advance(); }
    Stamp& operator=(Stamp&& other) noexcept {
      structure = std::max(structure, other.structure) + 1;
      revision = std::max(revision, other.revision) + 1;
      other.advance();
      return *this;
    }
    ~Stamp() = default;
    void advance() { ++structure, ++revision; }
  };
  Stamp stamp_;

  friend class ModelHold;
};

// The hold of whatever steps a model: a Simulator takes one for its life. While one lives a
// second is refused, because two steppers would each keep warm starts, factorizations and
// diagnostics of a state the other moves. A hold moves with its holder; the model must outlive it.
class ModelHold {
 public:
  // Throws std::logic_error if `model` is held already.
  explicit ModelHold(Model& model);
  ModelHold(ModelHold&& other) noexcept : model_(std::exchange(other.model_, nullptr)) {}
  ModelHold(const ModelHold&) = delete;
  ModelHold& operator=(const ModelHold&) = delete;
  ModelHold& operator=(ModelHold&&) = delete;
  ~ModelHold() {
    if (model_) model_->stamp_.held = false;
  }

 private:
  Model* model_;
};

}  // namespace tinkertoy
