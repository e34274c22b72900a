// Where a kernel's failures are (issue 11): a lane bug, a tile-edge bug or one
// bad core shows as a pattern here, not as a list of indices. Failures are
// tallied three ways:
//   - a map over the tensor: row bins × channel bins of relative position
//     (row n of a batch falls in bin n·kRowBins/batch), so that cases of any
//     shape add up on one picture; dbias and dscale have one row;
//   - by vector lane: the element's lane within the kernel's wide row
//     (bng/optimized/partition.hpp) modulo the target's vector width;
//   - by part: which part of the phase that wrote the output (a row band,
//     column range, row range or tile; each runs on one core) computed it, from
//     the kernels' own schedule (bng/optimized/schedule.hpp), as the library
//     cuts the same call.
#pragma once

#include <array>
#include <cstdint>
#include <map>

#include <nlohmann/json.hpp>

#include "bng/properties/target.hpp"
#include "kernel.hpp"

namespace bng::cert {

// The element of one failing output and the call it came from.
struct FaultSite {
  prop::Target target{};
  Combo combo = Combo::fp;
  Output output = Output::dx;
  int is_train = 1;
  std::int64_t batch = 1, channel = 1;  // of the whole call
  std::int64_t n = 0, c = 0;            // n = 0 for dbias, dscale
  // The cores the call ran on (0: the caller alone, as _p): how reduce hands
  // out its parts depends on how many there are.
  unsigned core_mask = 0;
};

struct FaultMap {
  static constexpr int kRowBins = 16;
  static constexpr int kChannelBins = 32;
  std::int64_t fails = 0;
  std::array<std::array<std::int64_t, kChannelBins>, kRowBins> cells{};
  std::map<int, std::int64_t> by_lane;  // lane -> failures
  std::map<int, std::int64_t> by_part;  // part index -> failures
  int vector_lanes = 0;                 // the target's binary32 lanes (0: no failure yet)
  void add(const FaultSite& s);
  void merge(const FaultMap& o);
};

// The target's modelled vector width in binary32 lanes (the target registry,
// bng/optimized/targets.inc).
int vector_lanes(prop::Target t);

// The vector lane and the part of the call that computed one output, as
// the library's schedule assigns them.
struct FaultPlace {
  int lane = 0;
  int part = 0;
  int parts = 1;
};
FaultPlace fault_place(const FaultSite& s);

nlohmann::json fault_map_json(const FaultMap& m);

}  // namespace bng::cert
