# Installs the build tree into a fresh prefix, builds the C project in
# project/ against it with find_package(BatchNormGrad CONFIG), and runs it.
#   cmake -DBUILD_DIR= -DWORK_DIR= -DSOURCE_DIR= -DGENERATOR= -DC_COMPILER=
#         [-DC_FLAGS= -DLINKER_FLAGS= -DOBJDUMP=] -P run_consumer.cmake
foreach(var BUILD_DIR WORK_DIR SOURCE_DIR GENERATOR C_COMPILER TARGETS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

# Only the library's install components: what a libbatchnormgrad package ships.
foreach(component bng_runtime bng_development)
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --component ${component})
endforeach()

foreach(file include/batchnormgrad.h)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
string(REPLACE "," ";" TARGETS "${TARGETS}")
foreach(t IN LISTS TARGETS)
  file(GLOB_RECURSE found RELATIVE ${prefix} ${prefix}/*/libbatchnormgrad_${t}.*)
  foreach(kind "\\.so$" "\\.so\\.[0-9]+$" "\\.a$")
    list(FILTER found EXCLUDE REGEX "^$")
    set(match ${found})
    list(FILTER match INCLUDE REGEX "${kind}")
    if(NOT match)
      message(FATAL_ERROR "libbatchnormgrad_${t}: nothing matching ${kind} installed (${found})")
    endif()
  endforeach()
endforeach()
file(GLOB_RECURSE configs ${prefix}/*/BatchNormGradConfig.cmake ${prefix}/*/BatchNormGradConfigVersion.cmake)
list(LENGTH configs n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "package config and version files not installed (found: ${configs})")
endif()

run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build} -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    -DCMAKE_C_COMPILER=${C_COMPILER}
    "-DCMAKE_C_FLAGS=${C_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
message(STATUS "${last_output}")
run(${CMAKE_COMMAND} --build ${build})

foreach(exe uses_mt7004 uses_ft78ne_static)
  run(${build}/${exe})
  message(STATUS "${exe}:\n${last_output}")
endforeach()

# The static consumer must not need the shared library at run time.
if(OBJDUMP)
  run(${OBJDUMP} -p ${build}/uses_ft78ne_static)
  if(last_output MATCHES "NEEDED +libbatchnormgrad")
    message(FATAL_ERROR "uses_ft78ne_static depends on a shared libbatchnormgrad:\n${last_output}")
  endif()
endif()
file(REMOVE_RECURSE ${WORK_DIR})
