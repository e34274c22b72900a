# Runs one Gappa proof on the code's constants (ctest, `cmake -P`):
#   -DGENERATOR=<gappa_constants> -DGAPPA=<gappa> -DPROOF=<file.g> -DOUT=<instantiated .g>
#   -DEXPECT=proved|rejected [-DSCALE=NAME -DFACTOR=F] [-DCLAIM=k]
# The generator prints the constants from the kernels' headers; every @NAME@
# of the proof becomes that value. A proof marks each bound it claims as
# claim{...}: a number, or an expression. With CLAIM=k the k-th claim is halved
# (a number's binary exponent lowered by one, an expression multiplied by
# 0.5). EXPECT=proved passes when Gappa proves the goal. EXPECT=rejected (a
# claim halved, or NAME scaled by FACTOR: a tightened or loosened constant)
# passes only when Gappa answers that the goal is not satisfied, not
# on any other error, so that a broken proof file cannot pass as "rejected".
cmake_minimum_required(VERSION 3.25)

if(NOT GAPPA)
  message(FATAL_ERROR "gappa not found at configure time: run scripts/setup.sh (Debian package gappa), then reconfigure")
endif()

set(change "")
if(DEFINED CLAIM)
  set(change "claim ${CLAIM} halved")
endif()
set(args)
if(DEFINED SCALE)
  set(change "${SCALE} times ${FACTOR}")
  set(args --scale ${SCALE} ${FACTOR})
endif()
execute_process(COMMAND ${GENERATOR} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE lines
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${GENERATOR} ${args} failed (${rc}): ${err}")
endif()
string(REPLACE "\n" ";" lines "${lines}")
foreach(line IN LISTS lines)
  if(line MATCHES "^([A-Z0-9_]+)=(.+)$")
    set(${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  endif()
endforeach()

file(READ ${PROOF} text)
string(CONFIGURE "${text}" text @ONLY)
if(text MATCHES "@[A-Z0-9_]+@")
  message(FATAL_ERROR "${PROOF}: ${CMAKE_MATCH_0} is not a constant gappa_constants prints")
endif()

# claim{...} -> its content, the CLAIM-th one halved; left to right, so that
# equal claims are told apart by their position.
set(out "")
set(rest "${text}")
set(k 0)
while(rest MATCHES "claim{([^}]*)}")
  set(inner "${CMAKE_MATCH_1}")
  string(FIND "${rest}" "claim{${inner}}" pos)
  string(SUBSTRING "${rest}" 0 ${pos} before)
  string(LENGTH "claim{${inner}}" len)
  math(EXPR pos "${pos} + ${len}")
  string(SUBSTRING "${rest}" ${pos} -1 rest)
  math(EXPR k "${k} + 1")
  set(value "${inner}")
  if(DEFINED CLAIM AND k EQUAL CLAIM)
    if(inner MATCHES "^ *(0x[0-9a-fA-F.]+p)([-+]?[0-9]+) *$")
      math(EXPR exponent "${CMAKE_MATCH_2} - 1")
      set(value "${CMAKE_MATCH_1}${exponent}")
    else()
      set(value "(0.5 * (${inner}))")
    endif()
  endif()
  string(APPEND out "${before}${value}")
endwhile()
string(APPEND out "${rest}")
if(DEFINED CLAIM AND (CLAIM LESS 1 OR CLAIM GREATER k))
  message(FATAL_ERROR "${PROOF} has ${k} claims, no claim ${CLAIM}")
endif()
file(WRITE ${OUT} "${out}")

# Gappa's default 60-bit interval arithmetic cannot tell (1 + u)^2 - 1 from
# 2u + u^2 for u = 2^-53; 200 bits can.
# Every proof takes well under a second; the timeout only stops a runaway
# search (which then fails the test either way).
execute_process(COMMAND ${GAPPA} -Eprecision=200 ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 60)
if(EXPECT STREQUAL "proved")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gappa does not prove ${OUT}:\n${out}${err}")
  endif()
  message(STATUS "proved: ${PROOF}")
elseif(EXPECT STREQUAL "rejected")
  if(rc EQUAL 0)
    message(FATAL_ERROR "gappa still proves ${OUT} with ${change}: the proof does not bind what it claims")
  endif()
  # Gappa's two answers for "cannot prove the goal": with hypotheses, and for
  # a goal without any (a numeric inequality).
  if(NOT err MATCHES "some properties were not satisfied|no contradiction was found")
    message(FATAL_ERROR "gappa failed on ${OUT} for another reason than the claim:\n${out}${err}")
  endif()
  message(STATUS "rejected as it must be, with ${change}: ${PROOF}")
else()
  message(FATAL_ERROR "EXPECT must be proved or rejected, not '${EXPECT}'")
endif()
