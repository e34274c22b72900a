#include "workload.hpp"

#include <sys/mman.h>

#include <bit>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <string_view>
#include <tuple>

#include "bng/binary16.hpp"

namespace bng::bench {
namespace {

// Binary16 bits of a float known to be a binary16 value (every value filled
// below is, by construction), so no rounding.
std::uint16_t exact_half_bits(float v) {
  return binary16::exact_from_double(v).value();
}

// Values k/256 with |k| <= 512: exact in binary16, so the f16 and f32
// workloads hold the same numbers; a multiplicative hash keeps them from
// being constant (which a kernel could in principle exploit).
float data_value(std::uint64_t i, std::uint32_t salt) {
  const std::uint32_t h = (static_cast<std::uint32_t>(i) ^ salt) * 0x9E3779B1u;
  return static_cast<float>(static_cast<int>(h >> 22) - 512) / 256.0f;
}

constexpr std::size_t kHugePage = std::size_t{2} << 20;

Bytes allocate(std::int64_t bytes) {
  // With huge pages, a buffer of at least one huge page starts on one and asks
  // the kernel for them (transparent huge pages in "madvise" mode, Debian's
  // default): fewer TLB misses on large tensors, as a harness that places its
  // buffers on huge pages sees.
  const bool huge = huge_pages() && static_cast<std::size_t>(bytes) >= kHugePage;
  const std::size_t align = huge ? kHugePage : 64;
  const auto rounded = (static_cast<std::size_t>(bytes) + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded);
  if (p == nullptr) throw std::bad_alloc();
  if (huge) ::madvise(p, rounded, MADV_HUGEPAGE);  // advice: the kernel may decline
  // Touch every page now so that no page fault lands inside a timed loop.
  std::memset(p, 0, rounded);
  return Bytes(static_cast<unsigned char*>(p));
}

template <typename T, typename Convert>
void fill(T* out, std::int64_t n, std::uint32_t salt, Convert convert) {
  for (std::int64_t i = 0; i < n; ++i)
    out[i] = convert(data_value(static_cast<std::uint64_t>(i), salt));
}

void build(Workload& w, Shape shape, DataType type) {
  const std::int64_t n = shape.elements();
  const std::int64_t width = type == DataType::f32 ? 4 : 2;
  w.shape = shape;
  w.type = type;
  w.x = allocate(n * width);
  w.dy = allocate(n * width);
  w.dx = allocate(n * width);
  if (type == DataType::f32) {
    fill(w.as<float>(w.x), n, 0x1234u, [](float v) { return v; });
    fill(w.as<float>(w.dy), n, 0xabcdu, [](float v) { return v; });
  } else {
    fill(w.as<std::uint16_t>(w.x), n, 0x1234u, exact_half_bits);
    fill(w.as<std::uint16_t>(w.dy), n, 0xabcdu, exact_half_bits);
  }
  const auto c = static_cast<std::size_t>(shape.channel);
  w.mean.resize(c);
  w.invar.resize(c);
  w.scale.resize(c);
  w.variance.resize(c);
  w.shift.assign(c, 0.0f);
  w.dbias.assign(c, 0.0f);
  w.dscale.assign(c, 0.0f);
  w.mean_h.resize(c);
  w.invar_h.resize(c);
  w.scale_h.resize(c);
  w.dbias_h.assign(c, 0);
  w.dscale_h.assign(c, 0);
  for (std::size_t i = 0; i < c; ++i) {
    w.mean[i] = static_cast<float>(static_cast<int>(i % 16) - 8) / 32.0f;
    w.invar[i] = 1.0f + static_cast<float>(i % 8) / 8.0f;
    w.scale[i] = 0.5f + static_cast<float>(i % 4) / 4.0f;
    w.variance[i] = 1.0f / (w.invar[i] * w.invar[i]) - kEpsilon;
    w.mean_h[i] = exact_half_bits(w.mean[i]);
    w.invar_h[i] = exact_half_bits(w.invar[i]);
    w.scale_h[i] = exact_half_bits(w.scale[i]);
  }
}

}  // namespace

bool huge_pages() {
  static const bool on = [] {
    const char* v = std::getenv("BNG_BENCH_HUGE_PAGES");
    return v != nullptr && std::string_view(v) == "1";
  }();
  return on;
}

Workload& workload(Shape shape, DataType type) {
  static std::map<std::tuple<std::int64_t, std::int64_t, DataType>, Workload> cache;
  const auto key = std::make_tuple(shape.batch, shape.channel, type);
  auto it = cache.find(key);
  if (it == cache.end()) {
    it = cache.emplace(key, Workload{}).first;
    build(it->second, shape, type);
  }
  return it->second;
}

}  // namespace bng::bench
