// A call as a directory of .npy files, the convention of `bngcert check` and
// of the report's reproducers (docs/report-format.md):
//   x.npy dy.npy dx.npy           [batch, channel] (or [N, H, W, channel]), data dtype
//   mean.npy invar.npy scale.npy  [channel], statistics dtype
//   dbias.npy dscale.npy          [channel], statistics dtype
//   params.json                   batch, channel, is_train, target (an "alpha" there is
//                                 ignored: α is the kernel's declared one)
// The dtypes name the type combination: '<f4' everywhere is fp, '<f2'
// everywhere hp, '<f2' data with '<f4' statistics mp.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "bng/reference/case.hpp"
#include "npy.hpp"

namespace bng::cert {

inline constexpr std::array<std::string_view, 5> kInputNames = {"x", "dy", "mean", "invar",
                                                                "scale"};
inline constexpr std::array<std::string_view, 3> kOutputNames = {"dx", "dbias", "dscale"};

npy::DType dtype_of(Format f);  // binary16 -> '<f2', binary32 -> '<f4'
// The combination a pair of dtypes (data, statistics) names, or nullopt.
std::optional<Combo> combo_of(npy::DType data, npy::DType stats);

// Writes the eight arrays of `c` and `got` and params.json into `dir`
// (created if needed; inside an output directory, make it first with
// output_file.hpp's make_subdirectory, which refuses links).
void write_case_dir(const std::filesystem::path& dir, const Case& c, const Outputs& got,
                    const nlohmann::json& params);

}  // namespace bng::cert
