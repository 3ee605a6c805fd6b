// Test support: two rigid bodies (a box and a disc) and two particles at a random state and a
// random time, in 2D, with an off-centre site on each rigid body: what constraint tests evaluate
// at. The same seed gives the same model, so two of them can hold two versions of a constraint.
#pragma once

#include <memory>
#include <random>

#include "tinkertoy/model/model.hpp"
#include "tinkertoy/model/rigid_body.hpp"

namespace tinkertoy::test_support {

struct RandomBodies {
  Model model{2};
  BodyId a, b, p, r;

  explicit RandomBodies(unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    // Angles over several turns, so that nothing may silently wrap them.
    a = model.addBody(std::make_unique<RigidBody>(2.0, Shape::box(1.0, 0.2)), Eigen::Vector3d(u(rng), u(rng), 3 * u(rng)),
                      Eigen::Vector3d(u(rng), u(rng), u(rng)));
    b = model.addBody(std::make_unique<RigidBody>(1.5, Shape::circle(0.3)), Eigen::Vector3d(u(rng), u(rng), 3 * u(rng)),
                      Eigen::Vector3d(u(rng), u(rng), u(rng)));
    p = model.addParticle(0.7, Eigen::Vector2d(u(rng), u(rng)), Eigen::Vector2d(u(rng), u(rng)));
    r = model.addParticle(0.4, Eigen::Vector2d(u(rng), u(rng)), Eigen::Vector2d(u(rng), u(rng)));
    model.setTime(1.0 + u(rng));
  }
  [[nodiscard]] BodyPoint siteA() const { return {a, Eigen::Vector2d(0.4, -0.1)}; }
  [[nodiscard]] BodyPoint siteB() const { return {b, Eigen::Vector2d(-0.2, 0.25)}; }
};

}  // namespace tinkertoy::test_support
