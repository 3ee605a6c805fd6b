# The Studio's sources that the desktop (apps/studio/CMakeLists.txt) and the browser
# (web/CMakeLists.txt) share, relative to apps/studio/. Each adds its own main loop, its side of
# platform.hpp and its VideoRecorder.
set(STUDIO_SOURCES
  studio_window.cpp
  studio.cpp
  studio_view.cpp
  studio_keys.cpp
  panels.cpp
  point_mass_tools.cpp
  rigid_body_tools.cpp
  contact_tools.cpp
  inspector_panel.cpp
  document.cpp
  inspection.cpp
  ghost_run.cpp
  compare_mode.cpp
  session.cpp
  mouse_grip.cpp
  canvas.cpp
  input_script.cpp
  recent_files.cpp
  scene_list.cpp
  file_dialogs.cpp
  screenshot.cpp
  window_capture.cpp
)
