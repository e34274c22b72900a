#include "validate.hpp"

#include <array>
#include <limits>

#include "batchnormgrad.h"
#include "params.hpp"

namespace bng::opt {

namespace {

constexpr std::uintptr_t kAddressMax = std::numeric_limits<std::uintptr_t>::max();
constexpr std::size_t kSizeLimit =
    static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());

// A half-open byte range [begin, begin + bytes), already known not to wrap.
struct Range {
  std::uintptr_t begin;
  std::size_t bytes;
};

bool overlap(Range a, Range b) {
  return a.begin < b.begin + b.bytes && b.begin < a.begin + a.bytes;
}

// The end address begin + bytes must exist: the kernels form one-past-the-end
// pointers, and the overlap test compares ends.
bool wraps(Range r) {
  return r.bytes > kAddressMax - r.begin;
}

bool misaligned(std::uintptr_t address, std::size_t alignment) {
  return address % alignment != 0;
}

// `a * b` for positive a and b, or nothing when it exceeds kSizeLimit (the
// smaller of SIZE_MAX and PTRDIFF_MAX, so kernels may subtract pointers).
std::optional<std::size_t> checked_product(unsigned long long a, unsigned long long b) {
  if (a > kSizeLimit / b) return std::nullopt;
  return static_cast<std::size_t>(a * b);
}

int check_null(const Request& r) {
  const std::array<std::uintptr_t, 8> pointers = {r.x,     r.dy,    r.dx,    r.mean,
                                                  r.invar, r.scale, r.dbias, r.dscale};
  for (std::uintptr_t p : pointers) {
    if (p == 0) return BNG_ERR_NULL;
  }
  return BNG_OK;
}

int check_alignment(const Request& r) {
  for (std::uintptr_t p : {r.x, r.dy, r.dx}) {
    if (misaligned(p, r.sizes.data)) return BNG_ERR_ALIGN;
  }
  for (std::uintptr_t p : {r.mean, r.invar, r.scale, r.dbias, r.dscale}) {
    if (misaligned(p, r.sizes.stats)) return BNG_ERR_ALIGN;
  }
  return BNG_OK;
}

bool valid_core_mask(int mask) {
  // Through unsigned so that a negative mask shows its sign bit as the bit
  // at or above the core count that it is.
  const auto bits = static_cast<unsigned>(mask);
  return bits != 0 && (bits >> BNG_CORE_COUNT) == 0;
}

// Every output against every input and every other output, as byte ranges.
// Only the two in-place forms of dx (same start as x or as dy; same length by
// construction) are allowed; inputs may overlap one another freely.
int check_overlap(const Request& r, std::size_t data_bytes, std::size_t stats_bytes) {
  const Range x{r.x, data_bytes}, dy{r.dy, data_bytes}, dx{r.dx, data_bytes};
  const Range mean{r.mean, stats_bytes}, invar{r.invar, stats_bytes}, scale{r.scale, stats_bytes};
  const Range dbias{r.dbias, stats_bytes}, dscale{r.dscale, stats_bytes};
  const Range params{r.params, r.params != 0 ? kParamsBytesRead : 0};

  if (overlap(dx, x) && r.dx != r.x) return BNG_ERR_OVERLAP;
  if (overlap(dx, dy) && r.dx != r.dy) return BNG_ERR_OVERLAP;
  for (Range in : {mean, invar, scale, params}) {
    if (overlap(dx, in)) return BNG_ERR_OVERLAP;
  }
  for (Range out : {dbias, dscale}) {
    for (Range other : {x, dy, mean, invar, scale, params, dx}) {
      if (overlap(out, other)) return BNG_ERR_OVERLAP;
    }
  }
  if (overlap(dbias, dscale)) return BNG_ERR_OVERLAP;
  return BNG_OK;
}

}  // namespace

int validate_params_array(const long long* params) {
  const auto address = reinterpret_cast<std::uintptr_t>(params);
  if (address == 0) return BNG_ERR_NULL;
  if (misaligned(address, alignof(long long))) return BNG_ERR_ALIGN;
  if (wraps(Range{address, kParamsBytesRead})) return BNG_ERR_SHAPE;
  return BNG_OK;
}

// The order below is one valid choice among many: SPEC §3 lets any applicable
// status be returned. It is chosen so that each check may rely on the earlier
// ones (overlap needs sizes that fit and ranges that do not wrap).
int validate(const Request& r, Args* args) {
  if (int s = check_null(r); s != BNG_OK) return s;

  if (r.batch < 1 || r.channel < 1) return BNG_ERR_SHAPE;
  const auto batch = static_cast<unsigned long long>(r.batch);
  const auto channel = static_cast<unsigned long long>(r.channel);
  const std::optional<std::size_t> elements = checked_product(batch, channel);
  if (!elements) return BNG_ERR_SHAPE;
  const std::optional<std::size_t> data_bytes = checked_product(*elements, r.sizes.data);
  const std::optional<std::size_t> stats_bytes = checked_product(channel, r.sizes.stats);
  if (!data_bytes || !stats_bytes) return BNG_ERR_SHAPE;
  for (std::uintptr_t p : {r.x, r.dy, r.dx}) {
    if (wraps(Range{p, *data_bytes})) return BNG_ERR_SHAPE;
  }
  for (std::uintptr_t p : {r.mean, r.invar, r.scale, r.dbias, r.dscale}) {
    if (wraps(Range{p, *stats_bytes})) return BNG_ERR_SHAPE;
  }

  if (r.is_train != 0 && r.is_train != 1) return BNG_ERR_FLAG;
  if (r.core_mask && !valid_core_mask(*r.core_mask)) return BNG_ERR_CORE_MASK;
  if (int s = check_alignment(r); s != BNG_OK) return s;
  if (int s = check_overlap(r, *data_bytes, *stats_bytes); s != BNG_OK) return s;

  *args = Args{
      .x = reinterpret_cast<const void*>(r.x),
      .dy = reinterpret_cast<const void*>(r.dy),
      .dx = reinterpret_cast<void*>(r.dx),
      .mean = reinterpret_cast<const void*>(r.mean),
      .invar = reinterpret_cast<const void*>(r.invar),
      .scale = reinterpret_cast<const void*>(r.scale),
      .dbias = reinterpret_cast<void*>(r.dbias),
      .dscale = reinterpret_cast<void*>(r.dscale),
      .batch = r.batch,
      .channel = r.channel,
      .is_train = static_cast<int>(r.is_train),
      .core_mask = r.core_mask ? static_cast<unsigned>(*r.core_mask) : 0u,
  };
  return BNG_OK;
}

}  // namespace bng::opt
