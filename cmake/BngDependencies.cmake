# Every dependency is a Debian package (scripts/setup.sh installs them);
# docs/dependencies.md says why each is here.
find_package(Boost 1.74 REQUIRED)              # Multiprecision: the exact reference
find_package(hwy REQUIRED)                     # Highway: vector abstraction + run-time ISA dispatch
find_package(Threads REQUIRED)                 # the core pool

if(BNG_BUILD_TESTS OR BNG_BUILD_TOOLS OR BNG_BUILD_FUZZER)
  find_package(rapidcheck REQUIRED)            # property generators (tests and bngcert campaigns)
endif()
if(BNG_BUILD_TESTS)
  find_package(GTest REQUIRED)
  # MPFR checks the reference's binary32 rounding independently (through Boost's mpfr_float).
  find_path(MPFR_INCLUDE_DIR mpfr.h REQUIRED)
  find_library(MPFR_LIBRARY mpfr REQUIRED)
  find_library(GMP_LIBRARY gmp REQUIRED)
endif()
if(BNG_BUILD_TOOLS)
  find_package(CLI11 REQUIRED)
  find_package(nlohmann_json 3.10 REQUIRED)
  find_package(fmt REQUIRED)
  find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)  # SHA-256 of packs, libraries, certificates
endif()
if(BNG_BUILD_BENCH)
  find_package(benchmark REQUIRED)
  # Debian's oneDNN 2.6 CMake config requires OpenCL headers: locate it by hand.
  find_path(DNNL_INCLUDE_DIR dnnl.hpp REQUIRED)
  find_library(DNNL_LIBRARY dnnl REQUIRED)
  find_package(OpenMP REQUIRED)
endif()
