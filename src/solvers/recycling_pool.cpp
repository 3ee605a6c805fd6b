#include "solvers/recycling_pool.hpp"

#include <suitesparse/SuiteSparse_config.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace tinkertoy {

namespace {

thread_local RecyclingPool* active = nullptr;

void* poolMalloc(std::size_t size) { return active ? active->take(size) : std::malloc(size); }

void* poolCalloc(std::size_t count, std::size_t size) {
  if (!active) return std::calloc(count, size);
  void* block = active->take(count * size);
  if (block) std::memset(block, 0, count * size);
  return block;
}

void poolFree(void* block) {
  if (block && !(active && active->give(block))) std::free(block);
}

void* poolRealloc(void* block, std::size_t size) {
  if (!active) return std::realloc(block, size);
  void* moved = active->take(size);
  if (moved && block) {
    const std::size_t old = active->sizeOf(block);
    // A block from outside the pool has an unknown size; CHOLMOD reallocs only to grow, and the
    // C library can move it for us.
    if (old == 0) {
      active->give(moved);
      return std::realloc(block, size);
    }
    std::memcpy(moved, block, std::min(old, size));
    active->give(block);
  }
  return moved;
}

}  // namespace

void RecyclingPool::install() {
  static std::once_flag once;
  std::call_once(once, [] {
    SuiteSparse_config.malloc_func = poolMalloc;
    SuiteSparse_config.calloc_func = poolCalloc;
    SuiteSparse_config.realloc_func = poolRealloc;
    SuiteSparse_config.free_func = poolFree;
  });
}

RecyclingPool::~RecyclingPool() {
  for (const Block& b : free_) std::free(b.address);
}

RecyclingPool::Scope::Scope(RecyclingPool& pool) : previous_(active) { active = &pool; }

RecyclingPool::Scope::~Scope() {
  active->close();
  active = previous_;
}

void* RecyclingPool::take(std::size_t size) {
  const auto found = std::find_if(free_.begin(), free_.end(), [&](const Block& b) { return b.size == size; });
  Block block;
  if (found != free_.end()) {
    block = *found;
    free_.erase(found);
  } else {
    block = {std::malloc(size), size};
    if (!block.address) return nullptr;
  }
  handed_.push_back(block);
  return block.address;
}

bool RecyclingPool::give(void* address) {
  const auto found = std::find_if(handed_.begin(), handed_.end(), [&](const Block& b) { return b.address == address; });
  if (found == handed_.end()) return false;
  free_.push_back(*found);
  handed_.erase(found);
  return true;
}

std::size_t RecyclingPool::sizeOf(const void* address) const {
  const auto found = std::find_if(handed_.begin(), handed_.end(), [&](const Block& b) { return b.address == address; });
  return found == handed_.end() ? 0 : found->size;
}

void RecyclingPool::close() { handed_.clear(); }

}  // namespace tinkertoy
