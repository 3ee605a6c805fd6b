// The plots' value axis: a log axis spans whole decades labelled "1e-3", "1", "1e+2" (they read
// "1e-0" and the like), and a series that is all zero (‖C‖ without constraints) has no axis
// instead of a line at "1e-16".
#include <gtest/gtest.h>

#include <cmath>

#include "plot_axis.hpp"

namespace tinkertoy::studio {
namespace {

TEST(PlotAxis, ALogAxisSpansWholeDecades) {
  AxisRange range;
  for (const double v : {3e-13, 2e-11, 0.0, 4e-12}) range.add(axisCoordinate(v, true));
  const AxisRange framed = range.framed(true);
  EXPECT_EQ(framed.lo, -13.0);
  EXPECT_EQ(framed.hi, -10.0);
  EXPECT_EQ(axisLabel(framed.lo, true), "1e-13");
  EXPECT_EQ(axisLabel(-0.3, true), "1");
  EXPECT_EQ(axisLabel(0.0, true), "1");
  EXPECT_EQ(axisLabel(2.0, true), "1e+2");
  AxisRange one;
  one.add(axisCoordinate(1.0, true));
  EXPECT_EQ(one.framed(true).hi - one.framed(true).lo, 1.0) << "a flat series still gets a decade";
}

TEST(PlotAxis, AllZeroHasNoLogAxis) {
  AxisRange range;
  for (const double v : {0.0, 0.0, -0.0}) range.add(axisCoordinate(v, true));
  EXPECT_TRUE(range.empty());
  AxisRange linear;
  for (const double v : {0.0, 0.0}) linear.add(axisCoordinate(v, false));
  EXPECT_FALSE(linear.empty());
  EXPECT_EQ(linear.framed(false).lo, -0.5);
  EXPECT_EQ(axisLabel(1234.5, false), "1.23e+03");
  EXPECT_FALSE(axisCoordinate(NAN, false));
}

// The plots show a time window: a yank 20 s ago no longer sets the scale of what follows.
TEST(PlotAxis, AWindowLeavesAnOldYankOut) {
  const double t0 = windowStart(0.0, 30.0, 10.0);
  EXPECT_EQ(t0, 20.0);
  EXPECT_EQ(windowStart(5.0, 8.0, 10.0), 5.0) << "a history shorter than the window: all of it";
  EXPECT_EQ(windowStart(0.0, 30.0, INFINITY), 0.0);
  AxisRange range;
  for (int k = 0; k <= 300; ++k) {
    const double t = 0.1 * k, energy = k == 50 ? 1000.0 : 1.0 + 0.01 * std::sin(t);
    if (t >= t0) range.add(axisCoordinate(energy, false));
  }
  EXPECT_LT(range.hi, 1.02);
}

}  // namespace
}  // namespace tinkertoy::studio
