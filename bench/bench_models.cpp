#include "bench_models.hpp"

#include <memory>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/constraints/fixed_point_constraint.hpp"
#include "tinkertoy/forces/gravity.hpp"

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

}  // namespace tinkertoy::bench
