// Inspection: what the inspector shows of the selected item — its JSON in the live scene,
// taken again whenever the item changes, the document changes (an edit, an undo, a load) or,
// while the simulation runs, a few times a second; in between it is kept, so that a field
// being typed into is not overwritten under the cursor every frame.
//
//   Inspection inspection;
//   const Json& item = inspection.of(document, *document.locate(selected), session.playing());
#pragma once

#include <cstdint>
#include <string>

#include "document.hpp"

namespace tinkertoy::studio {

class Inspection {
 public:
  // The item at `pointer` in `document`'s scene, as the inspector is to show it now.
  const Json& of(const Document& document, const Json::json_pointer& pointer, bool playing);
  // Forgets what was shown: the next of() takes the item afresh.
  void clear() { pointer_.clear(); }

 private:
  static constexpr double kRefreshSeconds = 0.1;  // of simulated time, while running

  Json item_;
  std::string pointer_;  // the item shown, "" for none
  std::uint64_t revision_ = 0;
  double time_ = 0.0;
};

}  // namespace tinkertoy::studio
