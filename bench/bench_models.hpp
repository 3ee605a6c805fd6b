// The benchmark models, built in code exactly as bench/RESULTS.md describes them.
//
//   chain-N  (2D)  1 kg masses at x = 1..N, y = 0, joined by 1 m rods, the first to a pivot
//                  at the origin; released from rest.
//   cloth-G  (3D)  G×G masses of 1 kg spaced 0.1 m in the x–z plane, rods between horizontal
//                  and vertical neighbours, corners (0,0) and (G−1,G−1) nailed.
#pragma once

#include "tinkertoy/model/model.hpp"

namespace tinkertoy::bench {

struct BenchModel {
  Model model;
  double rodLength;  // L, to report ‖C‖∞ / L
};

BenchModel chainModel(int links);
BenchModel clothModel(int side);

}  // namespace tinkertoy::bench
