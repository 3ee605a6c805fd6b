// SimulationError: a step that could not be completed. The model keeps its last good state.
//
// Thrown by Simulator::step() when the new state is not finite (a blow-up), when the direct
// solver finds redundant constraints, or when a body's mass matrix is singular. It names the
// step and, where it can, the body and the constraint involved.
//
//   try { simulator.step(); }
//   catch (const tinkertoy::SimulationError& e) { std::cerr << e.what(); }
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "tinkertoy/core/handles.hpp"

namespace tinkertoy {

class SimulationError : public std::runtime_error {
 public:
  SimulationError(const std::string& what, std::uint64_t step, double time,
                  std::optional<BodyId> body, std::optional<ConstraintId> constraint)
      : std::runtime_error(what), step_(step), time_(time), body_(body),
        constraint_(constraint) {}

  // The step that failed (1 for the first step) and the time it started from.
  [[nodiscard]] std::uint64_t step() const { return step_; }
  [[nodiscard]] double time() const { return time_; }
  [[nodiscard]] const std::optional<BodyId>& body() const { return body_; }
  [[nodiscard]] const std::optional<ConstraintId>& constraint() const { return constraint_; }

 private:
  std::uint64_t step_;
  double time_;
  std::optional<BodyId> body_;
  std::optional<ConstraintId> constraint_;
};

}  // namespace tinkertoy
