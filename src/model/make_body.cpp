#include "tinkertoy/model/make_body.hpp"

#include "tinkertoy/core/make_from_settings.hpp"
#include "tinkertoy/model/bead.hpp"
#include "tinkertoy/model/chain.hpp"
#include "tinkertoy/model/particle.hpp"
#include "tinkertoy/model/rigid_body.hpp"

namespace tinkertoy {
namespace {

// The class each settings struct builds.
template <class Settings> struct Built;
template <> struct Built<ParticleSettings> { using Type = Particle; };
template <> struct Built<BeadSettings> { using Type = Bead; };
template <> struct Built<ChainSettings> { using Type = Chain; };
template <> struct Built<RigidBodySettings> { using Type = RigidBody; };

}  // namespace

std::unique_ptr<Body> makeBody(const BodySettings& settings) {
  return detail::makeFromSettings<Body, Built>(settings, "makeBody", "a body");
}

}  // namespace tinkertoy
