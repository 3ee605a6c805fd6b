#include "tinkertoy/forces/make_force.hpp"

#include "tinkertoy/core/make_from_settings.hpp"
#include "tinkertoy/forces/constant_force.hpp"
#include "tinkertoy/forces/drag.hpp"
#include "tinkertoy/forces/formula_potential.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/forces/mouse_spring.hpp"
#include "tinkertoy/forces/spring.hpp"
#include "tinkertoy/forces/torque.hpp"

namespace tinkertoy {
namespace {

// The class each settings struct builds.
template <class Settings> struct Built;
template <> struct Built<GravitySettings> { using Type = Gravity; };
template <> struct Built<DragSettings> { using Type = Drag; };
template <> struct Built<ConstantForceSettings> { using Type = ConstantForce; };
template <> struct Built<TorqueSettings> { using Type = Torque; };
template <> struct Built<SpringSettings> { using Type = Spring; };
template <> struct Built<MouseSpringSettings> { using Type = MouseSpring; };
template <> struct Built<FormulaPotentialSettings> { using Type = FormulaPotential; };

}  // namespace

std::unique_ptr<Force> makeForce(const ForceSettings& settings) {
  return detail::makeFromSettings<Force, Built>(settings, "makeForce", "a force");
}

}  // namespace tinkertoy
