// RecyclingPool: memory that CHOLMOD asks for inside a numeric factorization, handed back to it
// at the next one. CHOLMOD's supernodal factorization allocates its update workspace at every
// call and frees it before returning; it asks for the same sizes every time, so once a pool
// holds one block of each, a factorization allocates nothing (the step loop must not allocate:
// docs/architecture.md, "The step does not allocate").
//
// SuiteSparse allocates through four function pointers (SuiteSparse_config). install() points
// them, once per process, at functions that serve the pool active on the calling thread, if
// any, and the C library otherwise; every block is a plain C block either way, so memory can
// cross in and out of a pool's scope: a block the pool handed out and CHOLMOD keeps past the
// scope (the factor's own arrays, on the first factorization) simply leaves the pool.
//
//   RecyclingPool pool;
//   {
//     RecyclingPool::Scope scope(pool);   // this thread's SuiteSparse allocations use the pool
//     cholmod_factorize(A, L, &common);
//   }
#pragma once

#include <cstddef>
#include <vector>

namespace tinkertoy {

class RecyclingPool {
 public:
  RecyclingPool() = default;
  ~RecyclingPool();
  RecyclingPool(const RecyclingPool&) = delete;
  RecyclingPool& operator=(const RecyclingPool&) = delete;

  // Points SuiteSparse's allocation at the pools (idempotent, thread-safe).
  static void install();

  // Makes `pool` the calling thread's pool for the scope's lifetime.
  class Scope {
   public:
    explicit Scope(RecyclingPool& pool);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    RecyclingPool* previous_;
  };

  // A block of `size` bytes: a free one of that size if the pool has it.
  void* take(std::size_t size);
  // Back into the pool, if it handed the block out in this scope; false if it did not.
  bool give(void* block);
  // The size of a block the pool handed out in this scope, or 0.
  [[nodiscard]] std::size_t sizeOf(const void* block) const;

 private:
  struct Block {
    void* address;
    std::size_t size;
  };
  // Forgets the blocks still handed out: they now belong to whoever keeps them.
  void close();

  std::vector<Block> free_;     // kept for the next factorization
  std::vector<Block> handed_;   // out during the current scope
};

}  // namespace tinkertoy
