// SingleThreadScope: while it lives, the libraries under CHOLMOD's supernodal factorization run
// on the calling thread only; on leaving, their settings are restored.
//
// Two libraries would start threads of their own:
//
//   OpenBLAS   (the libblas.so.3 alternative that scripts/install-deps.sh installs) runs its
//              kernels on one thread per core by default. Its threaded dpotrf, dsyrk and dgemv
//              round differently on two threads than on one, so a factor would depend on the
//              machine's core count, which is not acceptable.
//   libgomp    Debian's CHOLMOD opens OpenMP regions in its supernodal updates with a team of
//              up to 4 threads (fixed when CHOLMOD was compiled); on a 2-core machine that
//              oversubscription doubles a factorization's wall time. (The measurements of
//              both: bench/RESULTS.md, "Figures behind the code's thresholds".)
//
// The step's own threads (SimulationSettings::threads) are deterministic by construction
// (ParallelLoop) and do not need either. Both settings are process-wide, so the scope saves and
// restores them: a program's own OpenMP and BLAS work keeps its settings outside a
// factorization, but two simulators must not factor at once on different threads. The controls
// are looked up at run time (openblas_set_num_threads, omp_set_max_active_levels); a library
// without one is left alone (the reference BLAS is single-threaded).
#pragma once

namespace tinkertoy {

class SingleThreadScope {
 public:
  SingleThreadScope();
  ~SingleThreadScope();
  SingleThreadScope(const SingleThreadScope&) = delete;
  SingleThreadScope& operator=(const SingleThreadScope&) = delete;

 private:
  int blasThreads_ = 0;         // OpenBLAS's thread count before the scope (0: no OpenBLAS)
  int activeLevels_ = -1;       // OpenMP's max active levels before the scope (−1: no libgomp)
};

}  // namespace tinkertoy
