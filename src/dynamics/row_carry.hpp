// RowCarry: per-row state carried across a rebuild of the constraint system (bodies or
// constraints added or removed), keyed by constraint id. A constraint the edit kept finds its
// rows' warm-start impulses and active-set flags again, even if its rows moved; a new
// constraint's rows start from their defaults. So an edit elsewhere (the Studio's mouse joint, a
// joint breaking, an unrelated nail) does not throw away what the solvers learned.
//
//   carry.record(system);             // before system.build(model)
//   system.build(model);
//   carry.map(system);
//   carry.apply(oldImpulses, newImpulses);  // rows of kept constraints; others untouched
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "tinkertoy/dynamics/constraint_system.hpp"

namespace tinkertoy {

class RowCarry {
 public:
  // Notes where each constraint's rows are in `system` as it is now.
  void record(const ConstraintSystem& system);
  // For each row of the rebuilt `system`, the row its constraint had when recorded (same id,
  // same number of rows), or none.
  void map(const ConstraintSystem& system);
  // after[r] = before[previous row of r] for every row that has one. before: as recorded;
  // after: as mapped.
  template <class Vector>
  void apply(const Vector& before, Vector& after) const {
    for (std::size_t r = 0; r < previousRow_.size(); ++r) {
      if (previousRow_[r] >= 0) after[static_cast<Eigen::Index>(r)] = before[static_cast<Eigen::Index>(previousRow_[r])];
    }
  }

 private:
  struct Place {
    bool used = false;
    std::uint32_t generation = 0;
    Eigen::Index row = 0;
    int rows = 0;
  };
  std::vector<Place> bySlot_;               // where each constraint's rows were, by id slot
  std::vector<Eigen::Index> previousRow_;   // [m] of the rebuilt system; −1: a new row
};

}  // namespace tinkertoy
