#include "tally_codec.hpp"

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "json_input.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

// Measure::reason points at a static string; a decoded one lives here for the
// rest of the process.
const char* interned(const std::string& s) {
  static std::mutex mutex;
  static std::set<std::string> strings;
  std::lock_guard lock(mutex);
  return strings.insert(s).first->c_str();
}

json bits(double v) {
  return std::bit_cast<std::uint64_t>(v);
}
double from_bits(const json& j) {
  return std::bit_cast<double>(j.get<std::uint64_t>());
}

// %La is exact for every long double, and strtold reads it back exactly.
json long_hex(long double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%La", v);
  return std::string(buf);
}
long double from_long_hex(const json& j) {
  const std::string s = j.get<std::string>();
  char* end = nullptr;
  const long double v = std::strtold(s.c_str(), &end);
  if (end != s.c_str() + s.size()) throw std::runtime_error("bad long double '" + s + "'");
  return v;
}

json doubles(const std::vector<double>& v) {
  std::vector<std::uint8_t> bytes(v.size() * sizeof(double));
  if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
  return json::binary(std::move(bytes));
}
std::vector<double> from_doubles(const json& j) {
  const auto& bytes = j.get_binary();
  if (bytes.size() % sizeof(double) != 0) throw std::runtime_error("array of partial doubles");
  std::vector<double> v(bytes.size() / sizeof(double));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

template <class E>
json enum_value(E e) {
  return static_cast<int>(e);
}
// An enumerator read back is checked against `limit`, the count of the
// enum's enumerators (targets travel by registry name instead).
template <class E>
E to_enum(const json& j, int limit) {
  const int v = j.get<int>();
  if (v < 0 || v >= limit) throw std::runtime_error(fmt::format("enumerator {} out of range", v));
  return static_cast<E>(v);
}

prop::Target to_target(const json& j) {
  const auto t = prop::find_target(j.at("name").get<std::string>());
  if (!t) throw std::runtime_error("target " + j.dump() + " is not one this bngcert knows");
  return *t;
}
json target_json(prop::Target t) {
  return {{"name", prop::target_name(t)}};
}

json metric_counts(const MetricCounts& m) {
  return {m.compared,     m.correctly_rounded,   m.within_1ulp,        m.rel_over_1e3,
          m.rel_over_1e4, bits(m.max_abs_error), bits(m.max_rel_error)};
}
MetricCounts to_metric_counts(const json& j) {
  MetricCounts m;
  m.compared = j.at(0).get<std::int64_t>();
  m.correctly_rounded = j.at(1).get<std::int64_t>();
  m.within_1ulp = j.at(2).get<std::int64_t>();
  m.rel_over_1e3 = j.at(3).get<std::int64_t>();
  m.rel_over_1e4 = j.at(4).get<std::int64_t>();
  m.max_abs_error = from_bits(j.at(5));
  m.max_rel_error = from_bits(j.at(6));
  return m;
}

json stats(const Stats& s) {
  return {{"outputs", s.outputs},
          {"fails", s.fails},
          {"exact", s.exact},
          {"nan_refs", s.nan_refs},
          {"nonfinite_refs", s.nonfinite_refs},
          {"max_ulp_error", bits(s.max_ulp_error)},
          {"max_normalised_error", bits(s.max_normalised_error)},
          {"max_kappa", bits(s.max_kappa)},
          {"zero_refs", s.zero_refs},
          {"max_bound_use", bits(s.max_bound_use)},
          {"metrics", metric_counts(s.metrics)}};
}
Stats to_stats(const json& j) {
  Stats s;
  s.outputs = j.at("outputs").get<std::int64_t>();
  s.fails = j.at("fails").get<std::int64_t>();
  s.exact = j.at("exact").get<std::int64_t>();
  s.nan_refs = j.at("nan_refs").get<std::int64_t>();
  s.nonfinite_refs = j.at("nonfinite_refs").get<std::int64_t>();
  s.max_ulp_error = from_bits(j.at("max_ulp_error"));
  s.max_normalised_error = from_bits(j.at("max_normalised_error"));
  s.max_kappa = from_bits(j.at("max_kappa"));
  s.zero_refs = j.at("zero_refs").get<std::int64_t>();
  s.max_bound_use = from_bits(j.at("max_bound_use"));
  s.metrics = to_metric_counts(j.at("metrics"));
  return s;
}

json spec_json(const prop::CallSpec& s) {
  return {{"target", target_json(s.target)},
          {"combo", enum_value(s.combo)},
          {"storage", enum_value(s.storage)},
          {"form", enum_value(s.form)},
          {"core_mask", s.core_mask}};
}
prop::CallSpec to_spec(const json& j) {
  prop::CallSpec s;
  s.target = to_target(j.at("target"));
  s.combo = to_enum<Combo>(j.at("combo"), 3);
  s.storage = to_enum<prop::Storage>(j.at("storage"), 2);
  s.form = to_enum<prop::Form>(j.at("form"), 2);
  s.core_mask = j.at("core_mask").get<unsigned>();
  return s;
}

json origin_json(const Origin& o) {
  return {{"family", o.family},
          {"seed", o.seed},
          {"size", o.size},
          {"case_index", o.case_index},
          {"spec", o.spec ? spec_json(*o.spec) : json(nullptr)},
          {"channel_offset", o.channel_offset},
          {"channel_total", o.channel_total},
          {"case_name", o.case_name}};
}
Origin to_origin(const json& j) {
  Origin o;
  o.family = j.at("family").get<std::string>();
  o.seed = j.at("seed").get<std::uint64_t>();
  o.size = j.at("size").get<int>();
  o.case_index = j.at("case_index").get<std::int64_t>();
  if (!j.at("spec").is_null()) o.spec = to_spec(j.at("spec"));
  o.channel_offset = j.at("channel_offset").get<std::int64_t>();
  o.channel_total = j.at("channel_total").get<std::int64_t>();
  o.case_name = j.at("case_name").get<std::string>();
  return o;
}

json failure(const Failure& f) {
  const ref::Expected& e = f.expected;
  const Measure& m = f.sample.m;
  return {
      {"order", f.order},
      {"origin", origin_json(f.origin)},
      {"output", enum_value(f.output)},
      {"combo", enum_value(f.combo)},
      {"is_train", f.is_train},
      {"batch", f.batch},
      {"channel", f.channel},
      {"n", f.n},
      {"c", f.c},
      {"y", bits(f.y)},
      {"expected",
       {bits(e.rounded), long_hex(e.exact), long_hex(e.magnitude), bits(e.ulp),
        enum_value(e.kind)}},
      {"measure", {bits(m.ulp_error), bits(m.normalised_error), bits(m.kappa), m.pass, m.reason}},
      {"kind", enum_value(f.sample.kind)},
      {"bound_use", bits(f.sample.bound_use)}};
}
Failure to_failure(const json& j) {
  Failure f;
  f.order = j.at("order").get<std::uint64_t>();
  f.origin = to_origin(j.at("origin"));
  f.output = to_enum<Output>(j.at("output"), 3);
  f.combo = to_enum<Combo>(j.at("combo"), 3);
  f.is_train = j.at("is_train").get<int>();
  f.batch = j.at("batch").get<std::int64_t>();
  f.channel = j.at("channel").get<std::int64_t>();
  f.n = j.at("n").get<std::int64_t>();
  f.c = j.at("c").get<std::int64_t>();
  f.y = from_bits(j.at("y"));
  const json& e = j.at("expected");
  f.expected.rounded = from_bits(e.at(0));
  f.expected.exact = from_long_hex(e.at(1));
  f.expected.magnitude = from_long_hex(e.at(2));
  f.expected.ulp = from_bits(e.at(3));
  f.expected.kind = to_enum<ref::Kind>(e.at(4), 3);
  const json& m = j.at("measure");
  f.sample.m.ulp_error = from_bits(m.at(0));
  f.sample.m.normalised_error = from_bits(m.at(1));
  f.sample.m.kappa = from_bits(m.at(2));
  f.sample.m.pass = m.at(3).get<bool>();
  f.sample.m.reason = interned(m.at(4).get<std::string>());
  f.sample.kind = to_enum<ref::Kind>(j.at("kind"), 3);
  f.sample.bound_use = from_bits(j.at("bound_use"));
  return f;
}

json worst(const Worst& w) {
  if (!w.valid()) return nullptr;
  const Case& c = w.c;
  return {{"where", failure(w.where)},
          {"case",
           {{"combo", enum_value(c.combo)},
            {"batch", c.batch},
            {"channel", c.channel},
            {"is_train", c.is_train},
            {"x", doubles(c.x)},
            {"dy", doubles(c.dy)},
            {"mean", doubles(c.mean)},
            {"invar", doubles(c.invar)},
            {"scale", doubles(c.scale)}}},
          {"got",
           {{"dx", doubles(w.got.dx)},
            {"dbias", doubles(w.got.dbias)},
            {"dscale", doubles(w.got.dscale)}}}};
}
Worst to_worst(const json& j) {
  Worst w;
  if (j.is_null()) return w;
  w.where = to_failure(j.at("where"));
  const json& c = j.at("case");
  w.c.combo = to_enum<Combo>(c.at("combo"), 3);
  w.c.batch = c.at("batch").get<std::int64_t>();
  w.c.channel = c.at("channel").get<std::int64_t>();
  w.c.is_train = c.at("is_train").get<int>();
  w.c.x = from_doubles(c.at("x"));
  w.c.dy = from_doubles(c.at("dy"));
  w.c.mean = from_doubles(c.at("mean"));
  w.c.invar = from_doubles(c.at("invar"));
  w.c.scale = from_doubles(c.at("scale"));
  const json& g = j.at("got");
  w.got.dx = from_doubles(g.at("dx"));
  w.got.dbias = from_doubles(g.at("dbias"));
  w.got.dscale = from_doubles(g.at("dscale"));
  return w;
}

json fault_map(const FaultMap& m) {
  return {{"fails", m.fails},
          {"cells", m.cells},
          {"by_lane", m.by_lane},
          {"by_part", m.by_part},
          {"vector_lanes", m.vector_lanes}};
}
FaultMap to_fault_map(const json& j) {
  FaultMap m;
  m.fails = j.at("fails").get<std::int64_t>();
  m.cells = j.at("cells").get<decltype(m.cells)>();
  m.by_lane = j.at("by_lane").get<decltype(m.by_lane)>();
  m.by_part = j.at("by_part").get<decltype(m.by_part)>();
  m.vector_lanes = j.at("vector_lanes").get<int>();
  return m;
}

json output_tally(const OutputTally& t) {
  json bins = json::array(), cells = json::array(), families = json::array(),
       failures = json::array(), sums = json::array();
  for (const auto& [k, n] : t.histogram.bins) bins.push_back({k, n});
  for (const auto& [k, c] : t.density.cells) cells.push_back({k.first, k.second, c.pass, c.fail});
  for (const auto& [k, s] : t.by_family) families.push_back({k.first, k.second, stats(s)});
  for (const auto& f : t.failures) failures.push_back(failure(f));
  for (const auto& [order, s] : t.metric_sums) {
    sums.push_back(
        {order, long_hex(s.yy), long_hex(s.ee), long_hex(s.ye), long_hex(s.rel), s.rel_n});
  }
  return {{"all", stats(t.all)},
          {"histogram", {t.histogram.zero, t.histogram.infinite, bins}},
          {"density", cells},
          {"by_family", families},
          {"worst", worst(t.worst)},
          {"failures", failures},
          {"faults", fault_map(t.faults)},
          {"metric_sums", sums}};
}
OutputTally to_output_tally(const json& j) {
  OutputTally t;
  t.all = to_stats(j.at("all"));
  const json& h = j.at("histogram");
  t.histogram.zero = h.at(0).get<std::int64_t>();
  t.histogram.infinite = h.at(1).get<std::int64_t>();
  for (const auto& b : h.at(2)) t.histogram.bins[b.at(0).get<int>()] = b.at(1).get<std::int64_t>();
  for (const auto& c : j.at("density")) {
    t.density.cells[{c.at(0).get<int>(), c.at(1).get<int>()}] = {c.at(2).get<std::int64_t>(),
                                                                 c.at(3).get<std::int64_t>()};
  }
  for (const auto& f : j.at("by_family")) {
    t.by_family[{f.at(0).get<std::string>(), f.at(1).get<int>()}] = to_stats(f.at(2));
  }
  t.worst = to_worst(j.at("worst"));
  for (const auto& f : j.at("failures")) t.failures.push_back(to_failure(f));
  t.faults = to_fault_map(j.at("faults"));
  for (const auto& s : j.at("metric_sums")) {
    MetricSums m;
    m.yy = from_long_hex(s.at(1));
    m.ee = from_long_hex(s.at(2));
    m.ye = from_long_hex(s.at(3));
    m.rel = from_long_hex(s.at(4));
    m.rel_n = s.at(5).get<std::int64_t>();
    t.metric_sums[s.at(0).get<std::uint64_t>()] = m;
  }
  return t;
}

}  // namespace

json tallies_to_json(const std::vector<KernelTally>& kernels) {
  json ks = json::array();
  for (const KernelTally& k : kernels) {
    json outputs = json::array();
    for (const auto& o : k.outputs) outputs.push_back(output_tally(o));
    ks.push_back({{"target", target_json(k.kernel.target)},
                  {"combo", enum_value(k.kernel.combo)},
                  {"alpha", bits(k.kernel.alpha)},
                  {"cases", k.cases},
                  {"calls", k.calls},
                  {"call_errors", k.call_errors},
                  {"call_error_messages", k.call_error_messages},
                  {"outputs", outputs}});
  }
  return {{"codec_version", kTallyCodecVersion}, {"kernels", ks}};
}

std::vector<KernelTally> tallies_from_json(const json& j) {
  try {
    if (j.at("codec_version").get<int>() != kTallyCodecVersion) {
      throw std::runtime_error(fmt::format("tally codec version {} (this bngcert reads {})",
                                           j.at("codec_version").dump(), kTallyCodecVersion));
    }
    std::vector<KernelTally> kernels;
    for (const auto& k : j.at("kernels")) {
      KernelTally t;
      t.kernel.target = to_target(k.at("target"));
      t.kernel.combo = to_enum<Combo>(k.at("combo"), 3);
      t.kernel.alpha = from_bits(k.at("alpha"));
      t.cases = k.at("cases").get<std::int64_t>();
      t.calls = k.at("calls").get<decltype(t.calls)>();
      t.call_errors = k.at("call_errors").get<std::int64_t>();
      t.call_error_messages = k.at("call_error_messages").get<decltype(t.call_error_messages)>();
      const json& outs = k.at("outputs");
      if (outs.size() != t.outputs.size()) throw std::runtime_error("not three outputs");
      for (std::size_t o = 0; o < t.outputs.size(); ++o) t.outputs[o] = to_output_tally(outs[o]);
      kernels.push_back(std::move(t));
    }
    return kernels;
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("malformed tallies ({})", e.what()));
  }
}

std::vector<std::uint8_t> encode_tallies(const std::vector<KernelTally>& kernels) {
  return json::to_cbor(tallies_to_json(kernels));
}

std::vector<KernelTally> decode_tallies(const std::vector<std::uint8_t>& bytes) {
  return tallies_from_json(parse_cbor(bytes, "tally"));
}

}  // namespace bng::cert
