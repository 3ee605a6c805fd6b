// A reserve of memory kept for the moment memory runs out, in two halves. The first failed
// operator new gives the first half back and succeeds on the retry, wherever it happened: in a
// noexcept destructor too (nlohmann::json frees a document with a heap-allocated stack of its
// own, from a noexcept destructor), where a throw would end the program in std::terminate. The
// command learns of it at its next safe point (throwIfOutOfMemory: each step, each body of the
// summary), which throws std::bad_alloc. A second failure before then gives the second half back
// and throws at once, so that the unwinding finds memory either way. The command then reports
// "out of memory" (cli.hpp, exit code 5).
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

// Throws std::bad_alloc once the reserve has been spent.
void throwIfOutOfMemory();

class MemoryReserve {
 public:
  // 64 MiB in two halves. A single reserve of 64 MiB was sized for unwinding a parse of the
  // largest scene allowed (256 MiB); whether the 32 MiB half left for the unwinding suffices there
  // has not been measured.
  static constexpr std::size_t kDefaultBytes = std::size_t{64} << 20;

  // `bytes`, or half as much as long as that cannot be had, down to 1 MiB.
  explicit MemoryReserve(std::size_t bytes);
  ~MemoryReserve();
  MemoryReserve(const MemoryReserve&) = delete;
  MemoryReserve& operator=(const MemoryReserve&) = delete;
};

}  // namespace tinkertoy::cli
