#include "scene.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace bng::test {

namespace {
constexpr std::size_t kAlign = 64;
// Region i holds buffer i-1; regions 0 and kBufCount+1 are guards, so a
// buffer moved to end where another starts still lies inside the arena.
constexpr std::size_t kRegions = kBufCount + 2;
std::size_t idx(Buf b) {
  return static_cast<std::size_t>(b);
}
}  // namespace

const char* name(Buf b) {
  static constexpr const char* kNames[] = {"x",     "dy",    "dx",     "mean",  "invar",
                                           "scale", "dbias", "dscale", "params"};
  return kNames[idx(b)];
}

bool is_output(Buf b) {
  return b == Buf::dx || b == Buf::dbias || b == Buf::dscale;
}

Scene::Scene(const EntryPoint& entry, long long batch_, long long channel_)
    : batch(batch_),
      channel(channel_),
      entry_(entry),
      nominal_elements_(static_cast<std::size_t>(batch_ * channel_)),
      nominal_channel_(static_cast<std::size_t>(channel_)) {
  std::size_t largest = kParamsBytesRead + 32;  // the whole 12-slot array
  largest = std::max(largest, static_cast<std::size_t>(batch * channel) * entry.sizes.data);
  largest = std::max(largest, static_cast<std::size_t>(channel) * entry.sizes.stats);
  // Twice the largest buffer, so a buffer moved to start inside another's
  // last bytes (or to end inside its first) stays in free space.
  region_ = (2 * largest + kAlign - 1) / kAlign * kAlign;
  arena_bytes_ = kRegions * region_;
  storage_ = std::make_unique<unsigned char[]>(arena_bytes_ + kAlign);
  const auto base = reinterpret_cast<std::uintptr_t>(storage_.get());
  arena_ = storage_.get() + (kAlign - base % kAlign) % kAlign;
  // A varied canary: no byte value is more likely than another, so a write of
  // any constant is seen.
  for (std::size_t i = 0; i < arena_bytes_; ++i) {
    arena_[i] = static_cast<unsigned char>((i * 151 + 0x5a) ^ (i >> 8));
  }
  for (std::size_t b = 0; b < kBufCount; ++b) at_[b] = home(static_cast<Buf>(b));
}

std::uintptr_t Scene::home(Buf b) const {
  return reinterpret_cast<std::uintptr_t>(arena_) + (idx(b) + 1) * region_;
}

std::size_t Scene::element_size(Buf b) const {
  switch (b) {
    case Buf::x:
    case Buf::dy:
    case Buf::dx:
      return entry_.sizes.data;
    case Buf::params:
      return sizeof(long long);
    default:
      return entry_.sizes.stats;
  }
}

std::size_t Scene::bytes(Buf b) const {
  switch (b) {
    case Buf::x:
    case Buf::dy:
    case Buf::dx:
      return nominal_elements_ * entry_.sizes.data;
    case Buf::params:
      return kParamsBytesRead;
    default:
      return nominal_channel_ * entry_.sizes.stats;
  }
}

Call Scene::prepare() {
  const std::uintptr_t p = at(Buf::params);
  const auto begin = reinterpret_cast<std::uintptr_t>(arena_);
  if (p >= begin && p - begin <= arena_bytes_ - kParamsBytesRead) {
    const long long slots[8] = {static_cast<long long>(at(Buf::mean)),
                                static_cast<long long>(at(Buf::invar)),
                                static_cast<long long>(at(Buf::scale)),
                                static_cast<long long>(at(Buf::dbias)),
                                static_cast<long long>(at(Buf::dscale)),
                                batch,
                                channel,
                                is_train};
    std::memcpy(reinterpret_cast<void*>(p), slots, sizeof slots);
  }
  auto ptr = [this](Buf b) { return reinterpret_cast<void*>(at(b)); };
  return Call{
      ptr(Buf::x),     ptr(Buf::dy),     ptr(Buf::dx),
      ptr(Buf::mean),  ptr(Buf::invar),  ptr(Buf::scale),
      ptr(Buf::dbias), ptr(Buf::dscale), reinterpret_cast<const long long*>(at(Buf::params)),
      batch,           channel,          is_train,
      core_mask};
}

std::vector<unsigned char> Scene::snapshot() const {
  return std::vector<unsigned char>(arena_, arena_ + arena_bytes_);
}

std::string Scene::first_difference(const std::vector<unsigned char>& before) const {
  for (std::size_t i = 0; i < arena_bytes_; ++i) {
    if (before[i] == arena_[i]) continue;
    const std::size_t region = i / region_;
    const char* where =
        region == 0 || region == kRegions - 1 ? "guard" : name(static_cast<Buf>(region - 1));
    char text[160];
    std::snprintf(text, sizeof text,
                  "byte %zu of the %s region (arena offset %zu) changed from 0x%02x to 0x%02x",
                  i % region_, where, i, before[i], arena_[i]);
    return text;
  }
  return "";
}

std::string Scene::describe() const {
  std::string s = std::string(entry_.name) + "(";
  const auto begin = reinterpret_cast<std::uintptr_t>(arena_);
  char text[96];
  for (std::size_t b = 0; b < kBufCount; ++b) {
    const std::uintptr_t a = at_[b];
    if (entry_.form == Form::flat && static_cast<Buf>(b) == Buf::params) continue;
    if (a >= begin && a < begin + arena_bytes_) {
      std::snprintf(text, sizeof text, "%s=arena+%zu ", name(static_cast<Buf>(b)),
                    static_cast<std::size_t>(a - begin));
    } else {
      std::snprintf(text, sizeof text, "%s=0x%jx ", name(static_cast<Buf>(b)),
                    static_cast<std::uintmax_t>(a));
    }
    s += text;
  }
  std::snprintf(text, sizeof text, "batch=%lld channel=%lld is_train=%lld", batch, channel,
                is_train);
  s += text;
  if (entry_.has_core_mask) {
    std::snprintf(text, sizeof text, " core_mask=0x%x", static_cast<unsigned>(core_mask));
    s += text;
  }
  std::snprintf(text, sizeof text, ") [arena region %zu bytes]", region_);
  return s + text;
}

}  // namespace bng::test
