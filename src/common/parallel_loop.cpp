#include "common/parallel_loop.hpp"

#include <stdexcept>

namespace tinkertoy {

namespace {

// Polls of the shared counters before a thread sleeps in the kernel: about the gap between two
// loops of a step, so that a worker is usually awake when the next loop starts.
constexpr int kSpins = 20'000;

template <class T, class Done>
void spinThenWait(const std::atomic<T>& counter, Done done) {
  for (int i = 0; i < kSpins; ++i) {
    if (done(counter.load(std::memory_order_acquire))) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  for (;;) {
    const T now = counter.load(std::memory_order_acquire);
    if (done(now)) return;
    counter.wait(now, std::memory_order_acquire);
  }
}

}  // namespace

ParallelLoop::ParallelLoop(int threads) : threads_(threads), errors_(static_cast<std::size_t>(threads > 0 ? threads : 1)) {
  if (threads < 1) throw std::invalid_argument("a parallel loop needs at least one thread");
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

ParallelLoop::~ParallelLoop() {
  stopping_ = true;
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ParallelLoop::runShare(int thread) noexcept {
  const std::size_t begin = shareBegin(n_, thread, threads_), end = shareBegin(n_, thread + 1, threads_);
  try {
    task_(context_, begin, end, thread);
  } catch (...) {
    errors_[static_cast<std::size_t>(thread)] = std::current_exception();
  }
}

void ParallelLoop::dispatch(std::size_t n, Task task, void* context) {
  task_ = task;
  context_ = context;
  n_ = n;
  pending_.store(threads_ - 1, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);  // publishes the task to the workers
  generation_.notify_all();
  runShare(0);
  spinThenWait(pending_, [](int running) { return running == 0; });
  for (std::exception_ptr& error : errors_) {
    if (error) {
      const std::exception_ptr first = error;
      for (std::exception_ptr& e : errors_) e = nullptr;
      std::rethrow_exception(first);
    }
  }
}

void ParallelLoop::work(int thread) {
  std::uint64_t seen = 0;
  for (;;) {
    spinThenWait(generation_, [seen](std::uint64_t now) { return now != seen; });
    seen = generation_.load(std::memory_order_acquire);
    if (stopping_) return;
    runShare(thread);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
  }
}

std::unique_ptr<ParallelLoop> makeParallelLoop(int threads) {
  return threads > 1 ? std::make_unique<ParallelLoop>(threads) : nullptr;
}

}  // namespace tinkertoy
