// The shared marks of a picture: a spring's zigzag, dashes, an arrow's head, an infinite
// line's span, round scale steps, and the style's colour rules.
#include <gtest/gtest.h>

#include "tinkertoy/view/strokes.hpp"
#include "tinkertoy/view/style.hpp"

namespace tinkertoy {
namespace {

TEST(Strokes, ZigzagRunsEndToEndWithinItsAmplitude) {
  const Eigen::Vector2d a(10, 20), b(110, 20);
  const std::vector<Eigen::Vector2d> z = zigzag(a, b, 6.0, 12);
  ASSERT_EQ(z.size(), 15u);  // two ends, two leads, 11 corners
  EXPECT_EQ(z.front(), a);
  EXPECT_EQ(z.back(), b);
  for (const Eigen::Vector2d& p : z) EXPECT_LE(std::abs(p.y() - 20.0), 6.0 + 1e-12);
  EXPECT_DOUBLE_EQ(std::abs(z[2].y() - 20.0), 6.0);  // the corners reach the amplitude
  EXPECT_GT(z[2].y() - 20.0, 0.0);
  EXPECT_LT(z[3].y() - 20.0, 0.0);  // and alternate
  EXPECT_TRUE(zigzag(a, a, 6.0).empty());
}

TEST(Strokes, DashesCoverHalfTheLine) {
  const auto d = dashes({0, 0}, {0, 100}, 10.0);
  ASSERT_EQ(d.size(), 5u);
  double inked = 0.0;
  for (const auto& [from, to] : d) inked += (to - from).norm();
  EXPECT_DOUBLE_EQ(inked, 50.0);
  EXPECT_EQ(d.back()[1], Eigen::Vector2d(0, 90));
}

TEST(Strokes, ArrowHeadPointsAlongTheArrow) {
  const auto [tip, left, right] = arrowHead({0, 0}, {100, 0}, 10.0);
  EXPECT_EQ(tip, Eigen::Vector2d(100, 0));
  EXPECT_TRUE(left.isApprox(Eigen::Vector2d(90, 5)));
  EXPECT_TRUE(right.isApprox(Eigen::Vector2d(90, -5)));
  // A short arrow gets a head 0.4 of its length.
  EXPECT_DOUBLE_EQ(arrowHead({0, 0}, {10, 0}, 10.0)[1].x(), 6.0);
}

TEST(Strokes, SpanCrossesTheWholeView) {
  Bounds view;
  view.add({-2, -1});
  view.add({2, 1});
  const SketchLine line{.point = {5, 0}, .direction = {1, 0}};
  const auto [from, to] = spanAcross(line, view);
  EXPECT_LT(from.x(), -2.0);
  EXPECT_GT(to.x(), 2.0);
}

TEST(Strokes, RoundStepsAreOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(roundStep(0.4), 0.5);
  EXPECT_DOUBLE_EQ(roundStep(1.0), 1.0);
  EXPECT_DOUBLE_EQ(roundStep(1.01), 2.0);
  EXPECT_DOUBLE_EQ(roundStep(3.0), 5.0);
  EXPECT_DOUBLE_EQ(roundStep(7.0), 10.0);
  EXPECT_NEAR(roundStep(0.013), 0.02, 1e-15);
}

// A nail stands its triangle's tip on the held point; a slider's axis follows its direction
// with y flipped into pixels; sizes grow with the unit.
TEST(Strokes, PinMarksStandOnTheHeldPoint) {
  const Eigen::Vector2d at(100, 50);
  const std::vector<PinMark> nail = pinMarks({.at = {0, 0}, .kind = SketchPin::Kind::Nail}, at, 2.0);
  ASSERT_EQ(nail.size(), 3u);
  EXPECT_EQ(nail[0].kind, PinMark::Kind::FilledPolygon);
  EXPECT_EQ(nail[0].points[0], at);
  EXPECT_EQ(nail[0].points[1], Eigen::Vector2d(84, 74));  // (−8, 12) px × 2, below: y grows down
  EXPECT_DOUBLE_EQ(nail[2].radius, 6.0);

  const SketchPin slider{.at = {0, 0}, .kind = SketchPin::Kind::Slider, .direction = {0.6, 0.8}};
  const std::vector<PinMark> marks = pinMarks(slider, at);
  ASSERT_EQ(marks[0].kind, PinMark::Kind::Polyline);
  EXPECT_TRUE((marks[0].points[1] - at).isApprox(Eigen::Vector2d(24 * 0.6, -24 * 0.8)));
  for (const SketchPin::Kind kind : {SketchPin::Kind::Hinge, SketchPin::Kind::Weld, SketchPin::Kind::Driver,
                                     SketchPin::Kind::Pulley, SketchPin::Kind::Pivot}) {
    EXPECT_FALSE(pinMarks({.kind = kind}, at).empty());
  }
}

TEST(Style, RodsShadeByTheSignAndSizeOfLambda) {
  EXPECT_EQ(rodColour(-5.0, 5.0).r, colours::kTension.r);
  EXPECT_EQ(rodColour(5.0, 5.0).b, colours::kCompression.b);
  EXPECT_EQ(rodColour(0.0, 5.0).g, colours::kInk.g);
  EXPECT_EQ(rodColour(std::nan(""), 5.0).r, colours::kInk.r);  // unknown λ
  const Colour half = rodColour(-2.5, 5.0);
  EXPECT_EQ(half.r, (colours::kInk.r + colours::kTension.r + 1) / 2);
  EXPECT_GT(dotRadius(8.0), dotRadius(1.0));
  EXPECT_DOUBLE_EQ(dotRadius(1e6), dotRadius(100.0));  // clamped
}

// A motor is drawn (it was not): an arc round its joint's pin, in the mouse's orange, whose
// arrowhead points the way the motor turns: counter-clockwise on the picture for a positive
// speed, clockwise for a negative one (pixels have y down).
TEST(Strokes, AMotorsArrowTurnsItsWay) {
  const Eigen::Vector2d at(100, 100);
  for (const int turn : {1, -1}) {
    SCOPED_TRACE(turn);
    const std::vector<PinMark> marks = pinMarks({.at = Eigen::Vector2d::Zero(), .kind = SketchPin::Kind::Hinge, .motor = turn}, at);
    ASSERT_GE(marks.size(), 2u);
    const PinMark& head = marks.back();
    ASSERT_EQ(head.kind, PinMark::Kind::FilledPolygon);
    const Eigen::Vector2d tip = head.points[0];
    // Three quarters round from the right: below the pin going right (counter-clockwise on the
    // picture), or above it going right (clockwise).
    EXPECT_NEAR(tip.x() - at.x(), 6.0, 1e-9);
    EXPECT_NEAR(tip.y() - at.y(), turn * 14.0, 1e-9);
    EXPECT_EQ(head.colour.r, colours::kMouse.r);
  }
  EXPECT_EQ(pinMarks({.kind = SketchPin::Kind::Hinge}, at).size(), 2u) << "a hinge without a motor: its two circles";
}

}  // namespace
}  // namespace tinkertoy
