// How judge() adds one call's outputs to a Histogram and a Density: counted
// in flat tables first (no map lookup and no logarithm per output), then
// added to the tally's maps once per call. The one place where an output's
// ULP error finds its bin and its (κ, normalised error) finds its cell.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "bng/reference/binade.hpp"
#include "bng/reference/error_measure.hpp"
#include "tally.hpp"

namespace bng::cert {

// ULP errors of finite references in bins [2^k, 2^(k+1)): k = ilogb, which
// for a finite non-zero double lies in [-1074, 1023].
class HistogramCounts {
 public:
  void add(double ulp_error) {
    if (ulp_error == 0) {
      ++zero_;
    } else if (!std::isfinite(ulp_error)) {
      ++infinite_;
    } else {
      const int k = ref::binade(ulp_error);
      low_ = k < low_ ? k : low_;
      high_ = k > high_ ? k : high_;
      ++bins_[static_cast<std::size_t>(k - kLow)];
    }
  }
  void add_to(Histogram& h) const;

 private:
  static constexpr int kLow = -1074, kHigh = 1023;
  std::int64_t zero_ = 0, infinite_ = 0;
  std::array<std::int64_t, kHigh - kLow + 1> bins_{};
  int low_ = kHigh + 1, high_ = kLow - 1;  // the bins used: a small call scans only those
};

// Density cells (Density::cell_of of κ and of the normalised error) in an
// open-addressing table; a call rarely fills more than a few hundred, and a
// table half full is emptied into a map of its own before it is used on.
class DensityCounts {
 public:
  void add(const Measure& m) {
    if (m.normalised_error == 0) return;  // no place on a log axis (Density)
    Slot& slot = find(Density::cell_of(m.kappa), Density::cell_of(m.normalised_error));
    (m.pass ? slot.cell.pass : slot.cell.fail) += 1;
  }
  void add_to(Density& d);

 private:
  static constexpr std::size_t kSlots = 1024;  // a power of two
  struct Slot {
    bool used = false;
    int kappa = 0, error = 0;
    Density::Cell cell;
  };
  Slot& find(int kappa, int error);
  void empty_into(Density& d);
  std::array<Slot, kSlots> slots_{};
  std::array<std::uint16_t, kSlots / 2> taken_{};  // the slots used, in order of first use
  std::size_t used_ = 0;
  Density spilled_;  // the cells of tables emptied before the call ended
};

}  // namespace bng::cert
