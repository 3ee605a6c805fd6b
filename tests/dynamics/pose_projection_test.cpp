// projectPose: a pose edited off its constraints is brought back onto them, the held body
// moving least — a pendulum's bob dragged off its circle lands on the circle toward the drag,
// a double pendulum follows its dragged end, a slack rope is left alone and a rod dragged past
// its reach ends at a finite compromise, reported.
#include <gtest/gtest.h>

#include <array>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/dynamics/constraint_system.hpp"
#include "tinkertoy/dynamics/pose_projection.hpp"

namespace tinkertoy {
namespace {

Eigen::Vector2d at(const Model& model, BodyId body) { return model.coordinates(body).head<2>(); }

TEST(PoseProjection, ABobDraggedOffItsCircleLandsOnItTowardTheDrag) {
  Model model(2);
  const BodyId bob = model.addParticle(1.0, Eigen::Vector2d(0.0, -1.0));
  model.addConstraint(std::make_unique<DistanceConstraint>(bob, Eigen::Vector2d(0, 0), 1.0));
  const Eigen::Vector2d dragged(0.3, -0.5);
  model.setCoordinates(bob, dragged);
  const ProjectionResult r = projectPose(model, std::array{bob});
  EXPECT_TRUE(r.converged);
  EXPECT_LE(r.error, 1e-12);
  EXPECT_NEAR(at(model, bob).norm(), 1.0, 1e-12);
  EXPECT_LE((at(model, bob) - dragged.normalized()).norm(), 1e-9) << "the nearest point of the circle";
}

TEST(PoseProjection, ADoublePendulumFollowsItsDraggedEnd) {
  Model model(2);
  const BodyId p2 = model.addParticle(1.0, Eigen::Vector2d(0.0, -1.0));
  const BodyId p3 = model.addParticle(1.0, Eigen::Vector2d(0.0, -2.0));
  model.addConstraint(std::make_unique<DistanceConstraint>(p2, Eigen::Vector2d(0, 0), 1.0));
  model.addConstraint(std::make_unique<DistanceConstraint>(p2, p3, 1.0));
  const Eigen::Vector2d dragged(1.2, -1.0);  // within reach (|dragged| < 2)
  model.setCoordinates(p3, dragged);
  const Eigen::Vector2d p2Before = at(model, p2);
  const ProjectionResult r = projectPose(model, std::array{p3});
  EXPECT_TRUE(r.converged) << r.error;
  EXPECT_NEAR(at(model, p2).norm(), 1.0, 1e-12);
  EXPECT_NEAR((at(model, p3) - at(model, p2)).norm(), 1.0, 1e-12);
  EXPECT_LT((at(model, p3) - dragged).norm(), 0.05 * (at(model, p2) - p2Before).norm())
      << "the held end moves far less than the free joint";
}

TEST(PoseProjection, ASlackRopeIsLeftAloneAndAnUnreachableDragEndsFinite) {
  Model model(2);
  const BodyId bob = model.addParticle(1.0, Eigen::Vector2d(0.0, -0.5));
  model.addConstraint(std::make_unique<DistanceConstraint>(
      DistanceConstraintSettings{.a = bob, .anchor = Eigen::Vector2d(0, 0), .maxLength = 1.0}));
  const ProjectionResult slack = projectPose(model, std::array{bob});
  EXPECT_EQ(slack.iterations, 0);
  EXPECT_EQ(at(model, bob), Eigen::Vector2d(0.0, -0.5));
  model.setCoordinates(bob, Eigen::Vector2d(0.0, -3.0));  // the rope taut past its length
  const ProjectionResult taut = projectPose(model, std::array{bob});
  EXPECT_TRUE(taut.converged);
  EXPECT_NEAR(at(model, bob).y(), -1.0, 1e-12);

  Model pinned(2);  // both ends of a rod on the world: nothing can give
  const BodyId a = pinned.addParticle(1.0, Eigen::Vector2d(1.0, 0.0));
  pinned.addConstraint(std::make_unique<DistanceConstraint>(a, Eigen::Vector2d(0, 0), 1.0));
  pinned.addConstraint(std::make_unique<DistanceConstraint>(a, Eigen::Vector2d(3, 0), 2.0));
  pinned.setCoordinates(a, Eigen::Vector2d(1.0, 2.0));
  const ProjectionResult stuck = projectPose(pinned, std::array{a});
  EXPECT_TRUE(at(pinned, a).allFinite());
  EXPECT_TRUE(stuck.converged || stuck.stalled || stuck.iterations == ProjectionSettings{}.maxIterations);
}

TEST(PoseProjection, AModelWithoutConstraintsIsUntouched) {
  Model model(2);
  const BodyId p = model.addParticle(1.0, Eigen::Vector2d(0.25, 0.5));
  const ProjectionResult r = projectPose(model, std::array{p});
  EXPECT_EQ(r.iterations, 0);
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(at(model, p), Eigen::Vector2d(0.25, 0.5));
}

}  // namespace
}  // namespace tinkertoy
