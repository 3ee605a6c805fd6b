// The plots' value axis: a log axis spans whole decades labelled "1e-3", "1", "1e+2" (they read
// "1e-0" and the like), and a series that is all zero (‖C‖ without constraints) has no axis
// instead of a line at "1e-16".
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tinkertoy::studio
