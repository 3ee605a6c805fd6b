#include "memory_reserve.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace tinkertoy::cli {

namespace {

// Two halves: the first failure gets the first back and is tried again; the next one gets the
// second back and throws, with that half free for the unwinding.
void* retryHalf = nullptr;
void* unwindHalf = nullptr;
std::atomic<bool> spent{false};

void releaseReserveOrFail() {
  spent = true;
  if (retryHalf) {
    std::free(retryHalf);
    retryHalf = nullptr;
    return;  // operator new tries again
  }
  std::free(unwindHalf);
  unwindHalf = nullptr;
  throw std::bad_alloc();
}

}  // namespace

void throwIfOutOfMemory() {
  if (spent) throw std::bad_alloc();
}

MemoryReserve::MemoryReserve(std::size_t bytes) {
  // Short of memory from the start, a smaller reserve still helps the unwinding.
  for (; bytes >= (std::size_t{1} << 20) && !retryHalf; bytes /= 2) {
    retryHalf = std::malloc(bytes / 2);
    unwindHalf = retryHalf ? std::malloc(bytes / 2) : nullptr;
    if (!unwindHalf) {
      std::free(retryHalf);
      retryHalf = nullptr;
    }
  }
  std::set_new_handler(releaseReserveOrFail);
}

MemoryReserve::~MemoryReserve() {
  std::set_new_handler(nullptr);
  std::free(retryHalf);
  std::free(unwindHalf);
  retryHalf = unwindHalf = nullptr;
}

}  // namespace tinkertoy::cli
