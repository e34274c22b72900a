// A double's binade and significand from its bits. std::ilogb and
// std::scalbn are calls into libm with their special cases (5 % of `bngcert
// check`, which asks for a binade several times an output); these give the
// same results inline for normal values and leave subnormals to libm.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace bng::ref {

// floor(log2 |v|) for a finite non-zero v: std::ilogb(v).
inline int binade(double v) {
  const auto biased = static_cast<int>((std::bit_cast<std::uint64_t>(v) >> 52) & 0x7ff);
  return biased != 0 ? biased - 1023 : std::ilogb(v);
}

// |v| / 2^binade(v), in [1, 2), for a finite non-zero v: std::scalbn(|v|, -ilogb(v)).
inline double significand(double v) {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  if ((bits >> 52 & 0x7ff) == 0) return std::scalbn(std::fabs(v), -std::ilogb(v));
  constexpr std::uint64_t kFraction = (std::uint64_t{1} << 52) - 1;
  return std::bit_cast<double>((bits & kFraction) | std::bit_cast<std::uint64_t>(1.0));
}

}  // namespace bng::ref
