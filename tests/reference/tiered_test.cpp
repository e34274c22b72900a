// The tiered path against the exact path, bit for bit on every field of every
// output (issue 40): any disagreement is a bug in the tiered path. Cases come
// from every property family, every type combination, training and inference,
// and from constructions aimed at the rounding test: exact ties and values one
// unit beside them, subnormal results, overflow edges, batch 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bng/properties/families.hpp"
#include "bng/reference/reference.hpp"
#include "bng/reference/rounding.hpp"
#include "case_gen.hpp"
#include "show.hpp"

namespace bng::ref {
namespace {

// Compares every output; returns the tiered path's fallback count.
std::int64_t expect_same_as_exact(const Case& c, const std::string& what) {
  const Result tiered = compute(c, Path::tiered);
  const Result exact = compute(c, Path::exact);
  EXPECT_EQ(exact.exact_fallbacks, 0);
  const Format fd = data_format(c.combo), fs = stats_format(c.combo);
  for (std::size_t i = 0; i < exact.dx.size(); ++i) {
    if (!test::same(tiered.dx[i], exact.dx[i])) {
      ADD_FAILURE() << what << " dx[" << i << "]: tiered " << test::show(tiered.dx[i], fd)
                    << "\n  exact " << test::show(exact.dx[i], fd);
      return tiered.exact_fallbacks;
    }
  }
  for (std::size_t i = 0; i < exact.dbias.size(); ++i) {
    if (!test::same(tiered.dbias[i], exact.dbias[i]) ||
        !test::same(tiered.dscale[i], exact.dscale[i])) {
      ADD_FAILURE() << what << " channel " << i << ": dbias tiered "
                    << test::show(tiered.dbias[i], fs) << " exact "
                    << test::show(exact.dbias[i], fs) << "\n  dscale tiered "
                    << test::show(tiered.dscale[i], fs) << " exact "
                    << test::show(exact.dscale[i], fs);
      return tiered.exact_fallbacks;
    }
  }
  return tiered.exact_fallbacks;
}

Case with_train(Case c, int is_train) {
  c.is_train = is_train;
  return c;
}

constexpr Combo kCombos[] = {Combo::fp, Combo::hp, Combo::mp};

// Every family, combination and mode, at several sizes; prints the fallback
// rate per family (the figures of docs/reference.md §6).
TEST(TieredReference, SameAsExactOnEveryFamily) {
  for (const prop::Family& f : prop::families()) {
    std::int64_t outputs = 0, fallbacks = 0;
    for (Combo combo : kCombos) {
      const int seeds = f.large ? 1 : 12;
      for (int seed = 0; seed < seeds; ++seed) {
        const int size = f.large ? 10 : 5 + seed * 8;
        const Case base = prop::sample(f, combo, 1000 + static_cast<std::uint64_t>(seed), size);
        for (int train = 0; train <= 1; ++train) {
          const Case c = with_train(base, train);
          const std::string what = std::string(f.name) + " " + std::string(combo_name(combo)) +
                                   " seed " + std::to_string(seed) +
                                   (train ? " training" : " inference");
          fallbacks += expect_same_as_exact(c, what);
          outputs += c.elements() + 2 * c.channel;
          if (HasFailure()) return;
        }
      }
    }
    std::printf("family %-18s %9lld outputs, %7lld exact fallbacks (%.3f%%)\n",
                std::string(f.name).c_str(), static_cast<long long>(outputs),
                static_cast<long long>(fallbacks),
                100.0 * static_cast<double>(fallbacks) / static_cast<double>(outputs));
  }
}

// Channel j of c alone: a column, whose rows the lanes take four at a time
// (bngcert judges a tall dump in columns).
Case column_of(const Case& c, std::int64_t j) {
  Case col = c;
  col.channel = 1;
  col.x.clear();
  col.dy.clear();
  for (std::int64_t n = 0; n < c.batch; ++n) {
    col.x.push_back(c.x[static_cast<std::size_t>(n * c.channel + j)]);
    col.dy.push_back(c.dy[static_cast<std::size_t>(n * c.channel + j)]);
  }
  const auto ju = static_cast<std::size_t>(j);
  col.mean = {c.mean[ju]};
  col.invar = {c.invar[ju]};
  col.scale = {c.scale[ju]};
  return col;
}

// Every family's columns, every combination and mode, batches of every
// remainder modulo the lane count.
TEST(TieredReference, SameAsExactOnColumns) {
  for (const prop::Family& f : prop::families()) {
    if (f.large) continue;
    for (Combo combo : kCombos) {
      for (int seed = 0; seed < 4; ++seed) {
        const Case base =
            prop::sample(f, combo, 2000 + static_cast<std::uint64_t>(seed), 9 + seed * 7);
        for (std::int64_t j = 0; j < std::min<std::int64_t>(base.channel, 3); ++j) {
          for (int train = 0; train <= 1; ++train) {
            const Case c = with_train(column_of(base, j), train);
            expect_same_as_exact(c, std::string(f.name) + " " + std::string(combo_name(combo)) +
                                        " seed " + std::to_string(seed) + " column " +
                                        std::to_string(j) + (train ? " training" : " inference"));
            if (HasFailure()) return;
          }
        }
      }
    }
  }
}

// The reference's own random cases (every bit pattern, NaN/Inf planted).
TEST(TieredReference, SameAsExactOnRandomBitPatterns) {
  for (int i = 0; i < 300; ++i) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(i) * 7919 + 1);
    const Case c = test::random_case(rng, kCombos[i % 3], i % 2, i % 5 == 0);
    expect_same_as_exact(c, "random case " + std::to_string(i));
    if (HasFailure()) return;
  }
}

// Inference dx = scale*invar*dy at exact midpoints of the output format and
// next to them: dy odd with p bits times scale = 1.5 (or 1.5 plus a few low
// bits) has p + 1 bits, a tie when the last is set. One channel per binade of
// the result, from below the subnormal range to past the overflow threshold.
TEST(TieredReference, SameAsExactAtMidpoints) {
  for (Combo combo : kCombos) {
    const Format fd = data_format(combo), fs = stats_format(combo);
    const FormatTraits td = traits(fd), ts = traits(fs);
    Case c;
    c.combo = combo;
    c.is_train = 0;
    c.batch = 8;
    std::vector<int> binades;
    for (int e = td.emin - td.precision - 1; e <= td.emax + 2; ++e) {
      const int ei = e / 2, es = e - e / 2;  // invar = 2^ei, scale = 1.5 * 2^es
      if (ei < ts.emin || ei > ts.emax || es < ts.emin || es + 1 > ts.emax) continue;
      binades.push_back(e);
    }
    c.channel = static_cast<std::int64_t>(binades.size());
    std::mt19937_64 rng(5);
    for (int n = 0; n < c.batch; ++n) {
      for (std::size_t j = 0; j < binades.size(); ++j) {
        const auto odd = static_cast<double>((rng() >> (64 - td.precision)) | 1);
        c.dy.push_back(std::ldexp(odd, -td.precision) * (n % 2 ? -1 : 1));
        c.x.push_back(0);
      }
    }
    for (std::size_t j = 0; j < binades.size(); ++j) {
      const int e = binades[j];
      c.mean.push_back(0);
      c.invar.push_back(std::ldexp(1.0, e / 2));
      const double low_bits = j % 3 == 0 ? 0 : std::ldexp(1.0, 2 - ts.precision);
      c.scale.push_back(std::ldexp(1.5 + low_bits, e - e / 2));
    }
    expect_same_as_exact(c, std::string(combo_name(combo)) + " midpoints");
    if (HasFailure()) return;
  }
}

// Batch 1: training dx = -scale*invar^3*dy*(x-mean)^2, exact zero at x == mean.
TEST(TieredReference, SameAsExactAtBatchOne) {
  for (Combo combo : kCombos) {
    for (int i = 0; i < 200; ++i) {
      std::mt19937_64 rng(static_cast<std::uint64_t>(i) + 99);
      Case c = test::random_case(rng, combo, 1, false);
      c.batch = 1;
      c.x.resize(static_cast<std::size_t>(c.channel));
      c.dy.resize(static_cast<std::size_t>(c.channel));
      if (i % 4 == 0) c.mean = c.x;  // x == mean: exactly zero dx
      expect_same_as_exact(c,
                           std::string(combo_name(combo)) + " batch 1 case " + std::to_string(i));
      if (HasFailure()) return;
    }
  }
}

// The dx loop's variant is the one the environment asks for: CTest runs this
// suite as it comes (the AVX2 lanes where the processor has them), with
// BNG_REFERENCE_LANES=off (the scalar FMA loop) and with BNG_REFERENCE_FMA=off
// (the portable loop), and each must match the exact path above.
TEST(TieredReference, LoopVariantAsTheEnvironmentSays) {
  const auto off = [](const char* name) {
    const char* setting = std::getenv(name);
    return setting && std::string(setting) == "off";
  };
#if defined(__x86_64__) && defined(__GNUC__)
  EXPECT_EQ(tiered_uses_fma(), !off("BNG_REFERENCE_FMA") && __builtin_cpu_supports("fma"));
  EXPECT_EQ(tiered_uses_lanes(), !off("BNG_REFERENCE_FMA") && !off("BNG_REFERENCE_LANES") &&
                                     __builtin_cpu_supports("avx2") &&
                                     __builtin_cpu_supports("fma"));
#else
  EXPECT_FALSE(tiered_uses_fma());
  EXPECT_FALSE(tiered_uses_lanes());
#endif
  std::printf("tiered dx loop: %s%s\n", tiered_uses_fma() ? "FMA variant" : "portable",
              tiered_uses_lanes() ? " with AVX2 lanes" : "");
}

// compute(c, path, r) into a Result that held another case's outputs (larger,
// then smaller, with garbage in every field) gives what compute(c, path)
// gives: every entry is overwritten, exact_fallbacks included. Random bit
// patterns plant NaN and ±Inf, so the exact path's channels are reused too.
TEST(TieredReference, ReusedResultIsOverwritten) {
  Expected garbage;
  garbage.rounded = 12345;
  garbage.exact = -6789;
  garbage.magnitude = 42;
  garbage.ulp = 3;
  garbage.kind = Kind::nan;
  for (Path path : {Path::tiered, Path::exact}) {
    Result r;
    for (int i = 0; i < 60; ++i) {
      std::mt19937_64 rng(static_cast<std::uint64_t>(i) * 31 + 7);
      const Case c = test::random_case(rng, kCombos[i % 3], i % 2, i % 3 == 0);
      std::fill(r.dx.begin(), r.dx.end(), garbage);
      std::fill(r.dbias.begin(), r.dbias.end(), garbage);
      std::fill(r.dscale.begin(), r.dscale.end(), garbage);
      r.exact_fallbacks = 99;
      compute(c, path, r);
      const Result fresh = compute(c, path);
      ASSERT_EQ(r.dx.size(), fresh.dx.size());
      ASSERT_EQ(r.dbias.size(), fresh.dbias.size());
      EXPECT_EQ(r.exact_fallbacks, fresh.exact_fallbacks) << "case " << i;
      for (std::size_t k = 0; k < fresh.dx.size(); ++k) {
        ASSERT_TRUE(test::same(r.dx[k], fresh.dx[k]))
            << path_name(path) << " case " << i << " dx[" << k << "]";
      }
      for (std::size_t k = 0; k < fresh.dbias.size(); ++k) {
        ASSERT_TRUE(test::same(r.dbias[k], fresh.dbias[k]) &&
                    test::same(r.dscale[k], fresh.dscale[k]))
            << path_name(path) << " case " << i << " channel " << k;
      }
    }
  }
}

}  // namespace
}  // namespace bng::ref
