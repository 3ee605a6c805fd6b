#include "solvers/single_thread_scope.hpp"

#include <dlfcn.h>

namespace tinkertoy {

namespace {

using GetInt = int (*)();
using SetInt = void (*)(int);

template <class F>
F lookUp(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

struct Controls {
  GetInt blasThreads = lookUp<GetInt>("openblas_get_num_threads");
  SetInt setBlasThreads = lookUp<SetInt>("openblas_set_num_threads");
  GetInt activeLevels = lookUp<GetInt>("omp_get_max_active_levels");
  SetInt setActiveLevels = lookUp<SetInt>("omp_set_max_active_levels");
  [[nodiscard]] bool blas() const { return blasThreads && setBlasThreads; }
  [[nodiscard]] bool openMp() const { return activeLevels && setActiveLevels; }
};

const Controls& controls() {
  static const Controls c;
  return c;
}

}  // namespace

SingleThreadScope::SingleThreadScope() {
  const Controls& c = controls();
  if (c.blas()) {
    blasThreads_ = c.blasThreads();
    if (blasThreads_ != 1) c.setBlasThreads(1);
  }
  if (c.openMp()) {
    activeLevels_ = c.activeLevels();
    if (activeLevels_ != 0) c.setActiveLevels(0);  // every parallel region runs on its caller
  }
}

SingleThreadScope::~SingleThreadScope() {
  const Controls& c = controls();
  if (c.blas() && blasThreads_ != 1) c.setBlasThreads(blasThreads_);
  if (c.openMp() && activeLevels_ != 0) c.setActiveLevels(activeLevels_);
}

}  // namespace tinkertoy
