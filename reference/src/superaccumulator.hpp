// Exact sums of binary64 values in fixed point (a "superaccumulator", after
// Neal's xsum): the sum is held as sum_i limb[i] * 2^(32 i + base) with int64
// limbs, each term is split into three 32-bit digits added to three adjacent
// limbs, and carries are propagated only every kCarryInterval terms. No term is
// rounded, so the sum is exact; converting it to a BigInt is done once per
// channel, not per element.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "bng/reference/exact.hpp"

namespace bng::ref {

// A finite binary64 magnitude split at 32-bit boundaries for a given base
// exponent: |v| = (d0 + d1 * 2^32 + d2 * 2^64) * 2^(32 * limb + base).
struct Digits {
  int limb = 0;
  std::int64_t d0 = 0, d1 = 0, d2 = 0;
  bool negative = false;
};

// v must be finite, non-zero and a multiple of 2^(base + 52) (so that its
// significand, with trailing zeros, sits at or above the base), and its
// exponent within the accumulator's range.
inline Digits digits_of(double v, int base) {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t mant = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  const int shift = biased - 1075 - base;  // v = mant * 2^(shift + base)
  const UInt128 w = static_cast<UInt128>(mant) << (shift & 31);
  Digits d;
  d.limb = shift >> 5;
  d.d0 = static_cast<std::int64_t>(static_cast<std::uint64_t>(w) & 0xffffffffu);
  d.d1 = static_cast<std::int64_t>(static_cast<std::uint64_t>(w >> 32) & 0xffffffffu);
  d.d2 = static_cast<std::int64_t>(static_cast<std::uint64_t>(w >> 64));
  d.negative = (bits >> 63) != 0;
  return d;
}

// Every add changes a limb by less than 2^32, so 2^30 adds between carry
// propagations keep each int64 limb below 2^62 in magnitude.
inline constexpr std::int64_t kCarryInterval = std::int64_t{1} << 30;

template <int L>
class Superaccumulator {
 public:
  // sum += |d|.
  void add(const Digits& d) {
    limb_[static_cast<std::size_t>(d.limb)] += d.d0;
    limb_[static_cast<std::size_t>(d.limb) + 1] += d.d1;
    limb_[static_cast<std::size_t>(d.limb) + 2] += d.d2;
  }

  // sum += sign * o, limb by limb, sign in {-1, 1}: for sums kept apart by
  // sign (each limb of both within 2^62, which a few such adds keep in int64).
  void add(const Superaccumulator& o, std::int64_t sign) {
    for (std::size_t i = 0; i < L; ++i) limb_[i] += sign * o.limb_[i];
  }

  // Brings every limb but the top one to [0, 2^32); the value is unchanged.
  void propagate_carries() {
    for (int i = 0; i + 1 < L; ++i) {
      const std::int64_t carry = limb_[static_cast<std::size_t>(i)] >> 32;  // floor division
      limb_[static_cast<std::size_t>(i)] -= carry * (std::int64_t{1} << 32);
      limb_[static_cast<std::size_t>(i) + 1] += carry;
    }
  }

  // The sum as an integer at 2^base.
  BigInt to_bigint() {
    propagate_carries();
    BigInt r = limb_[L - 1];
    for (int i = L - 2; i >= 0; --i) {
      r <<= 32;
      r += limb_[static_cast<std::size_t>(i)];
    }
    return r;
  }

 private:
  std::array<std::int64_t, L> limb_{};
};

}  // namespace bng::ref
