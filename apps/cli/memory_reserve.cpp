#include "memory_reserve.hpp"

#include <cstdlib>
#include <new>

namespace tinkertoy::cli {

namespace {

void* reserve = nullptr;

// Called by operator new when malloc fails: the reserve goes back, and this allocation fails.
void releaseReserveAndFail() {
  std::free(reserve);
  reserve = nullptr;
  throw std::bad_alloc();
}

}  // namespace

MemoryReserve::MemoryReserve(std::size_t bytes) {
  // Short of memory from the start, a smaller reserve still helps the unwinding.
  for (; bytes >= (std::size_t{1} << 20) && !reserve; bytes /= 2) reserve = std::malloc(bytes);
  std::set_new_handler(releaseReserveAndFail);
}

MemoryReserve::~MemoryReserve() {
  std::set_new_handler(nullptr);
  std::free(reserve);
  reserve = nullptr;
}

}  // namespace tinkertoy::cli
