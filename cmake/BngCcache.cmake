# ccache (Debian package) for every compile where it is installed: CI and the
# scripts build the same sources in several trees (release, sanitizers, the
# bites' scratch copy, the aarch64 cross build), and a rebuild after a small
# change is mostly cache hits. Off with -DBNG_USE_CCACHE=OFF; a launcher the
# user set already wins.
option(BNG_USE_CCACHE "Compile through ccache when it is installed" ON)
if(BNG_USE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(BNG_CCACHE_PROGRAM ccache)
  if(BNG_CCACHE_PROGRAM)
    set(CMAKE_C_COMPILER_LAUNCHER ${BNG_CCACHE_PROGRAM})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${BNG_CCACHE_PROGRAM})
  endif()
endif()
