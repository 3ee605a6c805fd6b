// Handles: the ids users hold instead of pointers into the engine's storage.
//
// The model stores bodies, forces and constraints in dense arrays so that the state
// vectors q and v stay contiguous. Removing an item moves the last item into the hole, so
// dense indices change; ids do not. An id is an index into a slot table plus a generation
// counter, so an id of a removed item is recognised as stale instead of silently naming
// whatever now lives in its slot (the scheme Box2D uses for b2BodyId).
//
//   tinkertoy::BodyId p = model.addParticle(1.0, position);
//   model.removeBody(p);
//   model.contains(p);   // false, even after new particles reuse the slot
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace tinkertoy {

template <class Tag>
struct Id {
  static constexpr std::uint32_t kInvalid = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t slot = kInvalid;
  std::uint32_t generation = 0;

  [[nodiscard]] bool valid() const { return slot != kInvalid; }
  friend bool operator==(const Id&, const Id&) = default;
};

struct BodyTag;
struct ForceTag;
struct ConstraintTag;
using BodyId = Id<BodyTag>;
using ForceId = Id<ForceTag>;
using ConstraintId = Id<ConstraintTag>;

// Maps ids to dense indices and back. The owner keeps its dense arrays in step: after
// erase(id) it must move its last element into the freed dense index, as erase reports.
template <class Tag>
class HandleTable {
 public:
  using IdType = Id<Tag>;

  // Registers a new item at dense index size() and returns its id.
  IdType insert() {
    std::uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.push_back({});
    } else {
      slot = free_.back();
      free_.pop_back();
    }
    slots_[slot].dense = dense_.size();
    slots_[slot].alive = true;
    IdType id{slot, slots_[slot].generation};
    dense_.push_back(id);
    return id;
  }

  [[nodiscard]] bool contains(IdType id) const {
    return id.slot < slots_.size() && slots_[id.slot].alive &&
           slots_[id.slot].generation == id.generation;
  }

  [[nodiscard]] std::optional<std::size_t> find(IdType id) const {
    if (!contains(id)) return std::nullopt;
    return slots_[id.slot].dense;
  }

  // Dense index of a live id; throws std::invalid_argument for a stale or foreign id.
  [[nodiscard]] std::size_t at(IdType id) const {
    if (!contains(id)) throw std::invalid_argument("stale or unknown id");
    return slots_[id.slot].dense;
  }

  [[nodiscard]] IdType idAt(std::size_t dense) const { return dense_.at(dense); }
  [[nodiscard]] std::size_t size() const { return dense_.size(); }

  // Removes id. The item that was last in dense order now lives at the returned index
  // (the removed item's old index); the owner must move its data the same way.
  std::size_t erase(IdType id) {
    const std::size_t hole = at(id);
    const IdType last = dense_.back();
    dense_[hole] = last;
    slots_[last.slot].dense = hole;
    dense_.pop_back();
    slots_[id.slot].alive = false;
    ++slots_[id.slot].generation;
    free_.push_back(id.slot);
    return hole;
  }

 private:
  struct Slot {
    std::size_t dense = 0;
    std::uint32_t generation = 0;
    bool alive = false;
  };
  std::vector<Slot> slots_;
  std::vector<IdType> dense_;
  std::vector<std::uint32_t> free_;
};

// Moves the last element of a dense array into `hole` and drops the last element, mirroring
// HandleTable::erase, so that arrays kept beside a table stay in its dense order.
template <class T>
void eraseSwapLast(std::vector<T>& items, std::size_t hole) {
  items[hole] = std::move(items.back());
  items.pop_back();
}

}  // namespace tinkertoy
