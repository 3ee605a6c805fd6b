// The benchmark models, built in code exactly as bench/RESULTS.md describes them.
//
//   chain-N  (2D)  1 kg masses at x = 1..N, y = 0, joined by 1 m rods, the first to a pivot
//                  at the origin; released from rest.
//   cloth-G  (3D)  G×G masses of 1 kg spaced 0.1 m in the x–z plane, rods between horizontal
//                  and vertical neighbours, corners (0,0) and (G−1,G−1) nailed.
//   joint_grid-N (2D rigid, Box2D v3's benchmark of that name)  an N×N grid of circles of
//                  radius 0.4 (density 1) spaced 1 m, each pinned to its right and lower
//                  neighbours by revolute joints at the midpoints; the middle seven bodies of the
//                  top row are static.
#pragma once

#include "tinkertoy/model/model.hpp"

namespace tinkertoy::bench {

struct BenchModel {
  Model model;
  double rodLength;  // L, to report ‖C‖∞ / L (1 m for the joint grid's spacing)
};

BenchModel chainModel(int links);
BenchModel clothModel(int side);
BenchModel jointGridModel(int side);

}  // namespace tinkertoy::bench
