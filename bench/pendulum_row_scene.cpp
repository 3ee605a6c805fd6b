#include "pendulum_row_scene.hpp"

#include <sstream>

namespace tinkertoy::bench {

std::string pendulumRowSceneText(int particles) {
  std::ostringstream text;
  text << R"({"dimension": 2, "gravity": [0, -9.81], "settings": {"dt": 0.001, "duration": 0.001},)"
       << "\n\"particles\": [";
  for (int i = 0; i < particles; ++i) {
    // Pendulum i / 2 hangs from (i / 2, 0); the upper particle 1 m below, the lower 2 m.
    text << (i == 0 ? "\n" : ",\n") << R"({"id": "m)" << i << R"(", "mass": 1, "position": [)" << i / 2 << ", "
         << -(1 + i % 2) << "]}";
  }
  text << "],\n\"constraints\": [";
  for (int i = 0; i < particles; ++i) {
    text << (i == 0 ? "\n" : ",\n") << R"({"type": "distance", "a": "m)" << i << R"(", "b": )";
    if (i % 2 == 0) {
      text << "[" << i / 2 << ", 0]}";
    } else {
      text << "\"m" << i - 1 << "\"}";
    }
  }
  text << "]}\n";
  return text.str();
}

}  // namespace tinkertoy::bench
