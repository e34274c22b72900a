// The problem description shared by the reference, the property library and the
// report tool: one call of the operator, its inputs held as exact values.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace bng {

// The type combinations of SPEC §1.
enum class Combo : std::uint8_t {
  fp,  // everything binary32
  hp,  // everything binary16
  mp,  // x, dy, dx binary16; mean, invar, scale, dbias, dscale binary32
};

enum class Format : std::uint8_t { binary16, binary32 };

constexpr Format data_format(Combo c) {
  return c == Combo::fp ? Format::binary32 : Format::binary16;
}
constexpr Format stats_format(Combo c) {
  return c == Combo::hp ? Format::binary16 : Format::binary32;
}
std::string_view combo_name(Combo c);    // "fp", "hp", "mp"
std::string_view format_name(Format f);  // "binary16", "binary32"

// Inputs of one call. Every value is held as a double, which represents every
// binary16 and binary32 value exactly (NaN payloads aside): x and dy must be
// representable in data_format(combo), mean/invar/scale in stats_format(combo).
struct Case {
  Combo combo = Combo::fp;
  std::int64_t batch = 1;
  std::int64_t channel = 1;
  int is_train = 1;
  std::vector<double> x, dy;               // batch*channel each, element (n,c) at n*channel+c
  std::vector<double> mean, invar, scale;  // channel each

  std::int64_t elements() const { return batch * channel; }
};

// Throws std::invalid_argument, naming the offending field (and index and value
// in %a), unless batch, channel >= 1, is_train is 0 or 1, every vector has its
// size and every value is representable in its format (NaN and ±Inf allowed).
void validate(const Case& c);

// Outputs of one call as a kernel produced them (exact values of the stored bits).
struct Outputs {
  std::vector<double> dx;             // batch*channel
  std::vector<double> dbias, dscale;  // channel each
};

}  // namespace bng
