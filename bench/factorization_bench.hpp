// Registers the factorize/<kind>/<scenario> benchmarks of tinkertoy-bench.
#pragma once

namespace tinkertoy::bench {

void registerFactorizations();

}  // namespace tinkertoy::bench
