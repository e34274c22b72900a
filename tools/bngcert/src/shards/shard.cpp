#include "shard.hpp"

#include <charconv>

#include <fmt/format.h>

namespace bng::cert {

std::string Shard::label() const {
  return fmt::format("{}/{}", index, count);
}

std::optional<Shard> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  Shard s;
  const auto whole = [](std::string_view digits, int& v) {
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    return ec == std::errc() && end == digits.data() + digits.size() && !digits.empty();
  };
  if (!whole(text.substr(0, slash), s.index) || !whole(text.substr(slash + 1), s.count)) {
    return std::nullopt;
  }
  if (s.count < 1 || s.count > kMaxShards || s.index < 1 || s.index > s.count) return std::nullopt;
  return s;
}

}  // namespace bng::cert
