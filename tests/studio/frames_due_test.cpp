// A recording's length follows its clock, not the drawing rate: drawn at 30 frames a second
// for 4.5 s it holds 4.5 s of 60 fps video (a 4.5 s recording used to hold the 131 frames drawn,
// tagged 60 fps, and played twice too fast), and drawn at 144 it drops the extra frames.
#include <gtest/gtest.h>

#include <algorithm>

#include "frames_due.hpp"

namespace tinkertoy::studio {
namespace {

long recorded(double drawRate, double seconds, int fps) {
  long frames = 0;
  for (int k = 0; k / drawRate <= seconds; ++k) frames = std::max(frames, framesDue(k / drawRate, fps));
  return frames;
}

TEST(FramesDue, AVideoLastsAsLongAsItsClockAtAnyDrawingRate) {
  for (const double drawRate : {29.0, 30.0, 60.0, 144.0}) {
    SCOPED_TRACE(drawRate);
    const long frames = recorded(drawRate, 4.5, 60);
    EXPECT_NEAR(static_cast<double>(frames) / 60.0, 4.5, 1.0 / drawRate + 1.0 / 60.0);
  }
  EXPECT_EQ(framesDue(0.0, 60), 1);
  EXPECT_EQ(framesDue(1.0, 60), 61);
  EXPECT_EQ(framesDue(-1.0, 60), 1);  // a clock that went back adds nothing
}

}  // namespace
}  // namespace tinkertoy::studio
