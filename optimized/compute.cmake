# The compute kernels (issue 3), included by optimized/CMakeLists.txt, which
# compiles these sources into each target's library (-fPIC, hidden visibility).
#   BNG_COMPUTE_COMMON_SOURCES   shared mechanics (core pool, ISA choice, lane kernels)
#   bng_schedule                 object library: who computes what (the partition and
#                                the phases' parts, bng/optimized/schedule.hpp), compiled
#                                once, in every library and in bngcert's fault maps
#   BNG_COMPUTE_SOURCES_<target> the per-target kernels (<target>/compute.cpp, for
#                                every target of BNG_TARGETS: cmake/BngTargets.cmake)
#   BNG_COMPUTE_INCLUDE_DIRS     include directories the sources need
#   BNG_COMPUTE_LIBS             what the kernels link
#   bng_isa_info                 static library: bng::opt::isa_name() for the report tool
set(_bng_c ${CMAKE_CURRENT_LIST_DIR})

set(BNG_COMPUTE_COMMON_SOURCES
    ${_bng_c}/core_pool.cpp
    ${_bng_c}/isa.cpp
    ${_bng_c}/lane_kernels.cpp)
set(BNG_COMPUTE_TARGET_SOURCES)
foreach(target IN LISTS BNG_TARGETS)
  set(BNG_COMPUTE_SOURCES_${target} ${_bng_c}/${target}/compute.cpp)
  list(APPEND BNG_COMPUTE_TARGET_SOURCES ${BNG_COMPUTE_SOURCES_${target}})
endforeach()
set(BNG_COMPUTE_INCLUDE_DIRS ${_bng_c}/include ${PROJECT_SOURCE_DIR}/common/include)
set(BNG_COMPUTE_LIBS hwy::hwy Threads::Threads)
# Highway re-includes each kernel file once per instruction set through
# HWY_TARGET_INCLUDE, which is resolved on the include path: give the kernel
# sources their own folder on it, so the including library need not know.
set_source_files_properties(${BNG_COMPUTE_COMMON_SOURCES} ${BNG_COMPUTE_TARGET_SOURCES}
                            PROPERTIES INCLUDE_DIRECTORIES
                                       "${_bng_c};${_bng_c}/include;${PROJECT_SOURCE_DIR}/common/include")


add_library(bng_schedule OBJECT ${_bng_c}/partition.cpp ${_bng_c}/schedule.cpp)
target_include_directories(bng_schedule PUBLIC ${_bng_c}/include)
set_target_properties(bng_schedule PROPERTIES POSITION_INDEPENDENT_CODE ON
                                              CXX_VISIBILITY_PRESET hidden
                                              VISIBILITY_INLINES_HIDDEN ON)

add_library(bng_isa_info STATIC ${_bng_c}/isa.cpp)
target_include_directories(bng_isa_info PUBLIC ${_bng_c}/include PRIVATE ${_bng_c})
target_link_libraries(bng_isa_info PUBLIC hwy::hwy)
set_target_properties(bng_isa_info PROPERTIES POSITION_INDEPENDENT_CODE ON)
