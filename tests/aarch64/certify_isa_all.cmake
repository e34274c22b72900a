# `bngcert certify --isa all` of the aarch64 build under qemu (QEMU_CPU from
# the test's environment): exit 0, a certificate that passes with one run per
# path the emulated processor has, and libraries recorded as aarch64 builds.
# In: BNGCERT, OUT, EMULATOR, TARGETS (the registry's, ;-separated),
# EXPECTED_PATHS (the paths this processor has, from the ISA registry).
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${EMULATOR} ${BNGCERT} certify --isa all --cases 1 --max-size 10
                        --progress none --out ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "certify --isa all exited ${rc}:\n${out}\n${err}")
endif()
file(READ ${OUT}/certificate.json cert)
string(JSON verdict GET "${cert}" verdict)
string(JSON runs LENGTH "${cert}" runs)
list(LENGTH EXPECTED_PATHS want_runs)
if(NOT verdict STREQUAL "pass" OR NOT runs EQUAL want_runs)
  message(FATAL_ERROR "certificate: verdict ${verdict}, ${runs} runs (want pass and one run "
                      "per path: ${EXPECTED_PATHS})")
endif()
math(EXPR last "${runs} - 1")
set(paths)
foreach(k RANGE ${last})
  string(JSON path GET "${cert}" runs ${k} isa path)
  string(JSON run_verdict GET "${cert}" runs ${k} verdict)
  if(NOT run_verdict STREQUAL "pass")
    message(FATAL_ERROR "path ${path}: verdict ${run_verdict}")
  endif()
  list(APPEND paths ${path})
endforeach()
foreach(want IN LISTS EXPECTED_PATHS)
  if(NOT want IN_LIST paths)
    message(FATAL_ERROR "no run on ${want}; runs: ${paths}")
  endif()
endforeach()
foreach(target IN LISTS TARGETS)
  string(JSON arch GET "${cert}" build libraries ${target} build architecture)
  if(NOT arch STREQUAL "aarch64")
    message(FATAL_ERROR "${target}'s library recorded as ${arch}, not aarch64")
  endif()
endforeach()
message(STATUS "certify --isa all: pass on ${paths}")
