# Checks that a shared library exports exactly the expected dynamic symbols
# (all functions) and carries the expected SONAME.
#   cmake -DLIB=<.so> -DEXPECTED=<a,b,...> -DSONAME=<name> -DNM=<nm> -DOBJDUMP=<objdump> -P check_exports.cmake
foreach(var LIB EXPECTED SONAME NM OBJDUMP)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_exports.cmake: -D${var}=... is required")
  endif()
endforeach()

string(REPLACE "," ";" EXPECTED "${EXPECTED}")

execute_process(COMMAND ${NM} -D --defined-only ${LIB}
                OUTPUT_VARIABLE listing RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIB} failed (${rc}): ${err}")
endif()

set(exported "")
set(not_functions "")
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-fA-F]* *([A-Za-z]) (.+)$")
    list(APPEND exported "${CMAKE_MATCH_2}")
    if(NOT CMAKE_MATCH_1 STREQUAL "T")
      list(APPEND not_functions "${CMAKE_MATCH_2} (${CMAKE_MATCH_1})")
    endif()
  endif()
endforeach()

set(unexpected ${exported})
list(REMOVE_ITEM unexpected ${EXPECTED})
set(missing ${EXPECTED})
list(REMOVE_ITEM missing ${exported})
if(unexpected OR missing OR not_functions)
  message(FATAL_ERROR "${LIB}:\n  exported but not in the C API: ${unexpected}\n"
                      "  missing from the exports: ${missing}\n"
                      "  exported, but not as code: ${not_functions}\n"
                      "nm -D --defined-only:\n${listing}")
endif()
list(LENGTH exported count)

execute_process(COMMAND ${OBJDUMP} -p ${LIB} OUTPUT_VARIABLE headers RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT headers MATCHES "SONAME +([^\n ]+)")
  message(FATAL_ERROR "${LIB}: no SONAME in `${OBJDUMP} -p`")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL SONAME)
  message(FATAL_ERROR "${LIB}: SONAME is ${CMAKE_MATCH_1}, expected ${SONAME}")
endif()
message(STATUS "${LIB}: exactly the ${count} C API symbols, SONAME ${SONAME}")
