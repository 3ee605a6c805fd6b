#include "tinkertoy/constraints/joint.hpp"

#include <stdexcept>
#include <string>

#include "common/article.hpp"

namespace tinkertoy {

Joint::Joint(const JointConnection& connection)
    : connection_(connection), points_{connection.a, connection.b.value_or(BodyPoint{})} {}

void Joint::requirePlanar(int dimension) const {
  if (dimension != 2) throw std::invalid_argument(detail::withArticle(type()) + " joint needs a 2D model");
  if (!connection_.ground.allFinite()) throw std::invalid_argument("the joint's ground point must be finite");
  if (connection_.b && *connection_.b == connection_.a) {
    throw std::invalid_argument(detail::withArticle(type()) + " joint cannot join a point to itself");
  }
}

}  // namespace tinkertoy
