// What the fuzzers check, one function per target, each taking the fuzzer's bytes as a scene:
//
//   fuzzSceneLoader   parseScene either returns a scene or throws SceneError; any other
//                     exception, a crash or a sanitizer report is a finding.
//   fuzzLoadAndStep   a scene that loads is stepped (up to kFuzzSteps steps): building the
//                     Simulator never throws, a step either succeeds or throws SimulationError,
//                     and a step that succeeds leaves a finite state with finite diagnostics;
//                     otherwise the function traps (a finding).
//
// The libFuzzer entry points (fuzz/*_fuzzer.cpp, built by `make fuzz` with clang) call these; so
// does the corpus replay test of every `make test` (tests/fuzz/corpus_replay_test.cpp), built with
// the project's own compiler. Both return 0, as libFuzzer wants.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tinkertoy::fuzz {

inline constexpr int kFuzzSteps = 20;
// Larger scenes are loaded but not stepped: stepping them would slow the search down.
inline constexpr std::size_t kFuzzMostBodies = 64;

int fuzzSceneLoader(const std::uint8_t* data, std::size_t size);
int fuzzLoadAndStep(const std::uint8_t* data, std::size_t size);

}  // namespace tinkertoy::fuzz
