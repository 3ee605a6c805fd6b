// A reserve of memory kept for the moment memory runs out. While it lives, a failed operator new
// gives the reserve back and throws std::bad_alloc, so that the code that runs while the stack
// unwinds finds memory: destructors that allocate (nlohmann::json frees a large document with a
// heap-allocated stack of its own, from a noexcept destructor) would otherwise end the program
// in std::terminate. The command then reports "out of memory" (cli.hpp, exit code 5).
//
// The reserve is address space, not touched memory: under `ulimit -v` that is what runs out.
// Allocations made with malloc (Eigen's) do not call the new handler; Eigen throws
// std::bad_alloc itself.
//
//   int main(int argc, char** argv) {
//     const MemoryReserve reserve(MemoryReserve::kDefaultBytes);
//     …
#pragma once

#include <cstddef>

namespace tinkertoy::cli {

class MemoryReserve {
 public:
  // 64 MiB: what unwinding a parse of the largest scene allowed (256 MiB) may need.
  static constexpr std::size_t kDefaultBytes = std::size_t{64} << 20;

  // `bytes`, or half as much as long as that cannot be had, down to 1 MiB.
  explicit MemoryReserve(std::size_t bytes);
  ~MemoryReserve();
  MemoryReserve(const MemoryReserve&) = delete;
  MemoryReserve& operator=(const MemoryReserve&) = delete;
};

}  // namespace tinkertoy::cli
