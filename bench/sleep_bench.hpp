// What a pile costs awake and asleep (settings velocity.sleep; dynamics/sleeping_islands.hpp).
#pragma once

namespace tinkertoy::bench {

// sleeping/many_pyramids/awake and sleeping/many_pyramids/asleep: Box2D v3's many_pyramids with
// the soft step, first run until it has settled (awake: sleep off, 3 s) or until every box sleeps
// (asleep: sleep on; at most 10 s), untimed; then 120 steps, each timed in CPU time. Counters:
// ms_per_step and asleep (the boxes asleep when the timing starts).
void registerSleepSteps();

}  // namespace tinkertoy::bench
