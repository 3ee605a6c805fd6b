#include "tinkertoy/dynamics/formulation.hpp"

#include "dynamics/acceleration_formulation.hpp"
#include "dynamics/velocity_formulation.hpp"

namespace tinkertoy {

std::unique_ptr<Formulation> makeFormulation(const Model& model, const SimulationSettings& settings) {
  if (settings.formulation == FormulationKind::Velocity) return std::make_unique<VelocityFormulation>(model, settings);
  return std::make_unique<AccelerationFormulation>(model, settings);
}

}  // namespace tinkertoy
