# The executables of the tests labelled `sanitize`. The sanitizer presets run
# only those tests (scripts/sanitize.sh), so they build only the target
# sanitize_tests, not the whole tree: bngcert, the benchmarks and the other
# kernel tests are left out.

# bng_sanitize_executable(<target>...): these run tests labelled `sanitize`.
function(bng_sanitize_executable)
  set_property(GLOBAL APPEND PROPERTY BNG_SANITIZE_EXECUTABLES ${ARGN})
endfunction()

# Called once every folder has registered its executables.
function(bng_add_sanitize_tests_target)
  get_property(executables GLOBAL PROPERTY BNG_SANITIZE_EXECUTABLES)
  add_custom_target(sanitize_tests)
  if(executables)
    add_dependencies(sanitize_tests ${executables})
  endif()
endfunction()
