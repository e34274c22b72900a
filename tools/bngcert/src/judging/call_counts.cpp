#include "call_counts.hpp"

namespace bng::cert {

void HistogramCounts::add_to(Histogram& h) const {
  h.zero += zero_;
  h.infinite += infinite_;
  for (int k = low_; k <= high_; ++k) {
    if (const std::int64_t n = bins_[static_cast<std::size_t>(k - kLow)]) h.bins[k] += n;
  }
}

void DensityCounts::add_to(Density& d) {
  empty_into(d);
  d.merge(spilled_);
  spilled_ = {};
}

DensityCounts::Slot& DensityCounts::find(int kappa, int error) {
  if (used_ * 2 >= kSlots) empty_into(spilled_);
  const auto hash = static_cast<std::uint32_t>(kappa) * 0x9e3779b1u ^
                    static_cast<std::uint32_t>(error) * 0x85ebca77u;
  for (std::size_t i = hash & (kSlots - 1);; i = (i + 1) & (kSlots - 1)) {
    Slot& s = slots_[i];
    if (!s.used) {
      s = {true, kappa, error, {}};
      taken_[used_++] = static_cast<std::uint16_t>(i);
      return s;
    }
    if (s.kappa == kappa && s.error == error) return s;
  }
}

void DensityCounts::empty_into(Density& d) {
  for (std::size_t i = 0; i < used_; ++i) {
    Slot& s = slots_[taken_[i]];
    Density::Cell& c = d.cells[{s.kappa, s.error}];
    c.pass += s.cell.pass;
    c.fail += s.cell.fail;
    s = {};
  }
  used_ = 0;
}

}  // namespace bng::cert
