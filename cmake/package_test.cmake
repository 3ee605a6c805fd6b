# ctest `package`: install Tinkertoy into a scratch prefix, build examples/ against it with
# find_package(tinkertoy), and run the result; check the programs were installed. Arguments:
# BUILD_DIR, SOURCE_DIR, WORK_DIR, STUDIO (whether the Studio was built), and
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
