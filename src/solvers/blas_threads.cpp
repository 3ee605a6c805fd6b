#include "solvers/blas_threads.hpp"

#include <dlfcn.h>

namespace tinkertoy {

void runBlasOnOneThread() {
  using Get = int (*)();
  using Set = void (*)(int);
  static const auto get = reinterpret_cast<Get>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  static const auto set = reinterpret_cast<Set>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (get && set && get() != 1) set(1);
}

}  // namespace tinkertoy
