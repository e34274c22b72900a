// A call's buffers laid out in one canary-filled arena, so that a test can
// move any pointer (onto another buffer, off alignment, to null) and then
// prove, by comparing the whole arena byte for byte, that a rejected call
// wrote nothing at all.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "entry_points.hpp"

namespace bng::test {

enum class Buf { x, dy, dx, mean, invar, scale, dbias, dscale, params };
inline constexpr std::size_t kBufCount = 9;
inline constexpr std::array<Buf, 3> kOutputs = {Buf::dx, Buf::dbias, Buf::dscale};
const char* name(Buf b);
bool is_output(Buf b);

// Bytes of the params array the library may read (slots 0..7); 8..11 reserved.
inline constexpr std::size_t kParamsBytesRead = 8 * sizeof(long long);

class Scene {
 public:
  // The nominal shape the buffers are sized for; every buffer sits at the
  // start of its own region, with room behind it for moved pointers.
  explicit Scene(const EntryPoint& entry, long long batch = 4, long long channel = 5);

  // Current address of each buffer (tests move them; any value is allowed).
  std::uintptr_t& at(Buf b) { return at_[static_cast<std::size_t>(b)]; }
  std::uintptr_t home(Buf b) const;       // where the buffer starts in the arena
  std::size_t bytes(Buf b) const;         // its length at the nominal shape
  std::size_t element_size(Buf b) const;  // its alignment

  long long batch;
  long long channel;
  long long is_train = 1;
  int core_mask = 0xff;

  // Fills params slots 0..7 (if `at(Buf::params)` lies in the arena) and
  // returns the call. Slots 8..11 keep their canary bytes.
  Call prepare();
  int invoke() { return entry_.invoke(prepare()); }

  std::vector<unsigned char> snapshot() const;
  // The first byte where `before` and the arena now differ, described with its
  // region and values ("" when identical).
  std::string first_difference(const std::vector<unsigned char>& before) const;
  std::string describe() const;

 private:
  const EntryPoint& entry_;
  std::size_t nominal_elements_;
  std::size_t nominal_channel_;
  std::size_t region_;
  std::unique_ptr<unsigned char[]> storage_;
  unsigned char* arena_;
  std::size_t arena_bytes_;
  std::array<std::uintptr_t, kBufCount> at_{};
};

}  // namespace bng::test
