// Calls the shipped kernels: the built libbatchnormgrad_<target>.so files are
// dlopen()ed with RTLD_LOCAL, so both targets (which export the same fp_* names)
// live in one process and what is tested is exactly what is installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bng/properties/target.hpp"
#include "bng/reference/case.hpp"

namespace bng::prop {

// ---- the libraries -----------------------------------------------------------

// A library file as dlopen is given it: absolute (a relative path is taken
// against the current directory: a name without a slash would otherwise make
// dlopen search LD_LIBRARY_PATH and the system's directories and load another
// file) and lexically normal. Throws std::invalid_argument naming `origin` (the
// option or variable that gave the path) and the path when it is not an
// existing regular file, or when removing its '..' lexically would name
// another file (a '..' after a symbolic link).
std::string library_file(const std::string& path, const std::string& origin);

// Path of a target's shared library, as library_file() gives it: the
// environment variable library_env_var(t) (BNG_LIB_<NAME>, e.g.
// BNG_LIB_MT7004) if set, else what set_library_path() gave, else the file
// this build produced (baked in at compile time, for every target of the
// registry). Once the library is loaded: the file loaded, whatever the
// environment says later.
std::string library_path(Target t);
std::string library_env_var(Target t);
// Point the runner at another build of the libraries (bngcert --lib-*): `path`
// as library_file(path, origin) gives it, checked now. Must be called before
// the target's first use; throws std::logic_error afterwards.
void set_library_path(Target t, const std::string& path,
                      const std::string& origin = "set_library_path");

// Address of an exported symbol of the target's library, nullptr if absent.
// Loads the library on first use (throws std::runtime_error with dlerror()).
void* find_symbol(Target t, const char* name);

// Every defined dynamic symbol of the library file (read from its ELF .dynsym),
// sorted: the full exported surface, to hold against spec_exports().
std::vector<std::string> dynamic_symbols(Target t);

// ---- one call ------------------------------------------------------------------

// A kernel's outputs as stored bits (binary16 patterns in the low 16 bits) and
// as the exact values those bits denote.
struct RunResult {
  int status = 0;
  bool clobbered = false;  // run() only: a byte outside dx, dbias, dscale (inputs, gaps) changed
  Outputs values;          // decoded; NaN bits decode to a quiet NaN
  std::vector<std::uint32_t> dx_bits, dbias_bits, dscale_bits;
};

// Where dx lives: its own buffer, or in place on x or dy (SPEC §3's allowed aliases).
enum class InPlace : std::uint8_t { none, dx_is_x, dx_is_dy };

// Run the case through one entry point. Output buffers start filled with a
// NaN sentinel, so an output the kernel forgets to write cannot pass as zero.
// Throws std::invalid_argument if !exists(spec) or the case is malformed for
// its combo, std::runtime_error if the symbol is missing from the library.
RunResult run(const Case& c, const CallSpec& spec, InPlace in_place = InPlace::none);

// ---- raw calls, for the status rules -----------------------------------------

// The eight pointers and three integers of a call, passed to the entry point
// as given (pointer element types follow spec.combo). The flat form narrows
// batch/channel/is_train to int; the params form writes them into a params
// array the runner owns (slots 8..11 filled with garbage, never to be read).
struct RawCall {
  const void* x = nullptr;
  const void* dy = nullptr;
  void* dx = nullptr;
  const void* mean = nullptr;
  const void* invar = nullptr;
  const void* scale = nullptr;
  void* dbias = nullptr;
  void* dscale = nullptr;
  long long batch = 1, channel = 1, is_train = 1;
  enum class Params : std::uint8_t { normal, null, misaligned } params = Params::normal;
};
int invoke(const CallSpec& spec, const RawCall& call);

// The case's inputs laid out in their storage types inside one arena (so
// tests can aim pointers into, across and between the tensors), outputs
// pre-filled with the sentinel. Comparing copies of `arena` before and after
// a refused call proves no byte was written. Offsets are in bytes from arena.data(), every
// tensor aligned to 64 bytes, with a 64-byte gap after each.
struct Buffers {
  std::vector<std::byte> arena;  // over-allocated; base() is 64-byte aligned
  std::size_t x = 0, dy = 0, dx = 0, mean = 0, invar = 0, scale = 0, dbias = 0, dscale = 0;
  std::size_t data_elem = 4, stats_elem = 4;  // bytes per element
  std::int64_t batch = 1, channel = 1;
  int is_train = 1;

  std::byte* base();
  const std::byte* base() const;
  RawCall raw();  // every pointer at its own tensor
};
Buffers lay_out(const Case& c, InPlace in_place = InPlace::none);
RunResult read_outputs(const Buffers& b, Combo combo, int status);

}  // namespace bng::prop
