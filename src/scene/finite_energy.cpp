// The initial state's energy must be a double (finite_energy.hpp).
#include "scene/finite_energy.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "tinkertoy/dynamics/inverse_mass.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy::scene {

void requireFiniteEnergy(const Model& model, std::size_t particles) {
  const auto overflow = [](const std::string& path, const char* what, double energy) {
    std::ostringstream reason;
    reason << "its " << what << " energy at the start is ";
    if (std::isnan(energy)) {
      reason << "not defined (nan): a formula or curve it depends on has no value there";
    } else {
      reason << energy << " J, beyond what a double holds; scale the scene's numbers down";
    }
    throw SceneError(path, reason.str());
  };
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    const std::string path =
        i < particles ? "particles[" + std::to_string(i) + "]" : "bodies[" + std::to_string(i - particles) + "]";
    // A body no force can accelerate (no W = M⁻¹) could not take one step.
    if (const std::string problem = massMatrixProblem(model.body(id), model.coordinates(id)); !problem.empty()) {
      throw SceneError(path, "its mass matrix " + problem + ", at the scene's initial state");
    }
    const double kinetic = model.body(id).kineticEnergy(model.coordinates(id), model.velocities(id));
    if (std::isfinite(kinetic)) continue;
    overflow(path, "kinetic", kinetic);
  }
  const StateView state = model.state();
  Eigen::VectorXd Q = Eigen::VectorXd::Zero(model.q().size());
  for (std::size_t k = 0; k < model.forceCount(); ++k) {
    const std::string path = k == 0 ? "gravity" : "forces[" + std::to_string(k - 1) + "]";
    const Force& force = model.force(model.forceAt(k));
    double potential = 0.0;
    try {  // a formula potential not defined at the start could not take one step
      potential = force.potentialEnergy(model.bodies(), state);
      force.accumulate(model.bodies(), state, Q);
    } catch (const UndefinedForceError& e) {
      const bool formula = std::holds_alternative<FormulaPotentialSettings>(force.settings());
      throw SceneError(path + (formula ? ".V" : ""),
                       std::string(e.what()) + ", at the scene's initial state");
    }
    if (std::isfinite(potential)) continue;
    overflow(path, "potential", potential);
  }
}

}  // namespace tinkertoy::scene
