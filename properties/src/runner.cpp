// Laying a case out in its storage types and calling an entry point with it.
#include "bng/properties/runner.hpp"

#include <batchnormgrad.h>

#include <bit>
#include <climits>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "bng/reference/rounding.hpp"

namespace bng::prop {
namespace {

constexpr std::size_t kAlign = 64;
// Output bytes before a call: all-ones is a NaN in both formats that no
// arithmetic produces (x86's default NaN is 0xffc00000 / 0xfe00) and no
// generated input carries, so an unwritten output is recognisable.
constexpr std::byte kSentinel{0xFF};

std::size_t elem_size(Format f) {
  return f == Format::binary32 ? 4 : 2;
}

std::size_t round_up(std::size_t n) {
  return (n + kAlign - 1) / kAlign * kAlign;
}

void store(std::byte* dst, double v, Format f) {
  if (f == Format::binary32) {
    const auto bits = std::bit_cast<std::uint32_t>(static_cast<float>(v));
    std::memcpy(dst, &bits, 4);
  } else {
    const std::uint16_t bits = ref::double_to_half_bits(v);
    std::memcpy(dst, &bits, 2);
  }
}

std::uint32_t load_bits(const std::byte* src, Format f) {
  if (f == Format::binary32) {
    std::uint32_t bits;
    std::memcpy(&bits, src, 4);
    return bits;
  }
  std::uint16_t bits;
  std::memcpy(&bits, src, 2);
  return bits;
}

double decode(std::uint32_t bits, Format f) {
  if (f == Format::binary32) return static_cast<double>(std::bit_cast<float>(bits));
  return ref::half_bits_to_double(static_cast<std::uint16_t>(bits));
}

void check_case(const Case& c) {
  const auto n = static_cast<std::size_t>(c.elements());
  const auto ch = static_cast<std::size_t>(c.channel);
  if (c.batch < 1 || c.channel < 1 || c.x.size() != n || c.dy.size() != n || c.mean.size() != ch ||
      c.invar.size() != ch || c.scale.size() != ch) {
    throw std::invalid_argument("malformed case: tensor sizes do not match batch x channel");
  }
}

template <typename Fn>
Fn symbol(Target t, const std::string& name) {
  void* p = find_symbol(t, name.c_str());
  if (p == nullptr) {
    throw std::runtime_error(std::string(target_name(t)) + " library does not export " + name);
  }
  return reinterpret_cast<Fn>(p);
}

using ParamsFp = decltype(&fp_batch_norm_grad_s);
using ParamsFpP = decltype(&fp_batch_norm_grad_p);
using ParamsHalf = decltype(&hp_batch_norm_grad_s);  // mp has the same C signature
using ParamsHalfP = decltype(&hp_batch_norm_grad_p);
using FlatFp = decltype(&fp_batchnormgrad_s);
using FlatFpP = decltype(&fp_batchnormgrad_p);
using FlatHp = decltype(&hp_batchnormgrad_s);
using FlatHpP = decltype(&hp_batchnormgrad_p);

}  // namespace

std::byte* Buffers::base() {
  const auto addr = reinterpret_cast<std::uintptr_t>(arena.data());
  return arena.data() + (round_up(addr) - addr);
}
const std::byte* Buffers::base() const {
  return const_cast<Buffers*>(this)->base();
}

RawCall Buffers::raw() {
  std::byte* b = base();
  RawCall r;
  r.x = b + x;
  r.dy = b + dy;
  r.dx = b + dx;
  r.mean = b + mean;
  r.invar = b + invar;
  r.scale = b + scale;
  r.dbias = b + dbias;
  r.dscale = b + dscale;
  r.batch = batch;
  r.channel = channel;
  r.is_train = is_train;
  return r;
}

namespace {

Buffers lay_out_impl(const Case& c, InPlace in_place) {
  check_case(c);
  Buffers b;
  b.data_elem = elem_size(data_format(c.combo));
  b.stats_elem = elem_size(stats_format(c.combo));
  b.batch = c.batch;
  b.channel = c.channel;
  b.is_train = c.is_train;
  const std::size_t data_bytes = static_cast<std::size_t>(c.elements()) * b.data_elem;
  const std::size_t stats_bytes = static_cast<std::size_t>(c.channel) * b.stats_elem;
  std::size_t at = 0;
  auto place = [&](std::size_t bytes) {
    const std::size_t off = at;
    at =
        round_up(at + bytes) + kAlign;  // a gap after each tensor: overruns land in no other tensor
    return off;
  };
  b.x = place(data_bytes);
  b.dy = place(data_bytes);
  b.dx = in_place == InPlace::dx_is_x    ? b.x
         : in_place == InPlace::dx_is_dy ? b.dy
                                         : place(data_bytes);
  b.mean = place(stats_bytes);
  b.invar = place(stats_bytes);
  b.scale = place(stats_bytes);
  b.dbias = place(stats_bytes);
  b.dscale = place(stats_bytes);
  // Gaps and unused bytes get a fixed pattern so a stray write anywhere shows
  // in a before/after comparison of the arena.
  b.arena.assign(at + kAlign, std::byte{0x5A});
  std::byte* base = b.base();
  const Format df = data_format(c.combo), sf = stats_format(c.combo);
  for (std::size_t i = 0; i < c.x.size(); ++i) store(base + b.x + i * b.data_elem, c.x[i], df);
  for (std::size_t i = 0; i < c.dy.size(); ++i) store(base + b.dy + i * b.data_elem, c.dy[i], df);
  for (std::size_t i = 0; i < c.mean.size(); ++i) {
    store(base + b.mean + i * b.stats_elem, c.mean[i], sf);
    store(base + b.invar + i * b.stats_elem, c.invar[i], sf);
    store(base + b.scale + i * b.stats_elem, c.scale[i], sf);
  }
  if (in_place == InPlace::none) std::memset(base + b.dx, 0xFF, data_bytes);
  std::memset(base + b.dbias, static_cast<int>(kSentinel), stats_bytes);
  std::memset(base + b.dscale, static_cast<int>(kSentinel), stats_bytes);
  return b;
}

}  // namespace

Buffers lay_out(const Case& c, InPlace in_place) {
  return lay_out_impl(c, in_place);
}

RunResult read_outputs(const Buffers& b, Combo combo, int status) {
  RunResult r;
  r.status = status;
  const Format df = data_format(combo), sf = stats_format(combo);
  const std::byte* base = b.base();
  const auto n = static_cast<std::size_t>(b.batch * b.channel);
  const auto ch = static_cast<std::size_t>(b.channel);
  r.dx_bits.resize(n);
  r.values.dx.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    r.dx_bits[i] = load_bits(base + b.dx + i * b.data_elem, df);
    r.values.dx[i] = decode(r.dx_bits[i], df);
  }
  r.dbias_bits.resize(ch);
  r.dscale_bits.resize(ch);
  r.values.dbias.resize(ch);
  r.values.dscale.resize(ch);
  for (std::size_t i = 0; i < ch; ++i) {
    r.dbias_bits[i] = load_bits(base + b.dbias + i * b.stats_elem, sf);
    r.dscale_bits[i] = load_bits(base + b.dscale + i * b.stats_elem, sf);
    r.values.dbias[i] = decode(r.dbias_bits[i], sf);
    r.values.dscale[i] = decode(r.dscale_bits[i], sf);
  }
  return r;
}

int invoke(const CallSpec& spec, const RawCall& call) {
  if (!exists(spec))
    throw std::invalid_argument(describe(spec) + ": SPEC 2 gives the target no such entry point");
  const std::string name = entry_point(spec);
  const bool shared = spec.storage == Storage::shared;
  const int mask = static_cast<int>(spec.core_mask);
  if (spec.form == Form::flat) {
    const int batch = static_cast<int>(call.batch), channel = static_cast<int>(call.channel);
    const int flag = static_cast<int>(call.is_train);
    if (spec.combo == Combo::fp) {
      auto x = static_cast<const float*>(call.x), dy = static_cast<const float*>(call.dy);
      auto mean = static_cast<const float*>(call.mean),
           invar = static_cast<const float*>(call.invar);
      auto scale = static_cast<const float*>(call.scale);
      auto dx = static_cast<float*>(call.dx), dbias = static_cast<float*>(call.dbias);
      auto dscale = static_cast<float*>(call.dscale);
      if (shared) {
        return symbol<FlatFp>(spec.target, name)(x, dy, mean, invar, scale, batch, channel, flag,
                                                 dx, dbias, dscale, mask);
      }
      return symbol<FlatFpP>(spec.target, name)(x, dy, mean, invar, scale, batch, channel, flag, dx,
                                                dbias, dscale);
    }
    auto x = static_cast<const half*>(call.x), dy = static_cast<const half*>(call.dy);
    auto mean = static_cast<const half*>(call.mean), invar = static_cast<const half*>(call.invar);
    auto scale = static_cast<const half*>(call.scale);
    auto dx = static_cast<half*>(call.dx), dbias = static_cast<half*>(call.dbias);
    auto dscale = static_cast<half*>(call.dscale);
    if (shared) {
      return symbol<FlatHp>(spec.target, name)(x, dy, mean, invar, scale, batch, channel, flag, dx,
                                               dbias, dscale, mask);
    }
    return symbol<FlatHpP>(spec.target, name)(x, dy, mean, invar, scale, batch, channel, flag, dx,
                                              dbias, dscale);
  }

  // The seed leaves slots 8..11 uninitialised; garbage there must not matter.
  alignas(alignof(long long)) std::byte storage[(BNG_PARAM_COUNT + 1) * sizeof(long long)];
  long long slots[BNG_PARAM_COUNT];
  slots[BNG_PARAM_MEAN] = static_cast<long long>(reinterpret_cast<std::uintptr_t>(call.mean));
  slots[BNG_PARAM_INVAR] = static_cast<long long>(reinterpret_cast<std::uintptr_t>(call.invar));
  slots[BNG_PARAM_SCALE] = static_cast<long long>(reinterpret_cast<std::uintptr_t>(call.scale));
  slots[BNG_PARAM_DBIAS] = static_cast<long long>(reinterpret_cast<std::uintptr_t>(call.dbias));
  slots[BNG_PARAM_DSCALE] = static_cast<long long>(reinterpret_cast<std::uintptr_t>(call.dscale));
  slots[BNG_PARAM_BATCH] = call.batch;
  slots[BNG_PARAM_CHANNEL] = call.channel;
  slots[BNG_PARAM_IS_TRAIN] = call.is_train;
  for (int i = 8; i < BNG_PARAM_COUNT; ++i)
    slots[i] = static_cast<long long>(0xDEADBEEFCAFEF00DULL) - i;
  const std::size_t shift = call.params == RawCall::Params::misaligned ? 4 : 0;
  std::memcpy(storage + shift, slots, sizeof slots);
  const long long* params = call.params == RawCall::Params::null
                                ? nullptr
                                : reinterpret_cast<const long long*>(storage + shift);

  if (spec.combo == Combo::fp) {
    auto x = static_cast<const float*>(call.x), dy = static_cast<const float*>(call.dy);
    auto dx = static_cast<float*>(call.dx);
    if (shared) return symbol<ParamsFp>(spec.target, name)(x, dy, dx, params, mask);
    return symbol<ParamsFpP>(spec.target, name)(x, dy, dx, params);
  }
  auto x = static_cast<const half*>(call.x), dy = static_cast<const half*>(call.dy);
  auto dx = static_cast<half*>(call.dx);
  if (shared) return symbol<ParamsHalf>(spec.target, name)(x, dy, dx, params, mask);
  return symbol<ParamsHalfP>(spec.target, name)(x, dy, dx, params);
}

RunResult run(const Case& c, const CallSpec& spec, InPlace in_place) {
  if (!exists(spec))
    throw std::invalid_argument(describe(spec) + ": SPEC 2 gives the target no such entry point");
  if (c.combo != spec.combo) throw std::invalid_argument("case combo differs from the call's");
  Buffers b = lay_out_impl(c, in_place);
  const std::vector<std::byte> before = b.arena;
  const int status = invoke(spec, b.raw());
  RunResult r = read_outputs(b, c.combo, status);
  // Everything but the three outputs must come back as it went in.
  const std::size_t shift = static_cast<std::size_t>(b.base() - b.arena.data());
  const std::size_t data_bytes = static_cast<std::size_t>(c.elements()) * b.data_elem;
  const std::size_t stats_bytes = static_cast<std::size_t>(c.channel) * b.stats_elem;
  auto in = [&](std::size_t i, std::size_t off, std::size_t len) {
    return i >= shift + off && i < shift + off + len;
  };
  for (std::size_t i = 0; i < before.size() && !r.clobbered; ++i) {
    if (before[i] == b.arena[i] || in(i, b.dx, data_bytes) || in(i, b.dbias, stats_bytes) ||
        in(i, b.dscale, stats_bytes)) {
      continue;
    }
    r.clobbered = true;
  }
  return r;
}

}  // namespace bng::prop
