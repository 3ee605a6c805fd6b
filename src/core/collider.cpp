#include "tinkertoy/core/collider.hpp"

#include "common/vector_checks.hpp"

namespace tinkertoy {

void Collider::validate() const {
  if (friction) detail::requireNonNegative(*friction, "friction");
  if (restitution) {
    detail::requireNonNegative(*restitution, "restitution");
    if (*restitution > 1.0) throw std::invalid_argument("restitution must be at most 1 (a bounce cannot gain speed)");
  }
}

}  // namespace tinkertoy
