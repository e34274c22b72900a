# The ISA path registry as CMake sees it: reads
# optimized/include/bng/optimized/isa_paths.inc (the one list of paths,
# bng/optimized/isa.hpp) for the architecture being built.
#
#   BNG_ARCHITECTURE        x86_64 or aarch64 (CMAKE_SYSTEM_PROCESSOR's)
#   BNG_ISA_PATHS           this architecture's paths, best first (BNG_ISA values)
#   BNG_ISA_QEMU_CPUS_<p>   aarch64 only: the QEMU_CPU values under which
#                           the emulated tests run path <p>, one per vector
#                           length that path is tested at (docs/targets.md)

set(bng_isa_registry ${CMAKE_CURRENT_LIST_DIR}/../optimized/include/bng/optimized/isa_paths.inc)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
                                                             ${bng_isa_registry})
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(BNG_ARCHITECTURE x86_64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(BNG_ARCHITECTURE aarch64)
else()
  message(FATAL_ERROR "no ISA paths for processor ${CMAKE_SYSTEM_PROCESSOR} in ${bng_isa_registry}")
endif()

set(BNG_ISA_PATHS)
file(STRINGS ${bng_isa_registry} bng_isa_lines REGEX "^BNG_ISA_PATH\\(")
foreach(line IN LISTS bng_isa_lines)
  if(NOT line MATCHES "^BNG_ISA_PATH\\(([a-z0-9_]+), *([a-z0-9_]+), *[A-Z0-9_]+\\)")
    message(FATAL_ERROR "${bng_isa_registry}: cannot read this line:\n  ${line}")
  endif()
  if(CMAKE_MATCH_1 STREQUAL BNG_ARCHITECTURE OR CMAKE_MATCH_1 STREQUAL "any")
    list(APPEND BNG_ISA_PATHS ${CMAKE_MATCH_2})
  endif()
endforeach()

# Under qemu-user (QEMU_CPU chooses the emulated processor): neoverse-n1 has
# NEON only, a64fx SVE at 512 bits, max,sve<N>=on SVE2 at N bits. sve2_128
# and sve_256 run only at their length; sve and sve2 at every length from 128
# to 2048 bits between them. The first of each list is in the CI subset
# (tests/aarch64: label aarch64), so that it meets every path and every length
# once; the others are label aarch64-full.
set(BNG_ISA_QEMU_CPUS_sve2_128 "max,sve128=on")
set(BNG_ISA_QEMU_CPUS_sve_256 "max,sve256=on")
set(BNG_ISA_QEMU_CPUS_sve2 "max,sve2048=on;max,sve512=on")
set(BNG_ISA_QEMU_CPUS_sve "a64fx;max,sve128=on;max,sve256=on;max,sve2048=on")
set(BNG_ISA_QEMU_CPUS_neon "neoverse-n1")
set(BNG_ISA_QEMU_CPUS_portable "neoverse-n1")
