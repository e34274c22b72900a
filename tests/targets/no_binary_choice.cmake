# No code chooses between named targets: every part of the tool chain takes
# the targets from the registry. Two rules, over the source tree:
#  1. No line of code anywhere names two targets of the registry (the shape
#     of `t == a ? ... : b`, `{"a", "b"}`, `foreach(t a b)`: a list or a
#     binary choice that a new registry entry would silently miss).
#  2. The tool chain itself (optimized, properties, tools, cmake, proofs,
#     reference, common, scripts, the top CMakeLists.txt) names no target,
#     except in the registry and in a target's own folder optimized/<target>/.
# Comments are not code: they may give a target as an example.
# Tests, benchmarks and examples may name a target they test (rule 1 still
# holds for their CMake files), see the exemptions below.
#   cmake -DSOURCE_DIR=<tree> -DREGISTRY=<targets.inc> -P no_binary_choice.cmake
foreach(var SOURCE_DIR REGISTRY)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "no_binary_choice.cmake: -D${var}=... is required")
  endif()
endforeach()

file(STRINGS ${REGISTRY} lines REGEX "^BNG_TARGET\\(")
set(targets)
foreach(line IN LISTS lines)
  string(REGEX MATCH "^BNG_TARGET\\(([a-z0-9_]+)," _ "${line}")
  list(APPEND targets ${CMAKE_MATCH_1})
endforeach()
list(LENGTH targets count)
if(count LESS 1)
  message(FATAL_ERROR "${REGISTRY}: no target read")
endif()

file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/*.cpp ${SOURCE_DIR}/*.hpp ${SOURCE_DIR}/*.c ${SOURCE_DIR}/*.h
     ${SOURCE_DIR}/*.inc ${SOURCE_DIR}/*.cmake ${SOURCE_DIR}/*.in ${SOURCE_DIR}/*.sh
     ${SOURCE_DIR}/*.py ${SOURCE_DIR}/*.map ${SOURCE_DIR}/CMakeLists.txt ${SOURCE_DIR}/.ci/run)
list(FILTER files EXCLUDE REGEX "^(build|\\.git)/")
list(FILTER files EXCLUDE REGEX "^tests/data/")

set(violations)
set(checked 0)
foreach(file IN LISTS files)
  set(test_code FALSE)
  # Rule 1 exemptions: test sources name the targets they test; the consumer
  # test is a user's project (its executables are one per target); the
  # properties' reduced run selects named test instances (sanitizers, qemu).
  if(file MATCHES "^(tests|bench|examples)/.*\\.(cpp|hpp|h|c)$" OR file MATCHES "^tests/consumer/"
     OR file STREQUAL "tests/properties/reduced_filter.cmake")
    set(test_code TRUE)
  endif()
  set(toolchain FALSE)
  if(file MATCHES "^(optimized|properties|tools|cmake|proofs|reference|common|scripts)/"
     OR file STREQUAL "CMakeLists.txt")
    set(toolchain TRUE)
  endif()
  if(file MATCHES "^optimized/include/bng/optimized/targets\\.inc$")
    continue()
  endif()
  foreach(t IN LISTS targets)
    if(file MATCHES "^optimized/${t}/")
      set(toolchain FALSE)
    endif()
  endforeach()
  if(test_code AND NOT toolchain)
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  set(c_like FALSE)
  if(file MATCHES "\\.(cpp|hpp|c|h|inc)$")
    set(c_like TRUE)
  endif()
  # Lines as a CMake list: protect the characters lists treat specially.
  file(READ ${SOURCE_DIR}/${file} content)
  string(REPLACE ";" "<semicolon>" content "${content}")
  string(REPLACE "[" "<open>" content "${content}")
  string(REPLACE "]" "<close>" content "${content}")
  string(REPLACE "\\" "<backslash>" content "${content}")
  string(REPLACE "\n" ";" text "${content}")
  set(n 0)
  foreach(line IN LISTS text)
    math(EXPR n "${n} + 1")
    string(TOLOWER "${line}" code)
    # The code of the line: comments are free to give examples.
    if(c_like)
      if(code MATCHES "^[ \t]*(/\\*|\\*)")
        continue()
      endif()
      string(REGEX REPLACE "//.*$" "" code "${code}")
    else()
      string(REGEX REPLACE "^[ \t]*#.*$" "" code "${code}")
      string(REGEX REPLACE "[ \t]#[^\"]*$" "" code "${code}")
    endif()
    set(named)
    foreach(t IN LISTS targets)
      string(FIND "${code}" "${t}" at)
      if(at GREATER -1)
        list(APPEND named ${t})
      endif()
    endforeach()
    list(LENGTH named how_many)
    if(how_many GREATER 1 OR (how_many EQUAL 1 AND toolchain))
      list(JOIN named ", " named)
      list(APPEND violations "${file}:${n}: names ${named}: ${line}")
    endif()
  endforeach()
endforeach()

if(checked LESS 20)
  message(FATAL_ERROR "only ${checked} files checked under ${SOURCE_DIR}: wrong SOURCE_DIR?")
endif()
if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "targets named outside the registry (take them from "
                      "bng/optimized/targets.inc: docs/targets.md):\n  ${text}")
endif()
message(STATUS "${checked} files: no line names two targets; the tool chain names none")
