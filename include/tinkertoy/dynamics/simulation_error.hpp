// SimulationError: a step that could not be completed. The model keeps its last good state.
//
// Thrown by Simulator::step() when the new state is not finite (a blow-up) or when the
// direct solver finds redundant constraints. It names the step and, where it can, the
// particle and the constraint involved.
//
//   try { simulator.step(); }
//   catch (const tinkertoy::SimulationError& e) { std::cerr << e.what(); }
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "tinkertoy/model/handles.hpp"

namespace tinkertoy {

class SimulationError : public std::runtime_error {
 public:
  SimulationError(const std::string& what, std::uint64_t step, double time,
                  std::optional<ParticleId> particle, std::optional<ConstraintId> constraint)
      : std::runtime_error(what), step_(step), time_(time), particle_(particle),
        constraint_(constraint) {}

  // The step that failed (1 for the first step) and the time it started from.
  [[nodiscard]] std::uint64_t step() const { return step_; }
  [[nodiscard]] double time() const { return time_; }
  [[nodiscard]] const std::optional<ParticleId>& particle() const { return particle_; }
  [[nodiscard]] const std::optional<ConstraintId>& constraint() const { return constraint_; }

 private:
  std::uint64_t step_;
  double time_;
  std::optional<ParticleId> particle_;
  std::optional<ConstraintId> constraint_;
};

}  // namespace tinkertoy
