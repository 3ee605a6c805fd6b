// What the fuzzers check, one function per target, each taking the fuzzer's bytes as a scene:
//
//   fuzzSceneLoader   parseScene either returns a scene or throws SceneError; any other
//                     exception, a crash or a sanitizer report is a finding.
//   fuzzLoadAndStep   a scene that loads is stepped (up to kFuzzSteps steps): building the
//                     Simulator never throws, a step either succeeds or throws SimulationError,
//                     and a step that succeeds leaves a finite state with finite diagnostics;
//                     otherwise the function traps (a finding).
//   fuzzStateRestore  the first byte picks one of kFuzzStateModels (a scene and settings), the
//                     rest are the items of a state file, sealed with a true header and
//                     checksum so that the search reaches the items: restoreState either
//                     succeeds, leaving finite diagnostics, or throws StateError and leaves the
//                     simulator's state as it was; then steps as fuzzLoadAndStep does.
//   fuzzFormula       the bytes are a formula's text over the variables u, v, w, t and the
//                     parameter k: Formula either parses it or throws FormulaError (or
//                     std::invalid_argument); one that parses evaluates at a fixed point with
//                     doubles and with Jets to the same value (or both not finite).
//   fuzzNarrowphase   the bytes are two convex shapes, their placements and a speculative
//                     distance: collide() gives a well-formed manifold, the same both ways
//                     round and wherever the pair is moved (fuzz/narrowphase_target.cpp).
//
// The libFuzzer entry points (fuzz/*_fuzzer.cpp, built by `make fuzz` with clang) call these; so
// does the corpus replay test of every `make test` (tests/fuzz/corpus_replay_test.cpp), built with
// the project's own compiler. Both return 0, as libFuzzer wants.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tinkertoy::fuzz {

inline constexpr int kFuzzSteps = 20;
// Larger scenes are loaded but not stepped: stepping them would slow the search down.
inline constexpr std::size_t kFuzzMostBodies = 64;

int fuzzSceneLoader(const std::uint8_t* data, std::size_t size);
int fuzzLoadAndStep(const std::uint8_t* data, std::size_t size);
int fuzzStateRestore(const std::uint8_t* data, std::size_t size);
int fuzzFormula(const std::uint8_t* data, std::size_t size);
int fuzzNarrowphase(const std::uint8_t* data, std::size_t size);

inline constexpr int kFuzzStateModels = 6;
// A seed for fuzzStateRestore: model `which` stepped `steps` times, its state as the target
// takes it (the model's byte, then the items).
std::string stateSeed(int which, int steps);

}  // namespace tinkertoy::fuzz
