// hex_value and hex_bits (bng/properties/reproducer.hpp): how every message and
// report of the project prints a value. A translation unit of its own, so that
// what only prints values (bngcert's judge, the Python core) links without
// RapidCheck, whose Debian build is not position-independent.
#include <bit>
#include <cinttypes>
#include <cstdio>

#include "bng/properties/reproducer.hpp"
#include "bng/reference/rounding.hpp"

namespace bng::prop {

namespace {

std::uint32_t bits_of(double v, Format f) {
  if (f == Format::binary32) return std::bit_cast<std::uint32_t>(static_cast<float>(v));
  return ref::double_to_half_bits(v);
}

}  // namespace

std::string hex_bits(std::uint32_t bits, Format f) {
  char buf[64];
  if (f == Format::binary32) {
    std::snprintf(buf, sizeof buf, "0x%08" PRIx32 " (%a)", bits,
                  static_cast<double>(std::bit_cast<float>(bits)));
  } else {
    std::snprintf(buf, sizeof buf, "0x%04" PRIx32 " (%a)", bits,
                  ref::half_bits_to_double(static_cast<std::uint16_t>(bits)));
  }
  return buf;
}

std::string hex_value(double v, Format f) {
  return hex_bits(bits_of(v, f), f);
}

}  // namespace bng::prop
