# ctest `package`: install Tinkertoy into a scratch prefix, build examples/ against it with
# find_package(tinkertoy), and again by hand with pkg-config's flags, and run both; check the
# programs and the Python package were installed. Arguments:
# BUILD_DIR, SOURCE_DIR, WORK_DIR, STUDIO (whether the Studio was built), PYTHON (the
# interpreter, when the Python module was built), and
# the library's BUILD_TYPE and SANITIZE, which the example must match (Eigen's types differ
# between debug and release builds, and the sanitizers need their runtime in the link).
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix"
                RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()
# The programs are installed too: the command line runs from the prefix, the Studio is there
# when it was built.
execute_process(COMMAND "${WORK_DIR}/prefix/bin/tinkertoy" --version RESULT_VARIABLE status OUTPUT_VARIABLE version)
if(NOT status EQUAL 0 OR NOT version MATCHES "tinkertoy")
  message(FATAL_ERROR "the installed tinkertoy does not run: ${version}")
endif()
if(STUDIO AND NOT EXISTS "${WORK_DIR}/prefix/bin/tinkertoy-studio")
  message(FATAL_ERROR "cmake --install did not install tinkertoy-studio")
endif()
set(sanitizers "")
if(SANITIZE)
  set(sanitizers "-fsanitize=address,undefined")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples" -B "${WORK_DIR}/build" -G Ninja
                        "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}" "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix"
                        "-DCMAKE_CXX_FLAGS=${sanitizers}" "-DCMAKE_EXE_LINKER_FLAGS=${sanitizers}"
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "configuring the example against the installed package failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/build" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "building the example failed")
endif()
execute_process(COMMAND "${WORK_DIR}/build/hello_pendulum" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the example ran but failed")
endif()
# pkg-config: the same example compiled by hand with what `pkg-config --cflags --libs tinkertoy`
# says, as a project without CMake would.
file(GLOB_RECURSE pc_file "${WORK_DIR}/prefix/*/tinkertoy.pc")
if(NOT pc_file)
  message(FATAL_ERROR "cmake --install did not install tinkertoy.pc")
endif()
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
execute_process(COMMAND pkg-config --cflags --libs tinkertoy RESULT_VARIABLE status OUTPUT_VARIABLE pc_flags
                ERROR_VARIABLE pc_error OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs tinkertoy failed: ${pc_error}")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
set(ndebug "")
if(NOT BUILD_TYPE STREQUAL "Debug")
  set(ndebug "-DNDEBUG")  # as the library was built: Eigen's inline code must agree
endif()
execute_process(COMMAND c++ ${sanitizers} ${ndebug} "${SOURCE_DIR}/examples/hello_pendulum.cpp" ${pc_flags}
                        -o "${WORK_DIR}/hello_pendulum_pkg_config"
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "building the example with pkg-config's flags failed: ${pc_flags}")
endif()
# A shared libtinkertoy outside the loader's paths is found as a user would find it.
execute_process(COMMAND pkg-config --variable=libdir tinkertoy OUTPUT_VARIABLE pc_libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
set(ENV{LD_LIBRARY_PATH} "${pc_libdir}")
execute_process(COMMAND "${WORK_DIR}/hello_pendulum_pkg_config" RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the example built with pkg-config's flags ran but failed")
endif()
# The Python module, when it was built: installed beside the library and imported from outside
# the tree, with only the installed package on the path.
if(PYTHON)
  file(GLOB_RECURSE installed_init "${WORK_DIR}/prefix/lib/python*/dist-packages/tinkertoy/__init__.py")
  if(NOT installed_init)
    message(FATAL_ERROR "cmake --install did not install the Python package")
  endif()
  get_filename_component(package_dir "${installed_init}" DIRECTORY)
  get_filename_component(site_dir "${package_dir}" DIRECTORY)
  set(ENV{PYTHONPATH} "${site_dir}")
  execute_process(COMMAND "${PYTHON}" -c
                          "import tinkertoy, sys; s = tinkertoy.Scene(); s.model.add_particle(1.0, [1, 0]); \
sim = tinkertoy.Simulator(s); sim.run(0.01); print(tinkertoy.__file__)"
                  WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE status OUTPUT_VARIABLE imported ERROR_VARIABLE error)
  if(NOT status EQUAL 0 OR NOT imported MATCHES "^${site_dir}")
    message(FATAL_ERROR "the installed Python package does not import from ${site_dir}: ${imported}${error}")
  endif()
endif()
