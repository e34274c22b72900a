# Warnings as errors for the project's own code; third-party headers come in
# through imported targets, which CMake marks SYSTEM.
add_compile_options(
  -Wall -Wextra -Wpedantic -Werror
  $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>
  # Determinism and exact error analysis: never contract a*b+c into an FMA
  # behind the analysis' back (g++ contracts by default in GNU modes, clang
  # within expressions). Kernels use FMA only where they ask for it.
  -ffp-contract=off)
