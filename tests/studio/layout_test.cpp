// The help window sits inside the canvas at every window size the Studio accepts (its key
// column used to run off the left edge at 1280 × 800, and further at 1024 × 700).
#include <gtest/gtest.h>

#include "layout.hpp"

namespace tinkertoy::studio {
namespace {

TEST(Layout, AWindowOverTheCanvasStaysInsideIt) {
  for (const Eigen::Vector2d& window : {Eigen::Vector2d(1280, 800), Eigen::Vector2d(1024, 700), Eigen::Vector2d(400, 300),
                                       Eigen::Vector2d(3840, 2160)}) {
    SCOPED_TRACE(window.transpose());
    const Camera canvas = layout::newCanvasCamera(window);
    const layout::CanvasWindow help = layout::overCanvas(window, 720.0);
    const Eigen::Vector2d low = help.center - help.size / 2, high = help.center + help.size / 2;
    EXPECT_GE(low.x(), canvas.offset.x());
    EXPECT_GE(low.y(), canvas.offset.y());
    EXPECT_LE(high.x(), canvas.offset.x() + canvas.viewport.x());
    EXPECT_LE(high.y(), canvas.offset.y() + canvas.viewport.y());
    EXPECT_LE(help.size.x(), 720.0);
    EXPECT_GT(help.size.minCoeff(), 0.0);
  }
}

}  // namespace
}  // namespace tinkertoy::studio
