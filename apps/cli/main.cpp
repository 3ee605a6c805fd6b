#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "cli.hpp"
#include "memory_reserve.hpp"

int main(int argc, char** argv) {
  const tinkertoy::cli::MemoryReserve reserve(tinkertoy::cli::MemoryReserve::kDefaultBytes);
  const int code = tinkertoy::cli::run({argv + 1, argv + argc}, std::cout, std::cerr, isatty(STDERR_FILENO) == 1);
  // The command has finished its outputs and said what happened; the process ends here, without
  // the libraries' exit handlers. When memory was short as it started, OpenBLAS has a worker
  // thread retrying a failed allocation for ever, and its exit handler would wait for it.
  std::cout.flush();
  std::cerr.flush();
  std::_Exit(code);
}
