// Names and validation of a Case.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "bng/reference/case.hpp"
#include "bng/reference/rounding.hpp"

namespace bng {
namespace {

// Whether every value of v[0, n) is a binary32 value or NaN: representable()'s
// binary32 test without a branch or a call per value, so that it vectorises
// (the reference validates every case it is given, and `bngcert check` gives
// it whole dumps). gcc vectorises the double -> float -> double round trip
// only with AVX2, so x86 CPUs with it run a copy compiled for it (the same
// exact conversions and comparisons: the same answer).
[[gnu::always_inline]] inline bool all_binary32_in(const double* v, std::size_t n) {
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = v[i];
    bad |= static_cast<std::uint64_t>(static_cast<double>(static_cast<float>(d)) != d) &
           static_cast<std::uint64_t>(d == d);
  }
  return bad == 0;
}

#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::flatten, gnu::target("avx2")]] bool all_binary32_avx2(const double* v, std::size_t n) {
  return all_binary32_in(v, n);
}
#endif

bool all_binary32(const std::vector<double>& v) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return all_binary32_avx2(v.data(), v.size());
#endif
  return all_binary32_in(v.data(), v.size());
}

void check_values(const std::vector<double>& v, const char* name, Format f) {
  if (f == Format::binary32 && all_binary32(v)) return;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!ref::representable(v[i], f)) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "Case: %s[%zu] = %a is not representable in %s", name, i, v[i],
                    std::string(format_name(f)).c_str());
      throw std::invalid_argument(buf);
    }
  }
}

void check_size(const std::vector<double>& v, const char* name, std::int64_t want) {
  if (static_cast<std::int64_t>(v.size()) != want) {
    throw std::invalid_argument("Case: " + std::string(name) + " has " + std::to_string(v.size()) +
                                " elements, expected " + std::to_string(want));
  }
}

}  // namespace

std::string_view combo_name(Combo c) {
  switch (c) {
    case Combo::fp:
      return "fp";
    case Combo::hp:
      return "hp";
    case Combo::mp:
      return "mp";
  }
  return "?";
}

std::string_view format_name(Format f) {
  return f == Format::binary16 ? "binary16" : "binary32";
}

void validate(const Case& c) {
  if (c.combo != Combo::fp && c.combo != Combo::hp && c.combo != Combo::mp) {
    throw std::invalid_argument("Case: unknown combo");
  }
  if (c.batch < 1 || c.channel < 1) {
    throw std::invalid_argument("Case: batch " + std::to_string(c.batch) + " and channel " +
                                std::to_string(c.channel) + " must both be >= 1");
  }
  if (c.channel > std::numeric_limits<std::int64_t>::max() / c.batch) {
    throw std::invalid_argument("Case: batch * channel overflows");
  }
  if (c.is_train != 0 && c.is_train != 1) {
    throw std::invalid_argument("Case: is_train " + std::to_string(c.is_train) + " must be 0 or 1");
  }
  check_size(c.x, "x", c.elements());
  check_size(c.dy, "dy", c.elements());
  check_size(c.mean, "mean", c.channel);
  check_size(c.invar, "invar", c.channel);
  check_size(c.scale, "scale", c.channel);
  check_values(c.x, "x", data_format(c.combo));
  check_values(c.dy, "dy", data_format(c.combo));
  check_values(c.mean, "mean", stats_format(c.combo));
  check_values(c.invar, "invar", stats_format(c.combo));
  check_values(c.scale, "scale", stats_format(c.combo));
}

}  // namespace bng
