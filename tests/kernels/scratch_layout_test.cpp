// The per-call scratch: every array the hot loops read or write by whole
// vectors starts on a cache line, whatever the width (a plain std::vector
// left that to the heap, and a call ran 2-20 % slower where an AVX-512
// vector of it spanned two lines: docs/performance.md).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "batchnorm_driver.hpp"
#include "bng/optimized/targets.hpp"
#include "cache_aligned.hpp"
#include "kernel_runner.hpp"

namespace bng::opt {
namespace {

// This executable's target, modelled as its compute.cpp models it.
constexpr const TargetInfo& kInfo = target_info(BNG_TARGET_NAME);
constexpr TargetModel kModel{kInfo.cores, kInfo.vector_lanes, kInfo.local_memory};

bool on_cache_line(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % kCacheLineBytes == 0;
}

TEST(BNG_KSUITE(ScratchLayout), LengthsRoundUpToWholeCacheLines) {
  EXPECT_EQ(cache_lines_length<double>(1), 8);
  EXPECT_EQ(cache_lines_length<double>(8), 8);
  EXPECT_EQ(cache_lines_length<double>(9), 16);
  EXPECT_EQ(cache_lines_length<float>(1), 16);
  EXPECT_EQ(cache_lines_length<float>(16), 16);
  EXPECT_EQ(cache_lines_length<float>(1001), 1008);
}

TEST(BNG_KSUITE(ScratchLayout), VectorsStartOnCacheLines) {
  CacheAlignedVector<double> v;
  for (std::size_t n : {1u, 3u, 1000u, 5u, 70000u}) {
    v.resize(n);
    EXPECT_TRUE(on_cache_line(v.data())) << n;
  }
  std::vector<CacheAlignedVector<float>> many(16, CacheAlignedVector<float>(3));
  for (const auto& f : many) EXPECT_TRUE(on_cache_line(f.data()));
}

// Channel counts whose arrays are not a whole number of cache lines long
// (1001, 250, 3 x fold) and ones that are, both data types, both modes. The
// layout is the generic driver's, so binary16 data is planned on every target.
template <DataType T, class Stats>
void expect_planned_arrays_on_cache_lines(std::int64_t batch, std::int64_t channel, int is_train) {
  SCOPED_TRACE(testing::Message() << batch << "x" << channel << " train " << is_train);
  const std::size_t n = static_cast<std::size_t>(batch * channel);
  const std::size_t c = static_cast<std::size_t>(channel);
  std::vector<std::uint32_t> x(n), dy(n), dx(n);  // zero bits: 0.0 in either type
  std::vector<float> mean(c, 0.0f), invar(c, 1.0f), scale(c, 1.0f), dbias(c), dscale(c);
  std::vector<std::uint16_t> mean_h(c, 0), invar_h(c, 0x3c00), scale_h(c, 0x3c00), dbias_h(c),
      dscale_h(c);
  const bool half_stats = Stats::type == DataType::f16;
  const Args a{.x = x.data(),
               .dy = dy.data(),
               .dx = dx.data(),
               .mean = half_stats ? static_cast<const void*>(mean_h.data()) : mean.data(),
               .invar = half_stats ? static_cast<const void*>(invar_h.data()) : invar.data(),
               .scale = half_stats ? static_cast<const void*>(scale_h.data()) : scale.data(),
               .dbias = half_stats ? static_cast<void*>(dbias_h.data()) : dbias.data(),
               .dscale = half_stats ? static_cast<void*>(dscale_h.data()) : dscale.data(),
               .batch = batch,
               .channel = channel,
               .is_train = is_train,
               .core_mask = 0x1};
  detail::Scratch scratch;
  const detail::Plan plan = detail::plan_call<T, Stats>(a, kModel, scratch);
  const LaneArrays& l = plan.lanes;
  for (const void* p : {static_cast<const void*>(l.mean), static_cast<const void*>(l.a),
                        static_cast<const void*>(l.b), static_cast<const void*>(l.nc)}) {
    EXPECT_TRUE(on_cache_line(p));
  }
  for (const float* p : {l.mean32, l.a32, l.nb32, l.nc32, l.sum_mean32}) {
    if (p != nullptr) {
      EXPECT_TRUE(on_cache_line(p));
    }
  }
  for (int r = 0; r < plan.schedule.p.row_parts; ++r) {
    for (int k = 0; k < detail::BandLayout::kArrays; ++k) {
      EXPECT_TRUE(on_cache_line(plan.bands.at(r, static_cast<detail::BandArray>(k))))
          << "band " << r << " array " << k;
    }
  }
}

TEST(BNG_KSUITE(ScratchLayout), PlannedArraysStartOnCacheLines) {
  const std::int64_t shapes[][2] = {{300, 1001}, {1000, 250}, {700, 3}, {256, 1024}, {5, 7}};
  for (const auto& s : shapes) {
    for (int train : {0, 1}) {
      expect_planned_arrays_on_cache_lines<DataType::f32, StatsF32>(s[0], s[1], train);
      expect_planned_arrays_on_cache_lines<DataType::f16, StatsF16>(s[0], s[1], train);
      expect_planned_arrays_on_cache_lines<DataType::f16, StatsF32>(s[0], s[1], train);
    }
  }
}

}  // namespace
}  // namespace bng::opt
