// A small device dump for the tests of what `check` trusts (α, verify,
// signatures): a 6 × 5 call with values exact in binary16, its correctly
// rounded outputs, optionally with three outputs doubled (each beyond any
// bound: the reference values are nonzero and well conditioned).
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "bng/reference/case.hpp"
#include "case_files.hpp"
#include "perfect_outputs.hpp"

namespace bngcert_test {

inline bng::Case small_case(bng::Combo combo) {
  bng::Case c;
  c.combo = combo;
  c.batch = 6;
  c.channel = 5;
  c.is_train = 1;
  for (std::int64_t n = 0; n < c.batch; ++n) {
    for (std::int64_t ch = 0; ch < c.channel; ++ch) {
      c.x.push_back(static_cast<double>((n * 7 + ch * 3) % 11) / 8.0 - 0.5);
      c.dy.push_back(static_cast<double>((n * 5 + ch * 2) % 9) / 16.0 - 0.125);
    }
  }
  for (std::int64_t ch = 0; ch < c.channel; ++ch) {
    c.mean.push_back(0.25 * static_cast<double>(ch % 3));
    c.invar.push_back(0.75 + 0.125 * static_cast<double>(ch));
    c.scale.push_back(ch % 2 ? -1.5 : 0.5);
  }
  return c;
}

enum class Planted { none, three_doubled };

// Writes the dump of small_case(fp) on ft78ne into `dir`; `extra` is merged
// into its params.json.
inline void write_small_dump(const std::filesystem::path& dir, Planted planted,
                             const nlohmann::json& extra = nlohmann::json::object()) {
  const bng::Case c = small_case(bng::Combo::fp);
  bng::Outputs o = perfect(c);
  if (planted == Planted::three_doubled) {
    o.dx[13] *= 2;
    o.dbias[1] *= 2;
    o.dscale[4] *= 2;
  }
  nlohmann::json params = {
      {"batch", c.batch}, {"channel", c.channel}, {"is_train", c.is_train}, {"target", "ft78ne"}};
  params.update(extra);
  bng::cert::write_case_dir(dir, c, o, params);
}

}  // namespace bngcert_test
