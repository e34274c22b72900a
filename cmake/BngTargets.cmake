# The target registry as CMake sees it: reads optimized/include/bng/optimized/targets.inc,
# the one list of targets (docs/targets.md), so that the libraries, their exports and
# every per-target test and tool are generated from it. tests/targets checks that this
# reads what the C++ side (bng/optimized/targets.hpp) compiles.
#
#   BNG_TARGETS                     the names, in the registry's order
#   BNG_TARGET_KERNELS_<name>       the kernels the target has: some of fp, hp, mp
#   BNG_TARGET_EXPORTS_<name>       the C API it exports (SPEC §2), bng_status_string first
#   BNG_TARGET_REGISTRY_TEXT        "ft78ne:fp;mt7004:fp,hp,mp" (for the agreement test)
#   bng_target_definitions(<tgt> <PRIVATE|PUBLIC|INTERFACE> <name>)
#       BNG_TARGET_NAME="<name>", BNG_TARGET_ID=<name> (a bare token) and
#       BNG_TARGET_HAS_FP/HP/MP=0|1 on <tgt>

set(BNG_TARGET_REGISTRY ${CMAKE_CURRENT_LIST_DIR}/../optimized/include/bng/optimized/targets.inc)
get_filename_component(BNG_TARGET_REGISTRY ${BNG_TARGET_REGISTRY} ABSOLUTE)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
                                                             ${BNG_TARGET_REGISTRY})

# The entry points of each kernel (SPEC §2): the params form and the flat form,
# _s and _p; mixed precision has the params form only.
set(BNG_KERNEL_KINDS fp hp mp)
set(BNG_KERNEL_ENTRY_POINTS_fp fp_batch_norm_grad_s fp_batch_norm_grad_p fp_batchnormgrad_s
                               fp_batchnormgrad_p)
set(BNG_KERNEL_ENTRY_POINTS_hp hp_batch_norm_grad_s hp_batch_norm_grad_p hp_batchnormgrad_s
                               hp_batchnormgrad_p)
set(BNG_KERNEL_ENTRY_POINTS_mp mp_batch_norm_grad_s mp_batch_norm_grad_p)

set(BNG_TARGETS)
set(BNG_TARGET_REGISTRY_TEXT)
file(STRINGS ${BNG_TARGET_REGISTRY} bng_registry_lines REGEX "^BNG_TARGET\\(")
foreach(line IN LISTS bng_registry_lines)
  set(word "[ ]*([A-Za-z0-9_ *]+)[ ]*")
  if(NOT line MATCHES "^BNG_TARGET\\(([a-z][a-z0-9_]*),${word},${word},${word},${word},${word},${word}\\)[ ]*$")
    message(FATAL_ERROR "${BNG_TARGET_REGISTRY}: cannot read this line (one BNG_TARGET(...) "
                        "per line, seven arguments):\n  ${line}")
  endif()
  set(name ${CMAKE_MATCH_1})
  set(alphas "${CMAKE_MATCH_5};${CMAKE_MATCH_6};${CMAKE_MATCH_7}")
  set(BNG_TARGET_KERNELS_${name})
  set(BNG_TARGET_EXPORTS_${name} bng_status_string)
  foreach(kind alpha IN ZIP_LISTS BNG_KERNEL_KINDS alphas)
    string(STRIP "${alpha}" alpha)
    if(NOT alpha STREQUAL "kNoKernel")
      list(APPEND BNG_TARGET_KERNELS_${name} ${kind})
      list(APPEND BNG_TARGET_EXPORTS_${name} ${BNG_KERNEL_ENTRY_POINTS_${kind}})
    endif()
  endforeach()
  if(name IN_LIST BNG_TARGETS)
    message(FATAL_ERROR "${BNG_TARGET_REGISTRY}: target ${name} listed twice")
  endif()
  if(NOT IS_DIRECTORY ${PROJECT_SOURCE_DIR}/optimized/${name})
    message(FATAL_ERROR "target ${name} of ${BNG_TARGET_REGISTRY} has no folder optimized/${name}/")
  endif()
  list(APPEND BNG_TARGETS ${name})
  string(REPLACE ";" "," kernels "${BNG_TARGET_KERNELS_${name}}")
  list(APPEND BNG_TARGET_REGISTRY_TEXT "${name}:${kernels}")
endforeach()
if(NOT BNG_TARGETS)
  message(FATAL_ERROR "${BNG_TARGET_REGISTRY} lists no target")
endif()

function(bng_target_definitions tgt visibility name)
  if(NOT name IN_LIST BNG_TARGETS)
    message(FATAL_ERROR "bng_target_definitions: ${name} is not in the target registry")
  endif()
  set(defs BNG_TARGET_NAME="${name}" BNG_TARGET_ID=${name})
  foreach(kind IN LISTS BNG_KERNEL_KINDS)
    string(TOUPPER ${kind} upper)
    if(kind IN_LIST BNG_TARGET_KERNELS_${name})
      list(APPEND defs BNG_TARGET_HAS_${upper}=1)
    else()
      list(APPEND defs BNG_TARGET_HAS_${upper}=0)
    endif()
  endforeach()
  target_compile_definitions(${tgt} ${visibility} ${defs})
endfunction()
