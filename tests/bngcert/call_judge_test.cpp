// The judge of one call (judging/call_judge.hpp) fed its dx in chunks of rows
// gives the tally judging the whole call at once gives, every field of it
// (compared as the lossless form shards carry, tally_codec.hpp): counts,
// maxima, histogram, density, metric sums, failures, fault map and the worst
// output with its case; chunks as uneven as a caller may make them, and as
// the reference hands them over (ref::RowsReady).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "bng/properties/target.hpp"
#include "bng/reference/reference.hpp"
#include "bng/reference/rounding.hpp"
#include "call_judge.hpp"
#include "tally_codec.hpp"

namespace bng::cert {
namespace {

Case normal_case(Combo combo, int is_train, std::int64_t batch, std::int64_t channel) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  const Format df = data_format(combo), sf = stats_format(combo);
  Case c;
  c.combo = combo;
  c.is_train = is_train;
  c.batch = batch;
  c.channel = channel;
  for (std::int64_t i = 0; i < c.elements(); ++i) {
    c.x.push_back(ref::round_to(df, 0.5 + 2 * normal(rng)));
    c.dy.push_back(ref::round_to(df, 1e-2 * normal(rng)));
  }
  for (std::int64_t ch = 0; ch < channel; ++ch) {
    c.mean.push_back(ref::round_to(sf, 0.5 + 0.1 * normal(rng)));
    c.invar.push_back(ref::round_to(sf, 0.5));
    c.scale.push_back(ref::round_to(sf, 1 + 0.2 * normal(rng)));
  }
  return c;
}

// RN(y*) everywhere but for some outputs a few ulps off (failures, and a
// worst output that is not the first), a NaN and an infinity.
Outputs outputs_with_faults(const ref::Result& r) {
  Outputs got;
  for (std::size_t i = 0; i < r.dx.size(); ++i) {
    double y = r.dx[i].rounded;
    if (i % 97 == 5) y += static_cast<double>(i % 5) * r.dx[i].ulp;
    if (i == 1234) y = NAN;
    if (i == 2345) y = INFINITY;
    got.dx.push_back(y);
  }
  for (const auto& e : r.dbias) got.dbias.push_back(e.rounded);
  for (const auto& e : r.dscale) got.dscale.push_back(e.rounded + e.ulp);
  return got;
}

KernelTally empty_tally(Combo combo) {
  KernelTally t;
  t.kernel.target = prop::target("mt7004");
  t.kernel.combo = combo;
  t.kernel.alpha = 0x1p-40;
  t.keep_failing = true;
  return t;
}

TEST(CallJudge, ChunkedAsWhole) {
  Origin origin;
  origin.family = "input";
  for (Combo combo : {Combo::fp, Combo::hp}) {
    for (int train = 0; train <= 1; ++train) {
      const Case c = normal_case(combo, train, 3001, 5);
      const ref::Result r = ref::compute(c);
      const Outputs got = outputs_with_faults(r);

      KernelTally whole = empty_tally(combo);
      judge(c, r, got, origin, 7, true, whole);
      ASSERT_GT(whole[Output::dx].all.fails, 0);
      ASSERT_GT(whole[Output::dscale].all.fails, 0);

      KernelTally uneven = empty_tally(combo);
      CallJudge j(c, got, origin, 7, true, uneven);
      for (auto [n0, n1] : {std::pair{0, 1}, {1, 2}, {2, 700}, {700, 2999}, {2999, 3001}}) {
        j.dx_rows(r, n0, n1);
      }
      j.finish(r);

      KernelTally fused = empty_tally(combo);
      ref::Result r2;
      CallJudge k(c, got, origin, 7, true, fused);
      int chunks = 0;
      ref::compute(c, ref::Path::tiered, r2, [&](std::int64_t n0, std::int64_t n1) {
        ++chunks;
        k.dx_rows(r2, n0, n1);
      });
      k.finish(r2);
      EXPECT_GT(chunks, 1);

      const nlohmann::json want = tallies_to_json({whole});
      EXPECT_EQ(tallies_to_json({uneven}), want) << combo_name(combo) << " " << train;
      EXPECT_EQ(tallies_to_json({fused}), want) << combo_name(combo) << " " << train;
      EXPECT_EQ(uneven[Output::dx].failing, whole[Output::dx].failing);
      EXPECT_EQ(fused[Output::dx].failing, whole[Output::dx].failing);
    }
  }
}

}  // namespace
}  // namespace bng::cert
