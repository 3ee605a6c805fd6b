#include "model_lock.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace tinkertoy::python {
namespace {

// Who holds one model's lock, how many times, and how many threads wait for it.
struct LockState {
  std::thread::id owner;
  int depth = 0;
  int waiters = 0;
  std::condition_variable released;
};

// The locks of the models in use, keyed by the model's address. An entry lives while its lock is
// held or awaited, so the table holds only the models in use right now. `mutex` guards it and is
// only ever held briefly, never while waiting for the GIL.
struct LockTable {
  std::mutex mutex;
  std::unordered_map<const Model*, LockState> locks;  // node-based: a LockState never moves
};

LockTable& table() {
  static LockTable* locks = new LockTable;  // never destroyed: a thread may still unlock at exit
  return *locks;
}

}  // namespace

ModelLock::ModelLock(const Model& model) : model_(&model) {
  LockTable& locks = table();
  const std::thread::id me = std::this_thread::get_id();
  std::unique_lock guard(locks.mutex);
  LockState& state = locks.locks[model_];
  if (state.depth == 0 || state.owner == me) {
    state.owner = me;
    ++state.depth;
    return;
  }
  ++state.waiters;  // keeps the entry while this thread waits
  guard.unlock();
  py::gil_scoped_release unlocked;  // the holder may need the GIL to finish
  guard.lock();
  state.released.wait(guard, [&] { return state.depth == 0; });
  --state.waiters;
  state.owner = me;
  state.depth = 1;
  guard.unlock();  // before the GIL is taken back (gil_scoped_release's destructor)
}

ModelLock::~ModelLock() {
  LockTable& locks = table();
  const std::lock_guard guard(locks.mutex);
  const auto found = locks.locks.find(model_);
  LockState& state = found->second;
  if (--state.depth > 0) return;
  if (state.waiters > 0) {
    state.released.notify_one();
  } else {
    locks.locks.erase(found);
  }
}

}  // namespace tinkertoy::python
