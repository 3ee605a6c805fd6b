// The model's state apart from its structure (issue #37): reading a model is never an edit, the
// state is written whole through setState (checked, in place), and one simulator at a time
// steps a model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "tinkertoy/constraints/distance_constraint.hpp"
#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/forces/gravity.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy {
namespace {

struct Pendulum {
  Model model{2};
  BodyId bob = model.addParticle(1.0, Eigen::Vector2d(1.0, 0.0));
  ForceId gravity = model.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -9.81)));
  ConstraintId rod = model.addConstraint(std::make_unique<DistanceConstraint>(bob, Eigen::Vector2d(0.0, 0.0), 1.0));
};

TEST(StateApart, ReadingANonConstModelIsNoEdit) {
  Pendulum p;
  const std::uint64_t revision = p.model.revision();
  (void)p.model.q();
  (void)p.model.v();
  (void)p.model.state();
  (void)p.model.body(p.bob).type();
  (void)p.model.force(p.gravity).type();
  (void)p.model.constraint(p.rod).type();
  EXPECT_EQ(p.model.revision(), revision);
  p.model.editForce<GravitySettings>(p.gravity, [](GravitySettings&) {});  // an edit, by name
  EXPECT_EQ(p.model.revision(), revision + 1);
}

TEST(StateApart, SetStateWritesInPlaceAndCountsAsAnEdit) {
  Pendulum p;
  const double* storage = p.model.q().data();
  const std::uint64_t revision = p.model.revision();
  p.model.setState(0.5, Eigen::Vector2d(0.0, -1.0), Eigen::Vector2d(2.0, 0.0));
  EXPECT_EQ(p.model.q().data(), storage);  // views of the storage stay valid
  EXPECT_EQ(p.model.time(), 0.5);
  EXPECT_EQ(p.model.v(), Eigen::Vector2d(2.0, 0.0));
  EXPECT_GT(p.model.revision(), revision);
}

TEST(StateApart, SetStateRefusesABadStateAndChangesNothing) {
  Pendulum p;
  const Eigen::VectorXd q = p.model.q();
  try {
    p.model.setState(0.0, Eigen::Vector3d(1.0, 2.0, 3.0), Eigen::Vector2d::Zero());
    FAIL() << "a q of three entries for two coordinates was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("q has 3 entries; the model has 2 coordinates"), std::string::npos) << e.what();
  }
  EXPECT_THROW(p.model.setState(0.0, q, Eigen::Vector2d(NAN, 0.0)), std::invalid_argument);
  EXPECT_THROW(p.model.setState(INFINITY, q, Eigen::Vector2d::Zero()), std::invalid_argument);
  EXPECT_EQ(p.model.q(), q);
  EXPECT_EQ(p.model.time(), 0.0);
}

TEST(StateApart, ASecondSimulatorOnOneModelIsRefused) {
  Pendulum p;
  {
    Simulator first(p.model);
    EXPECT_TRUE(p.model.isHeld());
    try {
      Simulator second(p.model);
      FAIL() << "a second simulator was made on a held model";
    } catch (const std::logic_error& e) {
      EXPECT_EQ(typeid(e), typeid(std::logic_error)) << "a misuse, not a bad argument";
      EXPECT_NE(std::string(e.what()).find("already has a simulator"), std::string::npos) << e.what();
    }
    first.step();  // the first is unharmed by the refusal
    EXPECT_TRUE(p.model.isHeld());
  }
  EXPECT_FALSE(p.model.isHeld());
  Simulator again(p.model);  // once the first is gone, another may step it
  again.step();
  EXPECT_GT(p.model.time(), 0.0);
}

// With dopri5 an edit restarts the integration (its step size and its last derivative), so a read
// that counted as an edit would change the trajectory; the revision says so first.
TEST(StateApart, ReadingDuringARunKeepsTheStepsBitForBit) {
  const SimulationSettings settings{.dt = 1e-3, .integrator = IntegratorKind::DormandPrince5};
  Pendulum read, untouched;
  Simulator a(read.model, settings), b(untouched.model, settings);
  for (int i = 0; i < 50; ++i) {
    a.step();
    b.step();
    const std::uint64_t revision = read.model.revision();
    (void)read.model.q();
    (void)read.model.state();
    (void)read.model.body(read.bob).settings();
    (void)read.model.force(read.gravity).settings();
    (void)read.model.constraint(read.rod).settings();
    (void)a.constraintForce();
    ASSERT_EQ(read.model.revision(), revision) << "a read counted as an edit at step " << i;
  }
  EXPECT_EQ(read.model.q(), untouched.model.q());
  EXPECT_EQ(read.model.v(), untouched.model.v());
}

// The hold stays with the object a simulator refers to: a model moved out of a held one is free
// for a simulator of its own, and the emptied original is still held.
TEST(StateApart, AModelMovedOutOfAHeldOneIsNotHeld) {
  Pendulum p;
  Simulator first(p.model);
  Model moved = std::move(p.model);
  EXPECT_FALSE(moved.isHeld());
  EXPECT_TRUE(p.model.isHeld());
  Simulator second(moved);
  second.step();
  EXPECT_GT(moved.time(), 0.0);
  // The original is an empty model, as Model(2) makes one: the first simulator steps nothing, and
  // the model takes new bodies.
  EXPECT_EQ(p.model.bodyCount(), 0u);
  EXPECT_EQ(p.model.q().size(), 0);
  first.step();
  EXPECT_EQ(p.model.q().size(), 0);
  const BodyId again = p.model.addParticle(1.0, Eigen::Vector2d(0.0, 1.0), Eigen::Vector2d(0.0, 2.0));
  first.step();
  EXPECT_GT(p.model.position(again)[1], 1.0);
}

// A model moved into a held one (the Studio opening a scene while its simulator lives) is new to
// that simulator, whatever the edit counters of the two were: it lays the new model out again and
// steps it as a fresh simulator would, bit for bit. Here the two models were built by the same
// calls, so their counters are equal: only the move's counters tell the simulator.
TEST(StateApart, AModelMovedIntoAHeldOneIsSteppedAfresh) {
  const auto twoBobs = [](double mass) {
    Model m(2);
    const BodyId a = m.addParticle(1.0, Eigen::Vector2d(1.0, 0.0));
    const BodyId b = m.addParticle(mass, Eigen::Vector2d(2.0, 0.5));
    m.addForce(std::make_unique<Gravity>(Eigen::Vector2d(0.0, -9.81)));
    m.addConstraint(std::make_unique<DistanceConstraint>(a, Eigen::Vector2d(0.0, 0.0), 1.0));
    m.addConstraint(std::make_unique<DistanceConstraint>(BodyPoint{a}, BodyPoint{b}, std::sqrt(1.25)));
    return m;
  };
  Model held = twoBobs(2.0);
  Simulator simulator(held);
  Model replacement = twoBobs(5.0);
  ASSERT_EQ(replacement.structureVersion(), held.structureVersion());
  ASSERT_EQ(replacement.revision(), held.revision());
  held = std::move(replacement);
  EXPECT_TRUE(held.isHeld());
  Model reference = twoBobs(5.0);
  Simulator fresh(reference);
  for (int i = 0; i < 20; ++i) {
    simulator.step();
    fresh.step();
  }
  EXPECT_EQ(held.q(), reference.q());
  EXPECT_EQ(held.v(), reference.v());
}

}  // namespace
}  // namespace tinkertoy
