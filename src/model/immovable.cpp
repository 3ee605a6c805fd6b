#include "tinkertoy/model/immovable.hpp"

namespace tinkertoy {

std::string immovableProblem(const Model& model, const Constraint& constraint) {
  if (model.movesAny(constraint.points())) return "";
  return "this " + std::string(constraint.type()) +
         " joins only static or kinematic bodies (or fixed points), which no constraint moves, so it could hold "
         "nothing; attach it to a dynamic body";
}

}  // namespace tinkertoy
