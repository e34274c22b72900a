// Failure-message helpers: values as bit patterns in hex and as %a.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "bng/reference/case.hpp"
#include "bng/reference/reference.hpp"
#include "bng/reference/rounding.hpp"

namespace bng::test {

// "0x3c00 (0x1p+0)" for a binary16 value, "0x3f800000 (0x1p+0)" for binary32.
inline std::string show(double v, Format f) {
  char buf[96];
  if (f == Format::binary16 && (std::isnan(v) || ref::representable(v, f))) {
    std::snprintf(buf, sizeof buf, "0x%04x (%a)", ref::double_to_half_bits(v), v);
  } else if (f == Format::binary32 && (std::isnan(v) || ref::representable(v, f))) {
    std::snprintf(buf, sizeof buf, "0x%08x (%a)", ref::double_to_float_bits(v), v);
  } else {
    std::snprintf(buf, sizeof buf, "(%a, not in %s)", v, std::string(format_name(f)).c_str());
  }
  return buf;
}

// Any double (an exact input that need not fit a format): bits and %a.
inline std::string show_double(double v) {
  char buf[96];
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  std::snprintf(buf, sizeof buf, "0x%016llx (%a)", static_cast<unsigned long long>(bits), v);
  return buf;
}

inline std::string show_long(long double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%La", v);
  return buf;
}

inline std::string show(const ref::Expected& e, Format f) {
  const char* kind = e.kind == ref::Kind::finite ? "finite"
                     : e.kind == ref::Kind::nan  ? "nan"
                                                 : "nonfinite";
  return std::string(kind) + " rounded=" + show(e.rounded, f) + " exact=" + show_long(e.exact) +
         " M=" + show_long(e.magnitude) + " ulp=" + show(e.ulp, Format::binary32);
}

// Bit-identical: same kind, same rounded bits (NaN equals NaN), same exact, M, ulp.
inline bool same(const ref::Expected& a, const ref::Expected& b) {
  const bool rounded_same =
      (std::isnan(a.rounded) && std::isnan(b.rounded)) || a.rounded == b.rounded;
  return a.kind == b.kind && rounded_same && a.exact == b.exact && a.magnitude == b.magnitude &&
         a.ulp == b.ulp;
}

}  // namespace bng::test
