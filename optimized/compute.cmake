# The compute kernels (issue 3), included by optimized/CMakeLists.txt, which
# compiles these sources into each target's library (-fPIC, hidden visibility).
#   BNG_COMPUTE_COMMON_SOURCES   shared mechanics (core pool, partitioning, ISA choice)
#   BNG_COMPUTE_SOURCES_<target> the per-target kernels
#   BNG_COMPUTE_INCLUDE_DIRS     include directories the sources need
#   BNG_COMPUTE_LIBS             what the kernels link
#   bng_isa_info                 static library: bng::opt::isa_name() for the report tool
set(_bng_c ${CMAKE_CURRENT_LIST_DIR})

set(BNG_COMPUTE_COMMON_SOURCES
    ${_bng_c}/core_pool.cpp
    ${_bng_c}/isa.cpp
    ${_bng_c}/lane_kernels.cpp
    ${_bng_c}/partition.cpp)
set(BNG_COMPUTE_SOURCES_ft78ne
    ${_bng_c}/ft78ne/compute_fp.cpp)
set(BNG_COMPUTE_SOURCES_mt7004
    ${_bng_c}/mt7004/compute.cpp)
set(BNG_COMPUTE_INCLUDE_DIRS ${_bng_c}/include ${PROJECT_SOURCE_DIR}/common/include)
set(BNG_COMPUTE_LIBS hwy::hwy Threads::Threads)
# Highway re-includes each kernel file once per instruction set through
# HWY_TARGET_INCLUDE, which is resolved on the include path: give the kernel
# sources their own folder on it, so the including library need not know.
set_source_files_properties(${BNG_COMPUTE_COMMON_SOURCES} ${BNG_COMPUTE_SOURCES_ft78ne}
                            ${BNG_COMPUTE_SOURCES_mt7004}
                            PROPERTIES INCLUDE_DIRECTORIES
                                       "${_bng_c};${_bng_c}/include;${PROJECT_SOURCE_DIR}/common/include")


add_library(bng_isa_info STATIC ${_bng_c}/isa.cpp)
target_include_directories(bng_isa_info PUBLIC ${_bng_c}/include PRIVATE ${_bng_c})
target_link_libraries(bng_isa_info PUBLIC hwy::hwy)
set_target_properties(bng_isa_info PROPERTIES POSITION_INDEPENDENT_CODE ON)
