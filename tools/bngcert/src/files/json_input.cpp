#include "json_input.hpp"

#include <set>
#include <vector>

namespace bng::cert {

using nlohmann::json;

namespace {

// Thrown from the parser's callback, which nlohmann lets through.
struct Refused : InputError {
  using InputError::InputError;
};

// Counts the depth of a CBOR item without building it: returning false stops
// nlohmann's (recursive) binary reader before it goes any deeper.
class DepthProbe : public nlohmann::json_sax<json> {
 public:
  bool too_deep = false;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return enter(); }
  bool key(string_t&) override { return true; }
  bool end_object() override { return leave(); }
  bool start_array(std::size_t) override { return enter(); }
  bool end_array() override { return leave(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  int depth_ = 0;
  bool enter() {
    if (++depth_ > kMaxJsonDepth) too_deep = true;
    return !too_deep;
  }
  bool leave() {
    --depth_;
    return true;
  }
};

std::string type_word(const json& v) {
  return v.is_null() ? "null" : std::string(v.type_name());
}

}  // namespace

json parse_json(std::string_view text, const std::string& name) {
  // The keys seen so far in each object being read, innermost last.
  std::vector<std::set<std::string>> keys;
  const json::parser_callback_t check = [&](int depth, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (depth >= kMaxJsonDepth) {
          throw Refused(
              fmt::format("{}: nested deeper than {} levels: refused", name, kMaxJsonDepth));
        }
        if (event == json::parse_event_t::object_start) keys.emplace_back();
        break;
      case json::parse_event_t::key:
        if (!keys.back().insert(parsed.get<std::string>()).second) {
          throw Refused(
              fmt::format("{}: the key \"{}\" appears twice in one object: refused "
                          "(a reader could take either value)",
                          name, parsed.get<std::string>()));
        }
        break;
      case json::parse_event_t::object_end:
        keys.pop_back();
        break;
      default:
        break;
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), check);
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: not valid JSON ({})", name, e.what()));
  }
}

json read_json_file(const std::filesystem::path& path, std::uint64_t max_bytes, Links links) {
  return parse_json(read_text_file(path, max_bytes, links), path.string());
}

json parse_cbor(std::span<const std::uint8_t> bytes, const std::string& name) {
  DepthProbe probe;
  const bool ok = json::sax_parse(bytes.begin(), bytes.end(), &probe, json::input_format_t::cbor);
  if (probe.too_deep) {
    throw InputError(fmt::format("{}: nested deeper than {} levels: refused", name, kMaxJsonDepth));
  }
  if (!ok) throw InputError(fmt::format("{}: not valid CBOR", name));
  try {
    return json::from_cbor(bytes.begin(), bytes.end());
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: not valid CBOR ({})", name, e.what()));
  }
}

namespace {

// differing_keys below `prefix`, the place of the two in the whole document
// ("" at the top). Recursive: the depth is bounded by kMaxJsonDepth, checked
// when parsed.
std::string differing_keys_under(const json& found, const json& expected, KeyValues values,
                                 const std::string& prefix) {
  const bool shown = values == KeyValues::shown;
  const auto both = [&](const std::string& e, const std::string& f) {
    return shown ? fmt::format(" ({} vs {})", e, f) : std::string();
  };
  if (!found.is_object() || !expected.is_object()) {
    return (prefix.empty() ? "(the whole)" : prefix) + both(expected.dump(), found.dump());
  }
  std::string out;
  const auto add = [&](const std::string& k) { out += (out.empty() ? "" : ", ") + k; };
  const auto name = [&](const std::string& key) {
    return prefix.empty() ? key : prefix + "." + key;
  };
  for (const auto& [key, v] : expected.items()) {
    if (!found.contains(key)) {
      add(name(key) + (shown ? both(v.dump(), "absent") : " (missing)"));
    } else if (found[key] != v) {
      add(differing_keys_under(found[key], v, values, name(key)));
    }
  }
  for (const auto& [key, v] : found.items()) {
    if (!expected.contains(key)) add(name(key) + (shown ? both("absent", v.dump()) : " (extra)"));
  }
  return out;
}

}  // namespace

std::string differing_keys(const json& found, const json& expected, KeyValues values) {
  return differing_keys_under(found, expected, values, "");
}

bool has_member(const json& object, std::string_view key) {
  return object.is_object() && object.contains(key);
}

const json& member(const json& object, std::string_view key, const std::string& where) {
  if (!object.is_object()) {
    throw InputError(fmt::format("{}: expected a JSON object, found {}", where, type_word(object)));
  }
  const auto it = object.find(key);
  if (it == object.end()) throw InputError(fmt::format("{}: '{}' is missing", where, key));
  return *it;
}

std::string string_field(const json& object, std::string_view key, const std::string& where) {
  const json& v = member(object, key, where);
  if (!v.is_string()) {
    throw InputError(fmt::format("{}: '{}' must be a string, not {}", where, key, type_word(v)));
  }
  return v.get<std::string>();
}

bool bool_field(const json& object, std::string_view key, const std::string& where) {
  const json& v = member(object, key, where);
  if (!v.is_boolean()) {
    throw InputError(fmt::format("{}: '{}' must be true or false, not {}", where, key, v.dump()));
  }
  return v.get<bool>();
}

const json& object_field(const json& object, std::string_view key, const std::string& where) {
  const json& v = member(object, key, where);
  if (!v.is_object()) {
    throw InputError(fmt::format("{}: '{}' must be an object, not {}", where, key, type_word(v)));
  }
  return v;
}

const json& array_field(const json& object, std::string_view key, const std::string& where) {
  const json& v = member(object, key, where);
  if (!v.is_array()) {
    throw InputError(fmt::format("{}: '{}' must be an array, not {}", where, key, type_word(v)));
  }
  return v;
}

}  // namespace bng::cert
