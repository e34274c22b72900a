# ccache (Debian package) for every compile where it is installed: CI and the
# scripts build the same sources in several trees (release, sanitizers, the
# bites' scratch copy, the aarch64 cross build), and a rebuild after a small
# change is mostly cache hits. Off with -DBNG_USE_CCACHE=OFF; a launcher the
# user set already wins.
#
# A clean clone at another path (CI's) hits the objects of the trees built
# before it: CCACHE_BASEDIR makes the paths under the source root relative
# before they are hashed, and CCACHE_NOHASHDIR leaves the working directory
# out of the hash of -g builds. The price (ccache's manual, "Compiling in
# different directories"): the compilation directory recorded in a hit
# object's debug information is that of the tree that compiled it first.
option(BNG_USE_CCACHE "Compile through ccache when it is installed" ON)
if(BNG_USE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(BNG_CCACHE_PROGRAM ccache)
  if(BNG_CCACHE_PROGRAM)
    set(bng_ccache_launcher ${CMAKE_COMMAND} -E env "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}"
                            CCACHE_NOHASHDIR=1 ${BNG_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${bng_ccache_launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${bng_ccache_launcher})
  endif()
endif()
