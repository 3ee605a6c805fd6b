// The `tinkertoy` command line, as a function so tests can run it in-process.
//
//   tinkertoy run SCENE [--duration S] [--dt H] [--integrator ...] [--solver cg|ldlt] ...
//   tinkertoy render SCENE -o OUT.{svg,png,pdf,mp4,gif} [--fps N] [--size WxH] [--time T] ...
//   tinkertoy plot SCENE|TRAJECTORY.csv -o OUT.{svg,png,pdf} [--what energy,...]
//   tinkertoy check SCENE
//   tinkertoy sweep SCENE --set PATH=V1,V2,... [--set ...] -o RESULTS.csv [--shard I/N]
//
// Exit codes: 0 success, 1 check found a wrong derivative, 2 bad input (the message names
// the flag or the JSON path), 3 the simulation blew up (for sweep: a case failed), 4 an output could not be completed
// (ffmpeg or gnuplot failed, or a write failed), 5 the command could not go on: the machine ran
// out of memory, or an internal error (a bug), named in the message.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tinkertoy::cli {

enum ExitCode : int { kSuccess = 0, kCheckFailed = 1, kBadInput = 2, kBlowUp = 3, kOutputFailed = 4, kResourceFailure = 5 };

// args excludes the program name. Long commands draw a progress bar on `err` when
// `errIsTerminal` (and --quiet is not given).
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool errIsTerminal = false);

}  // namespace tinkertoy::cli
