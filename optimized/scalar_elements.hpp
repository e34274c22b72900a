// One element of a tensor read into, or rounded out of, binary64: the scalar
// forms that the rare guards (each_lane in lane_kernels/lanes-inl.h and its callers),
// the statistics and the guard's recomputation share, so that they give the
// bits of the vector code.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bng/binary16.hpp"
#include "data_type.hpp"
#include "output_rounding.hpp"

namespace bng::opt {

template <DataType T>
using Limits = std::conditional_t<T == DataType::f32, F32Limits, F16Limits>;

template <DataType T>
double load1(const void* p, std::int64_t i) {
  if constexpr (T == DataType::f32) {
    return static_cast<const float*>(p)[i];
  } else {
    return binary16::to_float(static_cast<const std::uint16_t*>(p)[i]);
  }
}

// Rounded once, with the overflow rule of output_rounding.hpp (outputs
// judged by alpha).
template <DataType T>
void store1(void* p, std::int64_t i, double t) {
  if constexpr (T == DataType::f32) {
    static_cast<float*>(p)[i] = round_to_float(t);
  } else {
    static_cast<std::uint16_t*>(p)[i] = round_to_half(t);
  }
}

// Rounded once to nearest-even, ±Inf past the top (output_rounding.hpp's
// round_nearest_to_*): the correctly rounded outputs, inference dx.
template <DataType T>
void store1_nearest(void* p, std::int64_t i, double t) {
  if constexpr (T == DataType::f32) {
    static_cast<float*>(p)[i] = round_nearest_to_float(t);
  } else {
    static_cast<std::uint16_t*>(p)[i] = round_nearest_to_half(t);
  }
}

}  // namespace bng::opt
