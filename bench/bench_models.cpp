#include "bench_models.hpp"

#include <memory>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/constraints/revolute_joint.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/model/rigid_body.hpp"

namespace tinkertoy::bench {

BenchModel chainModel(int links) {
  Model model(2);
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0, -9.81)));
  BodyId previous;
  for (int i = 1; i <= links; ++i) {
    const BodyId p = model.addParticle(1.0, Eigen::Vector2d(i, 0));
    if (i == 1) {
      model.addConstraint(std::make_unique<DistanceConstraint>(p, Eigen::Vector2d(0, 0), 1.0));
    } else {
      model.addConstraint(std::make_unique<DistanceConstraint>(previous, p, 1.0));
    }
    previous = p;
  }
  return {std::move(model), 1.0};
}

BenchModel clothModel(int side) {
  constexpr double kSpacing = 0.1;
  Model model(3);
  model.addForce(std::make_unique<Gravity>(Eigen::Vector3d(0, -9.81, 0)));
  std::vector<BodyId> grid;
  for (int j = 0; j < side; ++j) {
    for (int i = 0; i < side; ++i) {
      grid.push_back(model.addParticle(1.0, Eigen::Vector3d(i * kSpacing, 0, j * kSpacing)));
    }
  }
  auto at = [&](int i, int j) { return grid[static_cast<std::size_t>(j * side + i)]; };
  for (int j = 0; j < side; ++j) {
    for (int i = 0; i < side; ++i) {
      if (i + 1 < side) model.addConstraint(std::make_unique<DistanceConstraint>(at(i, j), at(i + 1, j), kSpacing));
      if (j + 1 < side) model.addConstraint(std::make_unique<DistanceConstraint>(at(i, j), at(i, j + 1), kSpacing));
    }
  }
  for (const BodyId corner : {at(0, 0), at(side - 1, side - 1)}) {
    model.addConstraint(std::make_unique<FixedPointConstraint>(corner, model.position(corner)));
  }
  return {std::move(model), kSpacing};
}

BenchModel jointGridModel(int side) {
  constexpr double kRadius = 0.4;
  const double mass = 3.141592653589793 * kRadius * kRadius;  // density 1
  const Shape disc = Shape::circle(kRadius);
  Model model(2);
  model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0, -9.81)));
  std::vector<BodyId> grid;
  for (int i = 0; i < side; ++i) {      // row, downward
    for (int k = 0; k < side; ++k) {    // column
      const bool fixed = i == 0 && k >= side / 2 - 3 && k <= side / 2 + 3;
      const auto motion = fixed ? RigidBody::Motion::Static : RigidBody::Motion::Dynamic;
      grid.push_back(model.addBody(std::make_unique<RigidBody>(mass, disc.inertia(mass), disc, motion),
                                   Eigen::Vector3d(k, -i, 0.0)));
    }
  }
  auto at = [&](int i, int k) { return grid[static_cast<std::size_t>(i * side + k)]; };
  // A pin at the midpoint between two neighbours: half a spacing from each center.
  auto pin = [&](BodyId a, BodyId b, const Eigen::Vector2d& half) {
    model.addConstraint(std::make_unique<RevoluteJoint>(JointConnection{.a = {a, half}, .b = BodyPoint{b, -half}}));
  };
  for (int i = 0; i < side; ++i) {
    for (int k = 0; k < side; ++k) {
      if (k + 1 < side) pin(at(i, k), at(i, k + 1), Eigen::Vector2d(0.5, 0.0));
      if (i + 1 < side) pin(at(i, k), at(i + 1, k), Eigen::Vector2d(0.0, -0.5));
    }
  }
  return {std::move(model), 1.0};
}

}  // namespace tinkertoy::bench
