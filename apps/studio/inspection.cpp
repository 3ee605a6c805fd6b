#include "inspection.hpp"

#include <cmath>

namespace tinkertoy::studio {

const Json& Inspection::of(const Document& document, const Json::json_pointer& pointer, bool playing) {
  const double time = document.scene().model.time();
  const std::string at = pointer.to_string();
  const bool sameItem = at == pointer_ && document.revision() == revision_;
  const bool moved = time != time_ && (!playing || std::abs(time - time_) > kRefreshSeconds);
  if (!sameItem || moved) {
    item_ = document.json()[pointer];
    pointer_ = at;
    revision_ = document.revision();
    time_ = time;
  }
  return item_;
}

}  // namespace tinkertoy::studio
