// `tinkertoy compare`: one scene run twice, under two sets of simulation flags, and the two
// runs side by side in one table — the settings each used, its cost, how well it kept the
// constraints and the energy, and whether it blew up. How a teacher shows that penalty
// springs are goopy and constraints rigid, or a researcher what a formulation buys:
//
//   tinkertoy compare scenes/pendulum.json --a "--solver cg" --b "--formulation velocity --substeps 8"
//
// A run that blows up is a result, not an error: its column says when, and the exit status is 0.
#pragma once

#include <ostream>
#include <string>

namespace tinkertoy::cli {

struct CompareOptions {
  std::string scene;
  std::string a, b;  // each a string of simulation flags, as `run` takes them ("" for the scene's own)
  bool progress = false;
};

int compareScene(const CompareOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tinkertoy::cli
