// Scratch arrays that start on cache lines. The hot loops load and store
// whole vectors of per-lane scratch (coefficients in pass 2, block sums in
// pass 1) at every step. From a plain std::vector (16-byte aligned) an
// AVX-512 vector of it spans two cache lines at some heap offsets, which
// depend on what the process allocated before; with the scratch 16 or 32
// bytes off a line the same calls ran 2-20 % slower (docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace bng::opt {

inline constexpr std::size_t kCacheLineBytes = 64;

// std::allocator, aligned to a cache line (C++17 aligned new).
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{kCacheLineBytes};

  CacheLineAllocator() = default;
  template <class U>
  explicit CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlignment)); }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, kAlignment); }
  friend bool operator==(const CacheLineAllocator&, const CacheLineAllocator&) { return true; }
};

template <class T>
using CacheAlignedVector = std::vector<T, CacheLineAllocator<T>>;

// The distance, in elements of T, from one array to the next in a scratch
// vector holding several arrays of n elements each: n rounded up to whole
// cache lines, so that every array starts on one.
template <class T>
constexpr std::int64_t cache_lines_length(std::int64_t n) {
  constexpr auto kPerLine = static_cast<std::int64_t>(kCacheLineBytes / sizeof(T));
  return (n + kPerLine - 1) / kPerLine * kPerLine;
}

}  // namespace bng::opt
