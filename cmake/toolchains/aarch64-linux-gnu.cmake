# Cross-compiling for the targets' aarch64 hosts (docs/targets.md) with
# Debian's cross compiler (g++-aarch64-linux-gnu) against the arm64 multiarch
# -dev packages (BNG_SETUP_AARCH64=1 scripts/setup.sh installs both). Tests run
# under qemu-user: CTest prefixes every test command with the emulator, and
# QEMU_CPU (set per test where a test wants a particular processor) chooses
# what the emulated processor has.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Multiarch: arm64 libraries and their CMake configs live under
# /usr/lib/aarch64-linux-gnu; architecture-independent headers under /usr/include.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# qemu runs arm64 programs with the arm64 loader and libraries that the
# multiarch packages install (libc6:arm64 comes with them).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
# pkg-config (FindOpenSSL asks it first) must describe the arm64 libraries,
# not the build machine's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
