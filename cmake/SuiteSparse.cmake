# Imported targets SuiteSparse::<NAME> for the SuiteSparse libraries the engine uses, found from
# Debian's libsuitesparse-dev. Sources include the headers as <suitesparse/...>; those find their
# own siblings. LDL's header has no extern "C" guard, so include it inside one.
find_path(SUITESPARSE_INCLUDE_DIR NAMES suitesparse/ldl.h REQUIRED)
foreach(component LDL CHOLMOD SUITESPARSECONFIG)
  if(TARGET SuiteSparse::${component})
    continue()
  endif()
  string(TOLOWER ${component} library)
  find_library(SUITESPARSE_${component}_LIBRARY NAMES ${library} REQUIRED)
  add_library(SuiteSparse::${component} UNKNOWN IMPORTED)
  set_target_properties(SuiteSparse::${component} PROPERTIES IMPORTED_LOCATION ${SUITESPARSE_${component}_LIBRARY})
endforeach()
