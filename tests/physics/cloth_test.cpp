// The shipped cloth really drapes in 3D, and the curtain is what its name says. Every column of
// the curtain (nailed along one edge) moves as the same chain, so the heights across a row
// agree; the cloth, held by two opposite corners, falls into folds whose heights differ across
// every row and which spread in all three directions, with every rod exact.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "tinkertoy/dynamics/simulator.hpp"
#include "tinkertoy/scene/scene.hpp"

namespace tinkertoy {
namespace {

constexpr int kSide = 12;

struct Sheet {
  Scene scene;
  // The largest spread of heights along a row of the grid (c0_j … c11_j), m.
  double rowSpread() const {
    double spread = 0.0;
    for (int j = 0; j < kSide; ++j) {
      double low = 1e9, high = -1e9;
      for (int i = 0; i < kSide; ++i) {
        const double y = position(i, j).y();
        low = std::min(low, y);
        high = std::max(high, y);
      }
      spread = std::max(spread, high - low);
    }
    return spread;
  }
  Eigen::Vector3d position(int i, int j) const {
    std::ostringstream id;
    id << 'c' << i << '_' << j;
    return scene.model.position(*scene.model.findBody(id.str()));
  }
  Eigen::Vector3d extent() const {
    Eigen::Vector3d low = Eigen::Vector3d::Constant(1e9), high = -low;
    for (int i = 0; i < kSide; ++i) {
      for (int j = 0; j < kSide; ++j) {
        low = low.cwiseMin(position(i, j));
        high = high.cwiseMax(position(i, j));
      }
    }
    return high - low;
  }
};

// The scene after `seconds` of its own settings, with the largest ‖C‖∞ on the way.
Sheet simulate(const char* file, double seconds, double& worstError) {
  Sheet sheet{loadScene(std::filesystem::path(TINKERTOY_SOURCE_DIR) / "scenes" / file)};
  Simulator simulator(sheet.scene.model, sheet.scene.settings);
  worstError = 0.0;
  while (sheet.scene.model.time() < seconds - 1e-9) {
    simulator.step();
    worstError = std::max(worstError, simulator.diagnostics().constraintError);
  }
  return sheet;
}

TEST(Cloth, DrapesInFoldsHeldByTwoOppositeCorners) {
  double worst = 0.0;
  const Sheet cloth = simulate("cloth.json", 2.0, worst);
  EXPECT_LT(worst, 1e-8);
  // The corners held stay; the free corners fall.
  EXPECT_LT((cloth.position(0, 0) - Eigen::Vector3d(0, 0, 0)).norm(), 1e-9);
  EXPECT_LT((cloth.position(11, 11) - Eigen::Vector3d(1.1, 0, 1.1)).norm(), 1e-9);
  EXPECT_LT(cloth.position(11, 0).y(), -0.4);
  EXPECT_LT(cloth.position(0, 11).y(), -0.4);
  // Not twelve copies of one chain: heights differ along the rows.
  EXPECT_GT(cloth.rowSpread(), 0.3);
  // A sheet in space, not a picture in a plane.
  EXPECT_GT(cloth.extent().minCoeff(), 0.3) << cloth.extent().transpose();
}

TEST(Cloth, TheCurtainSwingsAsIdenticalColumns) {
  double worst = 0.0;
  const Sheet curtain = simulate("curtain.json", 1.0, worst);
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(curtain.position(5, 11).y(), -0.2) << "it has swung down";
  EXPECT_LT(curtain.rowSpread(), 1e-6);
}

}  // namespace
}  // namespace tinkertoy
