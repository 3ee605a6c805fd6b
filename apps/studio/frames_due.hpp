// How many frames a video at `fps` holds once `seconds` of its clock have passed since its first
// frame: those whose time has come, the first at 0. A recording adds the frame just drawn until
// it holds that many, so a second of its clock is a second of video at any drawing rate.
#pragma once

namespace tinkertoy::studio {

[[nodiscard]] inline long framesDue(double seconds, int fps) {
  return seconds > 0.0 ? static_cast<long>(seconds * fps) + 1 : 1;
}

}  // namespace tinkertoy::studio
