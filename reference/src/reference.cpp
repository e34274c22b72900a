// The reference's entry points: checks the case and the channel range, then
// runs each channel on the path asked for (exact_channel.cpp, tiered.cpp).
#include <stdexcept>
#include <string>

#include "bng/reference/reference.hpp"
#include "exact_channel.hpp"
#include "tiered.hpp"

namespace bng::ref {

std::string_view path_name(Path p) {
  return p == Path::tiered ? "tiered" : "exact";
}

std::optional<Path> parse_path(std::string_view name) {
  if (name == "tiered") return Path::tiered;
  if (name == "exact") return Path::exact;
  return std::nullopt;
}

namespace {

// Channels [c_begin, c_end) of a valid case into r, sized for the whole case.
void run_channels(const Case& c, std::int64_t c_begin, std::int64_t c_end, Path path, Result& r) {
  if (path == Path::tiered) {
    compute_tiered(c, c_begin, c_end, r);
  } else {
    for (std::int64_t ch = c_begin; ch < c_end; ++ch) ExactChannel(c, ch, r).run();
  }
}

// Both paths write every output of every channel they run, so entries kept
// from a previous case are all overwritten (tests/reference: ReusedResult).
void size_for(const Case& c, Result& r) {
  r.dx.resize(static_cast<std::size_t>(c.elements()));
  r.dbias.resize(static_cast<std::size_t>(c.channel));
  r.dscale.resize(static_cast<std::size_t>(c.channel));
  r.exact_fallbacks = 0;
}

}  // namespace

Result compute_channels(const Case& c, std::int64_t c_begin, std::int64_t c_end, Path path) {
  validate(c);
  if (c_begin < 0 || c_end > c.channel || c_begin > c_end) {
    throw std::invalid_argument("compute_channels: range [" + std::to_string(c_begin) + ", " +
                                std::to_string(c_end) + ") outside [0, " +
                                std::to_string(c.channel) + ")");
  }
  Result r;
  r.dx.resize(static_cast<std::size_t>(c.elements()));
  r.dbias.resize(static_cast<std::size_t>(c.channel));
  r.dscale.resize(static_cast<std::size_t>(c.channel));
  run_channels(c, c_begin, c_end, path, r);
  return r;
}

Result compute(const Case& c, Path path) {
  return compute_channels(c, 0, c.channel, path);
}

void compute(const Case& c, Path path, Result& r) {
  validate(c);
  size_for(c, r);
  run_channels(c, 0, c.channel, path, r);
}

void compute(const Case& c, Path path, Result& r, const RowsReady& rows_ready) {
  validate(c);
  size_for(c, r);
  if (path == Path::tiered) {
    compute_tiered(c, r, rows_ready);
    return;
  }
  run_channels(c, 0, c.channel, path, r);
  rows_ready(0, c.batch);
}

}  // namespace bng::ref
