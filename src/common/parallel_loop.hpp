// ParallelLoop: a loop split over a fixed number of threads, each thread always taking the same
// contiguous share of the iterations. Whatever each iteration computes, it computes with the
// same arithmetic in the same order on one thread or on several, so a result is bit-identical
// whatever the thread count and whatever the timing: the parallelism is deterministic.
//
// The workers start with the loop object and wait between loops (std::atomic::wait, after a
// short spin, since a step runs its loops microseconds apart); run() allocates nothing. With one
// thread, or fewer iterations than kMinimumShare per thread, run() is a plain loop on the
// caller's thread. An exception thrown by the body on any thread is rethrown by run() once
// every share has finished.
//
//   ParallelLoop loop(2);
//   loop.run(n, [&](std::size_t begin, std::size_t end, int thread) {
//     for (std::size_t i = begin; i < end; ++i) out[i] = f(i, scratch[thread]);
//   });
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

namespace tinkertoy {

class ParallelLoop {
 public:
  // Iterations below which a share is not worth a thread: handing a share to another core costs
  // the cache lines its results travel back in, about what evaluating a cheap constraint (a
  // rod) costs: on chains, two threads lose at 1000 rods and win at 10 000 (bench/RESULTS.md,
  // "Figures behind the code's thresholds").
  static constexpr std::size_t kMinimumShare = 1024;

  // threads ≥ 1: the caller's thread and threads − 1 workers.
  explicit ParallelLoop(int threads = 1);
  ~ParallelLoop();
  ParallelLoop(const ParallelLoop&) = delete;
  ParallelLoop& operator=(const ParallelLoop&) = delete;

  [[nodiscard]] int threads() const { return threads_; }

  // Calls body(begin, end, thread) once per thread over its share [begin, end) of [0, n), thread
  // 0 on the caller's thread; returns when all have returned. Runs on the caller's thread alone
  // if a share would be under `minimumShare` iterations (cheaper iterations need larger shares).
  template <class Body>
  void run(std::size_t n, Body&& body, std::size_t minimumShare = kMinimumShare) {
    if (threads_ == 1 || n < minimumShare * static_cast<std::size_t>(threads_)) {
      body(std::size_t{0}, n, 0);
      return;
    }
    using Callable = std::remove_reference_t<Body>;  // const if the caller passed a const body
    dispatch(
        n,
        [](void* context, std::size_t begin, std::size_t end, int thread) {
          (*static_cast<Callable*>(context))(begin, end, thread);
        },
        const_cast<void*>(static_cast<const void*>(&body)));
  }

  // The share of `thread` among `threads` in [0, n): [n·t / T, n·(t + 1) / T).
  static std::size_t shareBegin(std::size_t n, int thread, int threads) {
    return n * static_cast<std::size_t>(thread) / static_cast<std::size_t>(threads);
  }

 private:
  using Task = void (*)(void*, std::size_t, std::size_t, int);
  void dispatch(std::size_t n, Task task, void* context);
  void runShare(int thread) noexcept;
  void work(int thread);

  int threads_;
  std::vector<std::thread> workers_;
  std::vector<std::exception_ptr> errors_;  // [threads] what each share threw
  std::atomic<std::uint64_t> generation_{0};  // bumped to start a loop
  std::atomic<int> pending_{0};               // workers still running the current loop
  Task task_ = nullptr;
  void* context_ = nullptr;
  std::size_t n_ = 0;
  bool stopping_ = false;
};

// A loop on `threads` threads, or none for one thread (the caller's: nothing to share).
std::unique_ptr<ParallelLoop> makeParallelLoop(int threads);

}  // namespace tinkertoy
