// SPEC §4 per target and type combination: bit-identical results across
// masks, _s/_p, forms and repeat calls; channel isolation; exact power-of-two
// scaling; in-place forms; NaN outputs stored as the canonical NaN.

#include <cmath>

#include "support.hpp"

namespace bng::prop::test {
namespace {

void reproducible(Target t, Combo combo) {
  const NamedCase nc = *any_family(combo);
  classify(nc.family, nc.c);
  // Base: the caller's core alone. Others: every entry point with two random
  // masks and all eight cores, so partitions of every width are compared.
  const CallSpec base{t, combo, Storage::private_, Form::params, 0};
  std::vector<CallSpec> others;
  for (unsigned mask : {*gen::valid_mask(), *gen::valid_mask(), kAllCores}) {
    for (const CallSpec& s : entry_points(t, combo, mask)) others.push_back(s);
  }
  BNG_RC_CHECK(check_reproducible(nc.c, base, others));
}

// One instance per kernel of the registry, e.g. Reproducible.holds/mt7004_hp; the
// suites below likewise.
class Reproducible : public ::testing::TestWithParam<Kernel> {};

TEST_P(Reproducible, holds) {
  const Kernel k = GetParam();
  check_property([k] { reproducible(k.target, k.combo); });
}

INSTANTIATE_TEST_SUITE_P(, Reproducible, ::testing::ValuesIn(every_kernel()), InstanceName());

// Large cases (several reduction blocks and bands): the reduction order must
// not follow the mask. Loop-based, as a RapidCheck count of such cases would
// dominate the suite; each iteration is a fresh deterministic sample.
void reproducible_large(Target t, Combo combo) {
  const int n = iterations(6);
  for (int i = 0; i < n; ++i) {
    const auto seed = static_cast<std::uint64_t>(1000 * static_cast<int>(combo) + i);
    const Case c = sample(*find_family("large_cancel"), combo, seed, 100);
    const CallSpec base{t, combo, Storage::private_, Form::params, 0};
    std::vector<CallSpec> others;
    for (unsigned mask : {0x1u, 0x7u, 0x3Cu, kAllCores})
      others.push_back({t, combo, Storage::shared, Form::params, mask});
    const std::string why = check_reproducible(c, base, others);
    ASSERT_EQ(why, "") << "large_cancel sample seed " << seed << " size 100";
  }
}

class ReproducibleLarge : public ::testing::TestWithParam<Kernel> {};

TEST_P(ReproducibleLarge, holds) {
  const Kernel k = GetParam();
  reproducible_large(k.target, k.combo);
}

INSTANTIATE_TEST_SUITE_P(, ReproducibleLarge, ::testing::ValuesIn(every_kernel()), InstanceName());

// Every one of the 255 valid masks on one small case (the random masks above
// sample them; this enumerates them).
void every_mask(Target t, Combo combo) {
  const Case c = *rc::gen::resize(8, find_family("ordinary")->gen(combo));
  const CallSpec base{t, combo, Storage::private_, Form::params, 0};
  std::vector<CallSpec> others;
  for (unsigned mask = 1; mask <= kAllCores; ++mask)
    others.push_back({t, combo, Storage::shared, Form::params, mask});
  BNG_RC_CHECK(check_reproducible(c, base, others));
}

class EveryMask : public ::testing::TestWithParam<Kernel> {};

TEST_P(EveryMask, holds) {
  const Kernel k = GetParam();
  check_property([k] { every_mask(k.target, k.combo); });
}

INSTANTIATE_TEST_SUITE_P(, EveryMask, ::testing::ValuesIn(every_kernel()), InstanceName());

void forms(Target t, Combo combo) {
  const NamedCase nc = *any_family(combo);
  classify(nc.family, nc.c);
  CallSpec spec = *gen::call_spec(t, combo);
  BNG_RC_CHECK(check_forms_identical(nc.c, spec));
}

// mp has the params form only: nothing to compare.
class FormsIdentical : public ::testing::TestWithParam<Kernel> {};

TEST_P(FormsIdentical, holds) {
  const Kernel k = GetParam();
  check_property([k] { forms(k.target, k.combo); });
}

INSTANTIATE_TEST_SUITE_P(, FormsIdentical, ::testing::ValuesIn(every_kernel_with_flat_form()),
                         InstanceName());

void isolation(Target t, Combo combo) {
  const NamedCase nc = *any_family(combo);
  RC_PRE(nc.c.channel >= 2);
  classify(nc.family, nc.c);
  const auto col = *gen::pick<std::int64_t>(0, nc.c.channel - 1, 0);
  // The poisoned column: NaN/Inf or any finite values in any of its inputs.
  const Format df = data_format(combo), sf = stats_format(combo);
  auto poison = [](Format f) {
    return gen::choose<double>({{1, gen::non_finite()}, {1, gen::any_finite(f)}});
  };
  Case p = nc.c;
  const auto ch = static_cast<std::size_t>(p.channel), k = static_cast<std::size_t>(col);
  for (std::int64_t n = 0; n < p.batch; ++n) {
    const std::size_t i = static_cast<std::size_t>(n) * ch + k;
    if (*gen::pick<int>(0, 3, 0) == 0) p.x[i] = *poison(df);
    if (*gen::pick<int>(0, 3, 0) == 0) p.dy[i] = *poison(df);
  }
  p.mean[k] = *poison(sf);
  p.invar[k] = *poison(sf);
  p.scale[k] = *poison(sf);
  BNG_RC_CHECK(check_channel_isolation(nc.c, *gen::call_spec(t, combo), col, p));
}

class ChannelIsolation : public ::testing::TestWithParam<Kernel> {};

TEST_P(ChannelIsolation, holds) {
  const Kernel k = GetParam();
  check_property([k] { isolation(k.target, k.combo); });
}

INSTANTIATE_TEST_SUITE_P(, ChannelIsolation, ::testing::ValuesIn(every_kernel()), InstanceName());

void scaling(Target t, Combo combo) {
  // Ordinary values keep every product far from overflow and underflow;
  // scaling_applies() still checks, and the few cases it rejects are discarded.
  const Case c =
      *find_family(*gen::pick_of<std::string_view>({"ordinary", "integers"}))->gen(combo);
  const int k = *rc::gen::suchThat(gen::pick<int>(-8, 8, 1), [](int v) { return v != 0; });
  RC_PRE(scaling_applies(c, k));
  RC_CLASSIFY(k > 0, "k > 0");
  RC_CLASSIFY(k < 0, "k < 0");
  BNG_RC_CHECK(check_pow2_scaling(c, *gen::call_spec(t, combo), k));
}

class Pow2Scaling : public ::testing::TestWithParam<Kernel> {};

TEST_P(Pow2Scaling, holds) {
  const Kernel k = GetParam();
  check_property([k] { scaling(k.target, k.combo); });
}

INSTANTIATE_TEST_SUITE_P(, Pow2Scaling, ::testing::ValuesIn(every_kernel()), InstanceName());

void in_place(Target t, Combo combo) {
  const NamedCase nc = *any_family(combo);
  classify(nc.family, nc.c);
  const CallSpec spec = *gen::call_spec(t, combo);
  BNG_RC_CHECK(check_in_place(nc.c, spec, InPlace::dx_is_x));
  BNG_RC_CHECK(check_in_place(nc.c, spec, InPlace::dx_is_dy));
  // Which NaN the arithmetic yields depends on operand order: only the
  // canonical NaN keeps in-place and out-of-place bits equal in every build.
  BNG_RC_CHECK(check_canonical_nans(nc.c, spec));
}

class InPlace : public ::testing::TestWithParam<Kernel> {};

TEST_P(InPlace, holds) {
  const Kernel k = GetParam();
  check_property([k] { in_place(k.target, k.combo); });
}

INSTANTIATE_TEST_SUITE_P(, InPlace, ::testing::ValuesIn(every_kernel()), InstanceName());

}  // namespace
}  // namespace bng::prop::test
