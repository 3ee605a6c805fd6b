// A scene of a pyramid of 1 m boxes of 1 kg on a static 40 m ground at 60 Hz, with collisions at
// the velocity level, for the contact tests: `rows` rows whose boxes stand `spacing` m apart
// (center to center) in a row, the `settings` entries after the common ones (JSON, without the
// braces), and more bodies (JSON, each after a comma).
//
//   Scene scene = parseScene(testing_support::pyramidScene(5, 1.05, R"("sleep": true)"));
#pragma once

#include <string>

namespace tinkertoy::testing_support {

inline std::string pyramidScene(int rows, double spacing, const std::string& settings,
                                const std::string& extraBodies = "") {
  std::string bodies = R"({"id": "ground", "type": "rigid", "mass": 1, "position": [0, -0.5], "static": true,
                           "shape": {"type": "box", "size": [40, 1]}})";
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < rows - r; ++k) {
      const double x = (k - (rows - r - 1) / 2.0) * spacing, y = 0.5 + r;
      bodies += R"(, {"id": "b)" + std::to_string(r) + "_" + std::to_string(k) + R"(", "type": "rigid", "mass": 1,
                 "position": [)" + std::to_string(x) + ", " + std::to_string(y) +
                R"(], "shape": {"type": "box", "size": [1, 1]}})";
    }
  }
  return R"({"dimension": 2, "gravity": [0, -9.81],
    "settings": {"formulation": "velocity", "dt": 0.016666666666666666, "collisions": true, )" + settings + R"(},
    "bodies": [)" + bodies + extraBodies + "]}";
}

}  // namespace tinkertoy::testing_support
