// Model: what exists. Particles with their state, forces, and constraints.
//
// The state is stored the way the seeds' monolithic view wants it (seed 000 §3):
//
//   q   positions  [n_dof]   particle i occupies q[i*d .. i*d + d), d = dimension()
//   v   velocities [n_dof]   same layout
//   W   inverse mass diagonal [n_dof], W = M⁻¹ with M = diag(m_1, m_1, ..., m_n)
//
// Users hold ParticleId / ForceId / ConstraintId handles, never pointers into these arrays.
// Removing a particle moves the last particle into its place, so dense indices change but
// ids stay valid. How the model moves is the Simulator's business (dynamics/simulator.hpp).
//
//   tinkertoy::Model model(2);
//   auto bob = model.addParticle(1.0, Eigen::Vector2d(1, 0));
//   model.addConstraint(std::make_unique<tinkertoy::DistanceConstraint>(bob, Eigen::Vector2d(0, 0), 1.0));
//   model.addForce(std::make_unique<tinkertoy::Gravity>(Eigen::Vector2d(0, -9.81)));
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tinkertoy/constraints/constraint.hpp"
#include "tinkertoy/forces/force.hpp"
#include "tinkertoy/model/handles.hpp"

namespace tinkertoy {

class Model {
 public:
  // dimension: 2 or 3.
  explicit Model(int dimension);

  [[nodiscard]] int dimension() const { return dimension_; }

  // ---- particles -------------------------------------------------------------------
  // mass > 0 and finite; position and velocity [dimension] (velocity empty means zero).
  ParticleId addParticle(double mass, const Eigen::VectorXd& position,
                         const Eigen::VectorXd& velocity = {}, std::string name = {});
  // Removes the particle and every force and constraint that names it.
  void removeParticle(ParticleId id);

  [[nodiscard]] bool contains(ParticleId id) const { return particles_.contains(id); }
  [[nodiscard]] std::size_t particleCount() const { return particles_.size(); }
  [[nodiscard]] ParticleId particleAt(std::size_t index) const { return particles_.idAt(index); }
  // Dense index of a particle; its coordinates start at q[indexOf(id) * dimension()].
  [[nodiscard]] std::size_t indexOf(ParticleId id) const { return particles_.at(id); }
  [[nodiscard]] std::size_t offsetOf(ParticleId id) const { return indexOf(id) * dimension_; }
  [[nodiscard]] std::optional<ParticleId> findParticle(std::string_view name) const;

  [[nodiscard]] double mass(ParticleId id) const { return masses_[indexOf(id)]; }
  void setMass(ParticleId id, double mass);
  [[nodiscard]] Eigen::VectorXd position(ParticleId id) const;
  [[nodiscard]] Eigen::VectorXd velocity(ParticleId id) const;
  void setPosition(ParticleId id, const Eigen::VectorXd& position);
  void setVelocity(ParticleId id, const Eigen::VectorXd& velocity);
  [[nodiscard]] const std::string& name(ParticleId id) const { return particleNames_[indexOf(id)]; }
  // The name if it has one, else "particle #<dense index>".
  [[nodiscard]] std::string describe(ParticleId id) const;

  // ---- forces ----------------------------------------------------------------------
  ForceId addForce(std::unique_ptr<Force> force);
  void removeForce(ForceId id);
  [[nodiscard]] bool contains(ForceId id) const { return forceIds_.contains(id); }
  [[nodiscard]] std::size_t forceCount() const { return forces_.size(); }
  [[nodiscard]] ForceId forceAt(std::size_t index) const { return forceIds_.idAt(index); }
  [[nodiscard]] Force& force(ForceId id) { return *forces_[forceIds_.at(id)]; }
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
  [[nodiscard]] Constraint& constraint(ConstraintId id) { return *constraints_[indexOf(id)]; }
  [[nodiscard]] const Constraint& constraint(ConstraintId id) const {
    return *constraints_[indexOf(id)];
  }
  // The name if it has one, else "<type> constraint #<dense index>".
  [[nodiscard]] std::string describe(ConstraintId id) const;

  // ---- state -----------------------------------------------------------------------
  [[nodiscard]] double time() const { return time_; }
  void setTime(double time) { time_ = time; }
  [[nodiscard]] const Eigen::VectorXd& q() const { return q_; }
  [[nodiscard]] const Eigen::VectorXd& v() const { return v_; }
  // Mutable access for integrators; the size must not change.
  [[nodiscard]] Eigen::VectorXd& q() { return q_; }
  [[nodiscard]] Eigen::VectorXd& v() { return v_; }
  // W, the diagonal of M⁻¹ [n_dof].
  [[nodiscard]] const Eigen::VectorXd& inverseMass() const { return inverseMass_; }

  // Increments whenever particles or constraints are added or removed, i.e. whenever the
  // row/column layout of J changes. The simulator rebuilds its matrices when it changes.
  [[nodiscard]] std::uint64_t structureVersion() const { return structureVersion_; }

 private:
  void requireVector(const Eigen::VectorXd& x, std::string_view what) const;
  void requireParticles(std::span<const ParticleId> ids, std::string_view owner) const;
  void resizeState(std::size_t particles);

  int dimension_;
  double time_ = 0.0;

  HandleTable<ParticleTag> particles_;
  std::vector<double> masses_;
  std::vector<std::string> particleNames_;
  Eigen::VectorXd q_, v_, inverseMass_;

  HandleTable<ForceTag> forceIds_;
  std::vector<std::unique_ptr<Force>> forces_;

  HandleTable<ConstraintTag> constraintIds_;
  std::vector<std::unique_ptr<Constraint>> constraints_;
  std::vector<std::string> constraintNames_;

  std::uint64_t structureVersion_ = 0;
};

}  // namespace tinkertoy
