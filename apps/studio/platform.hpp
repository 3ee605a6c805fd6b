// Platform: the few things the Studio asks of the system it runs on, where the desktop and the
// browser differ. The desktop's answers are in platform_desktop.cpp, the browser's in
// apps/web/browser_platform.cpp; the video recorder (video_recorder.hpp) and the main loop
// (studio_window.hpp and its two callers) are the other seams.
#pragma once

#include <filesystem>

namespace tinkertoy::studio::platform {

// Whether scene files come from the system's own file picker (the browser's) as well as from a
// typed path.
bool hasFilePicker();
// Opens that picker. The file chosen is opened later, through Studio::offerToOpen.
void pickFile();
// A file the Studio has just written for the user (a saved scene, a screenshot): the browser
// downloads it; on the desktop it already is where the user asked.
void deliver(const std::filesystem::path& file);

}  // namespace tinkertoy::studio::platform
