// libFuzzer's entry point for the narrowphase target (fuzz/fuzz_targets.hpp); `make fuzz` builds it.
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return tinkertoy::fuzz::fuzzNarrowphase(data, size);
}
