// JSON and CBOR that bngcert reads from files it did not write in this run:
// parsed with limits, so that a hostile file is refused with a message
// instead of crashing or misleading the tool.
//   - nesting deeper than kMaxJsonDepth is refused (the recursive parts of
//     nlohmann, dump and comparison, would otherwise overflow the stack);
//   - a key repeated within one object is refused (which of the two a reader
//     takes is a matter of library detail: "verdict" given twice must not
//     verify);
//   - fields are read through the *_field helpers, which check type and range
//     and name the file and the field when either is wrong.
#pragma once

#include <concepts>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "input_file.hpp"

namespace bng::cert {

// Deeper than anything bngcert writes (report.json: 7 levels).
inline constexpr int kMaxJsonDepth = 64;

// `name` is the file (or file and place) the text came from, for messages.
// Throws InputError.
nlohmann::json parse_json(std::string_view text, const std::string& name);
nlohmann::json read_json_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                              Links links = Links::follow);
// The same limits for CBOR (tally.cbor): depth checked before it is decoded.
nlohmann::json parse_cbor(std::span<const std::uint8_t> bytes, const std::string& name);

// The keys in which `found` differs from `expected`, for a message:
// "files.x.npy.sha256, seed (missing), note (extra)"; "(the whole)" when
// either is not an object. With KeyValues::shown, each with both values,
// expected's first: "seed (5 vs 6), note (absent vs \"x\")".
enum class KeyValues : bool { hidden, shown };
std::string differing_keys(const nlohmann::json& found, const nlohmann::json& expected,
                           KeyValues values = KeyValues::hidden);

// `where` names the file and the place in it ("pack.json: case #3").
const nlohmann::json& member(const nlohmann::json& object, std::string_view key,
                             const std::string& where);
bool has_member(const nlohmann::json& object, std::string_view key);

// An integer in [lo, hi]: any other type or value is an InputError, never a
// wrap-around (a status of 2^32 is not 0).
template <std::integral T>
T int_value(const nlohmann::json& v, T lo, T hi, const std::string& what) {
  bool ok = false;
  T out{};
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    ok = std::cmp_greater_equal(u, lo) && std::cmp_less_equal(u, hi);
    out = static_cast<T>(u);
  } else if (v.is_number_integer()) {
    const auto s = v.get<std::int64_t>();
    ok = std::cmp_greater_equal(s, lo) && std::cmp_less_equal(s, hi);
    out = static_cast<T>(s);
  }
  if (!ok) {
    throw InputError(
        fmt::format("{} must be an integer in [{}, {}], not {}", what, lo, hi, v.dump()));
  }
  return out;
}

template <std::integral T>
T int_field(const nlohmann::json& object, std::string_view key, T lo, T hi,
            const std::string& where) {
  return int_value<T>(member(object, key, where), lo, hi, fmt::format("{}: '{}'", where, key));
}

std::string string_field(const nlohmann::json& object, std::string_view key,
                         const std::string& where);
bool bool_field(const nlohmann::json& object, std::string_view key, const std::string& where);
const nlohmann::json& object_field(const nlohmann::json& object, std::string_view key,
                                   const std::string& where);
const nlohmann::json& array_field(const nlohmann::json& object, std::string_view key,
                                  const std::string& where);

}  // namespace bng::cert
