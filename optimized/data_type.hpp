// The element types of the kernels' tensors (SPEC §2: binary32 for fp,
// binary16 for hp; mp mixes them), and their sizes.
#pragma once

#include <cstdint>

namespace bng::opt {

enum class DataType : std::uint8_t { f32, f16 };
// Bytes of one element of a tensor of that type.
constexpr std::int64_t bytes_of(DataType t) {
  return t == DataType::f32 ? 4 : 2;
}

}  // namespace bng::opt
