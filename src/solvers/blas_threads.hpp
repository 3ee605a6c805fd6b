// The BLAS under CHOLMOD's supernodal factorization runs on one thread.
//
// Debian's OpenBLAS (the libblas.so.3 alternative that scripts/install-deps.sh installs) starts
// one thread per core unless told otherwise. Its threaded kernels are not reproducible across
// thread counts: measured on joint_grid-100's factor, dpotrf (recursive blocking by thread
// count), dsyrk and dgemv (partial sums split between threads) round differently on two threads
// than on one, and the solutions differed by 0.7 in the last digits that κ ≈ 10⁹ amplifies. A
// factor that depends on the machine's core count is not acceptable, so the supernodal
// factorization asks for one BLAS thread before each factorization and solve; the step's own
// threads (SimulationSettings::threads) are deterministic by construction (ParallelLoop).
//
// The control is looked up at run time (openblas_set_num_threads); a BLAS without one (the
// reference BLAS) is single-threaded already.
#pragma once

namespace tinkertoy {

// Sets the BLAS's threads to one if the BLAS can be told.
void runBlasOnOneThread();

}  // namespace tinkertoy
