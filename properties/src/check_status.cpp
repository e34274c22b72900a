// SPEC §3: every bad argument gets its status and not one byte is written.
#include <batchnormgrad.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "bng/properties/checks.hpp"
#include "bng/properties/reproducer.hpp"

namespace bng::prop {
namespace {

struct FaultInfo {
  Fault fault;
  const char* name;
  int status;
};

constexpr FaultInfo kFaults[] = {
    {Fault::null_params, "null_params", BNG_ERR_NULL},
    {Fault::null_x, "null_x", BNG_ERR_NULL},
    {Fault::null_dy, "null_dy", BNG_ERR_NULL},
    {Fault::null_dx, "null_dx", BNG_ERR_NULL},
    {Fault::null_mean, "null_mean", BNG_ERR_NULL},
    {Fault::null_invar, "null_invar", BNG_ERR_NULL},
    {Fault::null_scale, "null_scale", BNG_ERR_NULL},
    {Fault::null_dbias, "null_dbias", BNG_ERR_NULL},
    {Fault::null_dscale, "null_dscale", BNG_ERR_NULL},
    {Fault::batch_zero, "batch_zero", BNG_ERR_SHAPE},
    {Fault::batch_negative, "batch_negative", BNG_ERR_SHAPE},
    {Fault::channel_zero, "channel_zero", BNG_ERR_SHAPE},
    {Fault::channel_negative, "channel_negative", BNG_ERR_SHAPE},
    {Fault::size_overflow, "size_overflow", BNG_ERR_SHAPE},
    {Fault::flag_two, "flag_two", BNG_ERR_FLAG},
    {Fault::flag_negative, "flag_negative", BNG_ERR_FLAG},
    {Fault::flag_wide, "flag_wide", BNG_ERR_FLAG},
    {Fault::mask_zero, "mask_zero", BNG_ERR_CORE_MASK},
    {Fault::mask_bit_8, "mask_bit_8", BNG_ERR_CORE_MASK},
    {Fault::mask_high_bit, "mask_high_bit", BNG_ERR_CORE_MASK},
    {Fault::mask_negative, "mask_negative", BNG_ERR_CORE_MASK},
    {Fault::overlap_dx_x, "overlap_dx_x", BNG_ERR_OVERLAP},
    {Fault::overlap_dx_dy, "overlap_dx_dy", BNG_ERR_OVERLAP},
    {Fault::overlap_dx_mean, "overlap_dx_mean", BNG_ERR_OVERLAP},
    {Fault::overlap_dbias_dscale, "overlap_dbias_dscale", BNG_ERR_OVERLAP},
    {Fault::overlap_dbias_invar, "overlap_dbias_invar", BNG_ERR_OVERLAP},
    {Fault::overlap_dscale_x, "overlap_dscale_x", BNG_ERR_OVERLAP},
    {Fault::overlap_dx_dbias, "overlap_dx_dbias", BNG_ERR_OVERLAP},
    {Fault::misaligned_x, "misaligned_x", BNG_ERR_ALIGN},
    {Fault::misaligned_dy, "misaligned_dy", BNG_ERR_ALIGN},
    {Fault::misaligned_dx, "misaligned_dx", BNG_ERR_ALIGN},
    {Fault::misaligned_mean, "misaligned_mean", BNG_ERR_ALIGN},
    {Fault::misaligned_invar, "misaligned_invar", BNG_ERR_ALIGN},
    {Fault::misaligned_scale, "misaligned_scale", BNG_ERR_ALIGN},
    {Fault::misaligned_dbias, "misaligned_dbias", BNG_ERR_ALIGN},
    {Fault::misaligned_dscale, "misaligned_dscale", BNG_ERR_ALIGN},
    {Fault::misaligned_params, "misaligned_params", BNG_ERR_ALIGN},
};
static_assert(std::size(kFaults) == kFaultCount);

const FaultInfo& info(Fault f) {
  return kFaults[static_cast<std::size_t>(f)];
}

template <typename P>
P shift(P p, std::ptrdiff_t bytes) {
  if (p == nullptr) return p;  // a pointer another fault nulled stays null
  using Byte =
      std::conditional_t<std::is_const_v<std::remove_pointer_t<P>>, const std::byte, std::byte>;
  return static_cast<P>(static_cast<Byte*>(p) + bytes);
}

void apply(Fault f, const Buffers& b, RawCall& r, CallSpec& s) {
  const auto d = static_cast<std::ptrdiff_t>(b.data_elem);
  switch (f) {
    case Fault::null_params:
      r.params = RawCall::Params::null;
      break;
    case Fault::null_x:
      r.x = nullptr;
      break;
    case Fault::null_dy:
      r.dy = nullptr;
      break;
    case Fault::null_dx:
      r.dx = nullptr;
      break;
    case Fault::null_mean:
      r.mean = nullptr;
      break;
    case Fault::null_invar:
      r.invar = nullptr;
      break;
    case Fault::null_scale:
      r.scale = nullptr;
      break;
    case Fault::null_dbias:
      r.dbias = nullptr;
      break;
    case Fault::null_dscale:
      r.dscale = nullptr;
      break;
    case Fault::batch_zero:
      r.batch = 0;
      break;
    case Fault::batch_negative:
      r.batch = -1;
      break;
    case Fault::channel_zero:
      r.channel = 0;
      break;
    case Fault::channel_negative:
      r.channel = -3;
      break;
    case Fault::size_overflow:
      // flat: INT_MAX² elements overflow size_t in bytes (binary32) or ptrdiff_t
      // (binary16); params: 2^62 × 4 elements overflow the element count itself.
      if (s.form == Form::flat) {
        r.batch = INT_MAX;
        r.channel = INT_MAX;
      } else {
        r.batch = 1LL << 62;
        r.channel = 4;
      }
      break;
    case Fault::flag_two:
      r.is_train = 2;
      break;
    case Fault::flag_negative:
      r.is_train = -1;
      break;
    case Fault::flag_wide:
      r.is_train = (1LL << 32) | 1;
      break;  // 1 in the low 32 bits only
    case Fault::mask_zero:
      s.core_mask = 0;
      break;
    case Fault::mask_bit_8:
      s.core_mask = 0x101;
      break;
    case Fault::mask_high_bit:
      s.core_mask = 1u << 30;
      break;
    case Fault::mask_negative:
      s.core_mask = ~0u;
      break;
    case Fault::overlap_dx_x:
      r.dx = const_cast<void*>(shift(r.x, d));
      break;
    case Fault::overlap_dx_dy:
      r.dx = const_cast<void*>(shift(r.dy, -d));
      break;
    case Fault::overlap_dx_mean:
      r.dx = const_cast<void*>(r.mean);
      break;
    case Fault::overlap_dbias_dscale:
      r.dscale = r.dbias;
      break;
    case Fault::overlap_dbias_invar:
      r.dbias = const_cast<void*>(r.invar);
      break;
    case Fault::overlap_dscale_x:
      r.dscale = const_cast<void*>(r.x);
      break;
    case Fault::overlap_dx_dbias:
      r.dbias = r.dx;
      break;
    case Fault::misaligned_x:
      r.x = shift(r.x, 1);
      break;
    case Fault::misaligned_dy:
      r.dy = shift(r.dy, 1);
      break;
    case Fault::misaligned_dx:
      r.dx = shift(r.dx, 1);
      break;
    case Fault::misaligned_mean:
      r.mean = shift(r.mean, 1);
      break;
    case Fault::misaligned_invar:
      r.invar = shift(r.invar, 1);
      break;
    case Fault::misaligned_scale:
      r.scale = shift(r.scale, 1);
      break;
    case Fault::misaligned_dbias:
      r.dbias = shift(r.dbias, 1);
      break;
    case Fault::misaligned_dscale:
      r.dscale = shift(r.dscale, 1);
      break;
    case Fault::misaligned_params:
      r.params = RawCall::Params::misaligned;
      break;
  }
}

// Two faults can make a third: overlap_dx_x moves dx by one binary16 element,
// and overlap_dx_dbias then points the binary32 dbias there, misaligned. SPEC §3
// lets a call with several faults return any of their statuses, so whatever
// the final pointers break is allowed too.
bool any_misaligned(const Buffers& b, const RawCall& r) {
  auto off = [](const void* p, std::size_t align) {
    return p != nullptr && reinterpret_cast<std::uintptr_t>(p) % align != 0;
  };
  const std::size_t d = b.data_elem, st = b.stats_elem;
  return off(r.x, d) || off(r.dy, d) || off(r.dx, d) || off(r.mean, st) || off(r.invar, st) ||
         off(r.scale, st) || off(r.dbias, st) || off(r.dscale, st);
}

}  // namespace

void showValue(Fault f, std::ostream& os) {
  os << fault_name(f);
}

const char* fault_name(Fault f) {
  return info(f).name;
}
int expected_status(Fault f) {
  return info(f).status;
}

bool fault_applies(Fault f, const CallSpec& spec, const Case& c) {
  switch (f) {
    case Fault::null_params:
    case Fault::misaligned_params:
    case Fault::flag_wide:
      return spec.form == Form::params;
    case Fault::mask_zero:
    case Fault::mask_bit_8:
    case Fault::mask_high_bit:
    case Fault::mask_negative:
      return spec.storage == Storage::shared;
    // One element of offset overlaps only when the tensors have two.
    case Fault::overlap_dx_x:
    case Fault::overlap_dx_dy:
      return c.elements() >= 2;
    // The flat form's int extents reach (2^31-1)^2 elements: 2^63 - 2^33 + 2
    // bytes of binary16 still fit ptrdiff_t, so only binary32 data overflows there.
    case Fault::size_overflow:
      return spec.form == Form::params || data_format(spec.combo) == Format::binary32;
    default:
      return true;
  }
}

std::string check_status(const Case& c, const CallSpec& spec, const std::vector<Fault>& faults) {
  if (faults.empty()) throw std::invalid_argument("check_status: no fault given");
  Buffers b = lay_out(c);
  RawCall r = b.raw();
  CallSpec s = spec;
  std::vector<int> allowed;
  std::string names;
  for (Fault f : faults) {
    if (!fault_applies(f, spec, c))
      throw std::invalid_argument(std::string(fault_name(f)) + " does not apply");
    apply(f, b, r, s);
    allowed.push_back(expected_status(f));
    names += (names.empty() ? "" : " + ") + std::string(fault_name(f));
  }
  if (any_misaligned(b, r)) allowed.push_back(BNG_ERR_ALIGN);
  const std::vector<std::byte> before = b.arena;
  const int status = invoke(s, r);
  std::ostringstream os;
  if (std::find(allowed.begin(), allowed.end(), status) == allowed.end()) {
    os << names << ": returned " << status << ", SPEC 3 requires";
    for (int a : allowed) os << " " << a;
  }
  const std::size_t base = static_cast<std::size_t>(b.base() - b.arena.data());
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (before[i] != b.arena[i]) {
      os << (os.tellp() == 0 ? names + ": " : std::string("; ")) << "byte " << (i - base)
         << " of the arena changed on a refused call (x@" << b.x << " dy@" << b.dy << " dx@" << b.dx
         << " mean@" << b.mean << " invar@" << b.invar << " scale@" << b.scale << " dbias@"
         << b.dbias << " dscale@" << b.dscale << ")";
      break;
    }
  }
  if (os.tellp() == 0) return {};
  return reproducer(c, s, os.str());
}

}  // namespace bng::prop
