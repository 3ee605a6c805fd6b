// The benchmark scenarios (bench/scenario.hpp) as Tinkertoy models: particles with distance
// constraints (rods to the pivot are distance constraints to a fixed point; nailed particles get
// a fixed-point constraint), or rigid discs with revolute joints.
//
//   Scenario s = chainScenario(1000);
//   Model model = tinkertoyModel(s);
//   Simulator sim(model, exactSettings(s));
#pragma once

#include <vector>

#include "scenario.hpp"
#include "tinkertoy/dynamics/simulation_settings.hpp"
#include "tinkertoy/model/model.hpp"

namespace tinkertoy::bench {

Model tinkertoyModel(const Scenario& scenario);
// The state of the model's bodies in the scenario's body order (bodies were added in that order).
void readState(const Model& model, std::vector<BodyState>& out);

}  // namespace tinkertoy::bench
