// The tiered path (docs/reference.md, "The tiered path"): exact per-channel sums in a
// superaccumulator, a double-word evaluation of every dx with a proved error
// bound, and the rounding test; the exact path (exact_channel.hpp) takes only
// what the test cannot decide, and channels with NaN or ±Inf inputs.
#pragma once

#include <cstdint>

#include "bng/reference/reference.hpp"

namespace bng::ref {

// Fills the outputs of channels [c_begin, c_end) of r (sized for the whole
// case) and adds to r.exact_fallbacks. The case is valid and the range inside it.
void compute_tiered(const Case& c, std::int64_t c_begin, std::int64_t c_end, Result& r);

// The same for every channel, the dx handed over in chunks of rows as they are
// ready (reference.hpp, RowsReady): every block's sums first, then the chunks.
void compute_tiered(const Case& c, Result& r, const RowsReady& rows_ready);

}  // namespace bng::ref
