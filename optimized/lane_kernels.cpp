// The lane kernels' entry points (lane_kernels.hpp): each phase compiled once
// per instruction set from the Highway -inl.h modules in lane_kernels/, and
// run-time dispatch that honours BNG_ISA (bng/optimized/isa.hpp).
// The modules, in the order the data flows through a call:
//   coefficients-inl.h       planning: the per-lane coefficients (Prepare)
//   reduce-inl.h             pass 1 in binary64 (Reduce), the block loop
//   reduce_half_infer-inl.h  pass 1 of binary16 inference, with dx
//                            (half_infer_dx-inl.h: its dx rounding and watch;
//                            wide_lanes-inl.h: binary32 vectors' binary64 lanes)
//   combine-inl.h            per channel: dbias, dscale, pass 2's coefficients
//   apply-inl.h              pass 2, training dx (Apply<RowKernel>)
// built from lanes-inl.h (loads, the lane-by-lane fallback, TwoSum),
// store-inl.h (the vector stores of the outputs) and rows-inl.h (the row
// order and its memory-system policy).
#include "lane_kernels.hpp"

#include "bng/optimized/isa.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "lane_kernels.cpp"
#include "hwy_targets.hpp"
// clang-format off
#include <hwy/foreach_target.h>
// clang-format on
#include <hwy/highway.h>

#include "lane_kernels/apply-inl.h"
#include "lane_kernels/coefficients-inl.h"
#include "lane_kernels/combine-inl.h"
#include "lane_kernels/reduce-inl.h"
#include "lane_kernels/reduce_half_infer-inl.h"

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {

void PrepareF32(const LaneCoefficients& s, std::int64_t channel) {
  Prepare<DataType::f32>(s, channel);
}
void PrepareF16(const LaneCoefficients& s, std::int64_t channel) {
  Prepare<DataType::f16>(s, channel);
}

void CombineF32(const CombineSpan& s, std::int64_t begin, std::int64_t end) {
  Combine<DataType::f32>(s, begin, end);
}
void CombineF16(const CombineSpan& s, std::int64_t begin, std::int64_t end) {
  Combine<DataType::f16>(s, begin, end);
}

template <DataType T>
void ReduceAny(const LaneSpan& s, const ReduceOut& o, bool dx, bool mag, bool rounded_a32) {
  if (dx) {
    if constexpr (T == DataType::f16) {
      if (rounded_a32) {
        mag ? ReduceHalfInfer<true, true>(s, o) : ReduceHalfInfer<false, true>(s, o);
      } else {
        mag ? ReduceHalfInfer<true, false>(s, o) : ReduceHalfInfer<false, false>(s, o);
      }
    } else {
      mag ? Reduce<T, true, true>(s, o) : Reduce<T, true, false>(s, o);
    }
  } else {
    mag ? Reduce<T, false, true>(s, o) : Reduce<T, false, false>(s, o);
  }
}
void ReduceF32(const LaneSpan& s, const ReduceOut& o, bool dx, bool mag) {
  ReduceAny<DataType::f32>(s, o, dx, mag, false);
}
void ReduceF16(const LaneSpan& s, const ReduceOut& o, bool dx, bool mag, bool rounded_a32) {
  ReduceAny<DataType::f16>(s, o, dx, mag, rounded_a32);
}

void ApplyF32(const LaneSpan& s) {
  Apply<DxRows<DataType::f32>>(s);
}
void ApplyF16(const LaneSpan& s) {
  Apply<DxHalfRows>(s);
}

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bng::opt {
HWY_EXPORT(ReduceF32);
HWY_EXPORT(ReduceF16);
HWY_EXPORT(ApplyF32);
HWY_EXPORT(ApplyF16);
HWY_EXPORT(CombineF32);
HWY_EXPORT(CombineF16);
HWY_EXPORT(PrepareF32);
HWY_EXPORT(PrepareF16);

void prepare_lanes(DataType stats, const LaneCoefficients& s, std::int64_t channel) {
  select_isa();
  stats == DataType::f32 ? HWY_DYNAMIC_DISPATCH(PrepareF32)(s, channel)
                         : HWY_DYNAMIC_DISPATCH(PrepareF16)(s, channel);
}

void combine_channels(DataType stats, const CombineSpan& s, std::int64_t begin, std::int64_t end) {
  select_isa();
  stats == DataType::f32 ? HWY_DYNAMIC_DISPATCH(CombineF32)(s, begin, end)
                         : HWY_DYNAMIC_DISPATCH(CombineF16)(s, begin, end);
}

void reduce_span(DataType t, DataType stats, const LaneSpan& s, const ReduceOut& out, bool write_dx,
                 bool magnitudes) {
  select_isa();
  t == DataType::f32
      ? HWY_DYNAMIC_DISPATCH(ReduceF32)(s, out, write_dx, magnitudes)
      : HWY_DYNAMIC_DISPATCH(ReduceF16)(s, out, write_dx, magnitudes, stats == DataType::f32);
}

void apply_span(DataType t, const LaneSpan& s) {
  select_isa();
  t == DataType::f32 ? HWY_DYNAMIC_DISPATCH(ApplyF32)(s) : HWY_DYNAMIC_DISPATCH(ApplyF16)(s);
}
}  // namespace bng::opt
#endif
