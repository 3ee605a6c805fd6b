// Instantiates the BySolver tests of every physics test file once for the whole binary, with
// each linear solver. (An instantiation per file would run every BySolver test once per file.)
#include "physics/physics_models.hpp"

namespace tinkertoy::test {
TINKERTOY_INSTANTIATE_BY_SOLVER();
}  // namespace tinkertoy::test
