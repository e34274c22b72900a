// The kernels' output bits over a fixed corpus, as one FNV-1a hash per combo:
// a refactoring of the kernel layer must leave them unchanged. Every shape
// class (tiny, channels not a multiple of any vector length, tall-narrow
// (folded), wide (column parts, pooled combination), training tiles), every
// hard case, both modes, _p and _s with masks 0x1, 0x3 and 0xff, and both
// in-place forms. Registered per ISA path: every path must give the recorded
// hash. A change that is meant to change output bits records the new hashes
// (printed on failure) in kRecorded, and says why in its commit.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bng/optimized/isa.hpp"
#include "case_builders.hpp"
#include "kernel_runner.hpp"

namespace bng::ktest {
namespace {

struct Fnv1a {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void add(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  }
  void add(std::uint64_t v) { add(&v, sizeof v); }
  void add(const std::vector<std::uint8_t>& v) {
    add(v.size());
    add(v.data(), v.size());
  }
};

struct Shape {
  std::int64_t batch, channel;
  bool every_kind;  // all hard cases (else the random one, specials planted)
};
// Tiny; tails after whole vectors (37, 33, 300, 1030 channels); tall-narrow
// (folded, several row bands, a partial last wide row); wide (column parts,
// pooled combination from 512 channels on).
constexpr Shape kShapes[] = {
    {1, 1, true},     {3, 5, true},      {7, 17, true},     {5, 37, true},     {300, 37, true},
    {257, 33, true},  {1000, 9, true},   {4097, 3, true},   {20001, 3, false}, {257, 300, true},
    {64, 1030, true}, {129, 640, false}, {40000, 4, false}, {16, 5000, false},
};
// Training tiles (tile_for_training): at least 16 MiB of x, short enough
// columns. Random data only (large).
constexpr std::int64_t kTiledBatch = 256;
constexpr std::int64_t kTiledElements =
    8 * 1024 * 1024;  // bytes of x: 16 MiB binary16, 32 binary32

// Narrow rows streamed from memory: 65536 x 64 folds to 256-lane rows (1 KiB
// binary32, 512 B binary16) of an 8-16 MiB tensor. Random data only (large).
constexpr std::int64_t kStreamedBatch = 65536;
constexpr std::int64_t kStreamedChannel = 64;

constexpr unsigned kMasks[] = {0x0, 0x1, 0x3, 0xff};

void hash_case(Fnv1a& f, const Case& c) {
  const Encoded e = encode_case(c);
  for (const unsigned mask : kMasks) {
    const RawOutputs r = run_raw(e, mask);
    f.add(r.dx);
    f.add(r.dbias);
    f.add(r.dscale);
  }
  for (const InPlace in_place : {InPlace::x, InPlace::dy}) {
    const RawOutputs r = run_raw(e, 0x3, in_place);
    f.add(r.dx);
    f.add(r.dbias);
    f.add(r.dscale);
  }
}

// The corpus' hash, and the hash of its first part alone (the shapes above,
// without the tiled and streamed tensors of 4-16 M elements): the part that
// runs in seconds under emulation (tests/aarch64) as well.
struct CorpusHashes {
  std::uint64_t shapes = 0, full = 0;
};

CorpusHashes corpus_hash(Combo combo, bool shapes_only) {
  Fnv1a f;
  for (const Shape& s : kShapes) {
    for (const Hard kind : kAllHard) {
      if (!s.every_kind && kind != Hard::random) continue;
      for (int train = 0; train <= 1; ++train) {
        const std::uint64_t seed =
            0x4a5 + static_cast<std::uint64_t>(s.batch * 131 + s.channel * 7 + train);
        hash_case(f, make_case(combo, kind, s.batch, s.channel, train, seed,
                               /*plant_specials=*/kind == Hard::random));
      }
    }
  }
  CorpusHashes out{f.h, 0};
  if (shapes_only) return out;
  const std::int64_t channel = kTiledElements / kTiledBatch;
  hash_case(f, make_case(combo, Hard::random, kTiledBatch, channel, 1, 0x711e, true));
  // Streaming narrow rows (rows_at_once_pay: rows shorter than a page, a
  // tensor larger than the caches), both modes.
  for (int train = 0; train <= 1; ++train) {
    hash_case(f, make_case(combo, Hard::random, kStreamedBatch, kStreamedChannel, train,
                           0x57e4 + static_cast<std::uint64_t>(train), true));
  }
  out.full = f.h;
  return out;
}

struct Recorded {
  Combo combo;
  std::uint64_t shapes, full;
};
// The corpus without the streamed shape gave fp 0x57c52569816ac2c9, hp
// 0xca390e2aef3263e1, mp 0xea48f708365f3009 on main (bd85f46) before issue
// 13's rework of the kernel layer, and still did at 6c5b8c4+ (every path).
// With it, recorded from the kernels at 6c5b8c4+, before binary16 inference
// judged narrow rows by the whole tensor (rows_at_once_pay).
// The shapes part's hashes were recorded at d1a1485+ (issue 25), when the
// full corpus still gave the hashes above, on avx2, portable and aarch64's neon.
// hp and mp changed at issue 24's first step (inference dx rounded once:
// RN16(a32*dy), no longer RN16(RN32(a32*dy))); recorded on avx2 and portable,
// the same on aarch64's paths. fp did not change: no binary64 product of the
// corpus is a binary32 midpoint. mp changed again at issue 24's second
// step: RN16(y*) itself, whose a32 = RN32(scale*invar) no longer decides
// (watch_rounded_products); recorded on avx2 and portable, the same on
// aarch64's paths. hp and mp changed again at issue 40 (inference dx at the
// overflow threshold: RN(y*) is ±Inf from MAX + ulp/2 on, no longer
// clamped to ±MAX); fp did not (no fp inference product of the corpus lies
// between MAX and 2^128); recorded on avx3, avx2 and portable.
// Each kernel the target has (the registry's BNG_TARGET_HAS_*).
constexpr Recorded kRecorded[] = {
#if BNG_TARGET_HAS_FP
    {Combo::fp, 0xb75853fa794b9b29, 0x4b26a3388c8ebc91},
#endif
#if BNG_TARGET_HAS_HP
    {Combo::hp, 0x4fc4a19c5f3fabc9, 0xd6681b3ac2131ab5},
#endif
#if BNG_TARGET_HAS_MP
    {Combo::mp, 0x43bdcc47bc446915, 0x0848055d0dcbf4cd},
#endif
};

// BNG_OUTPUT_HASH_CORPUS=shapes: the first part only (emulated runs).
bool shapes_only() {
  const char* v = std::getenv("BNG_OUTPUT_HASH_CORPUS");
  return v != nullptr && std::string(v) == "shapes";
}

void expect_hash(Combo combo, const char* part, std::uint64_t got, std::uint64_t want) {
  std::printf("output hash %s (%s) path %s: 0x%016llx\n", std::string(combo_name(combo)).c_str(),
              part, opt::isa_dispatched_path(), static_cast<unsigned long long>(got));
  EXPECT_EQ(got, want) << combo_name(combo) << " (" << part << "): output bits changed; hash 0x"
                       << std::hex << got << " (recorded 0x" << want << ")";
}

TEST(BNG_KSUITE(KernelOutputHash), CorpusGivesTheRecordedBits) {
  const bool shapes = shapes_only();
  for (const Recorded& want : kRecorded) {
    const CorpusHashes got = corpus_hash(want.combo, shapes);
    expect_hash(want.combo, "shapes", got.shapes, want.shapes);
    if (!shapes) expect_hash(want.combo, "full corpus", got.full, want.full);
  }
}

}  // namespace
}  // namespace bng::ktest
