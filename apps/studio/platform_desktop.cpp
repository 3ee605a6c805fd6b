// The desktop's side of platform.hpp: paths are typed in the Studio's own dialogs, and files are
// written where the user asked.
#include "platform.hpp"

namespace tinkertoy::studio::platform {

bool hasFilePicker() { return false; }
void pickFile() {}
void deliver(const std::filesystem::path&) {}

}  // namespace tinkertoy::studio::platform
