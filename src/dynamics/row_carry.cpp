#include "dynamics/row_carry.hpp"

namespace tinkertoy {

void RowCarry::record(const ConstraintSystem& system) {
  for (Place& place : bySlot_) place.used = false;
  for (std::size_t k = 0; k < system.constraintCount(); ++k) {
    const ConstraintId id = system.constraintId(k);
    if (id.slot >= bySlot_.size()) bySlot_.resize(id.slot + 1);
    bySlot_[id.slot] = {true, id.generation, system.blocks(k).row, system.blocks(k).rows};
  }
}

void RowCarry::map(const ConstraintSystem& system) {
  previousRow_.assign(static_cast<std::size_t>(system.rows()), -1);
  for (std::size_t k = 0; k < system.constraintCount(); ++k) {
    const ConstraintId id = system.constraintId(k);
    const ConstraintSystem::ConstraintBlocks& b = system.blocks(k);
    if (id.slot >= bySlot_.size()) continue;
    const Place& was = bySlot_[id.slot];
    if (!was.used || was.generation != id.generation || was.rows != b.rows) continue;
    for (int r = 0; r < b.rows; ++r) previousRow_[static_cast<std::size_t>(b.row + r)] = was.row + r;
  }
}

}  // namespace tinkertoy
