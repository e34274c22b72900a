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

// Every integer read back is range-checked (json_input.hpp): a count never
// wraps, a bin or lane never sends a renderer into a loop of 2^31 steps.
std::int64_t count(const json& j) {
  return int_value<std::int64_t>(j, 0, std::numeric_limits<std::int64_t>::max(), "a count");
}
int int_in(const json& j, int lo, int hi, const char* what) {
  return int_value<int>(j, lo, hi, what);
}
std::uint64_t any_u64(const json& j, const char* what) {
  return int_value<std::uint64_t>(j, 0, std::numeric_limits<std::uint64_t>::max(), what);
}
std::string text(const json& j) {
  if (!j.is_string()) throw InputError("expected a string, found " + j.dump());
  return j.get<std::string>();
}
// Largest lane and part indices any target's layout can have.
constexpr int kMaxLanes = 4096;
constexpr int kMaxParts = 1 << 20;
constexpr std::int64_t kMaxExtent = std::int64_t{1} << 40;

json bits(double v) {
  return std::bit_cast<std::uint64_t>(v);
}
double from_bits(const json& j) {
  return std::bit_cast<double>(any_u64(j, "a double's bits"));
}

// %La is exact for every long double, and strtold reads it back exactly.
json long_hex(long double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%La", v);
  return std::string(buf);
}
long double from_long_hex(const json& j) {
  const std::string s = text(j);
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
  if (!j.is_binary()) throw InputError("expected bytes, found " + std::string(j.type_name()));
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
  return static_cast<E>(int_in(j, 0, limit - 1, "an enumerator"));
}

prop::Target to_target(const json& j) {
  const auto t = prop::find_target(text(j.at("name")));
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
  m.compared = count(j.at(0));
  m.correctly_rounded = count(j.at(1));
  m.within_1ulp = count(j.at(2));
  m.rel_over_1e3 = count(j.at(3));
  m.rel_over_1e4 = count(j.at(4));
  m.max_abs_error = from_bits(j.at(5));
  m.max_rel_error = from_bits(j.at(6));
  return m;
}

}  // namespace

json stats_to_json(const Stats& s) {
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
namespace {

Stats to_stats(const json& j) {
  Stats s;
  s.outputs = count(j.at("outputs"));
  s.fails = count(j.at("fails"));
  s.exact = count(j.at("exact"));
  s.nan_refs = count(j.at("nan_refs"));
  s.nonfinite_refs = count(j.at("nonfinite_refs"));
  s.max_ulp_error = from_bits(j.at("max_ulp_error"));
  s.max_normalised_error = from_bits(j.at("max_normalised_error"));
  s.max_kappa = from_bits(j.at("max_kappa"));
  s.zero_refs = count(j.at("zero_refs"));
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
  s.core_mask = int_value<unsigned>(j.at("core_mask"), 0, 0xff, "a core mask");
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
  o.family = text(j.at("family"));
  o.seed = any_u64(j.at("seed"), "a seed");
  o.size = int_in(j.at("size"), 0, 100, "a size");
  o.case_index = count(j.at("case_index"));
  if (!j.at("spec").is_null()) o.spec = to_spec(j.at("spec"));
  o.channel_offset = count(j.at("channel_offset"));
  o.channel_total = count(j.at("channel_total"));
  o.case_name = text(j.at("case_name"));
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
  f.order = any_u64(j.at("order"), "an order");
  f.origin = to_origin(j.at("origin"));
  f.output = to_enum<Output>(j.at("output"), 3);
  f.combo = to_enum<Combo>(j.at("combo"), 3);
  f.is_train = int_in(j.at("is_train"), 0, 1, "is_train");
  f.batch = int_value<std::int64_t>(j.at("batch"), 0, kMaxExtent, "a batch");
  f.channel = int_value<std::int64_t>(j.at("channel"), 0, kMaxExtent, "a channel count");
  f.n = int_value<std::int64_t>(j.at("n"), 0, kMaxExtent, "a row");
  f.c = int_value<std::int64_t>(j.at("c"), 0, kMaxExtent, "a channel");
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
  if (!m.at(3).is_boolean()) throw InputError("a verdict must be true or false");
  f.sample.m.pass = m.at(3).get<bool>();
  f.sample.m.reason = interned(text(m.at(4)));
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
  w.c.batch = int_value<std::int64_t>(c.at("batch"), 1, kMaxExtent, "a batch");
  w.c.channel = int_value<std::int64_t>(c.at("channel"), 1, kMaxExtent, "a channel count");
  w.c.is_train = int_in(c.at("is_train"), 0, 1, "is_train");
  w.c.x = from_doubles(c.at("x"));
  w.c.dy = from_doubles(c.at("dy"));
  w.c.mean = from_doubles(c.at("mean"));
  w.c.invar = from_doubles(c.at("invar"));
  w.c.scale = from_doubles(c.at("scale"));
  const json& g = j.at("got");
  w.got.dx = from_doubles(g.at("dx"));
  w.got.dbias = from_doubles(g.at("dbias"));
  w.got.dscale = from_doubles(g.at("dscale"));
  // The reproducer written from it must be one consistent call.
  const auto elements = static_cast<std::size_t>(w.c.batch) * static_cast<std::size_t>(w.c.channel);
  const auto channels = static_cast<std::size_t>(w.c.channel);
  for (const auto* v : {&w.c.x, &w.c.dy, &w.got.dx}) {
    if (v->size() != elements) throw InputError("a worst case's data does not match its shape");
  }
  for (const auto* v : {&w.c.mean, &w.c.invar, &w.c.scale, &w.got.dbias, &w.got.dscale}) {
    if (v->size() != channels) throw InputError("a worst case's statistics do not match its shape");
  }
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
  m.fails = count(j.at("fails"));
  const json& rows = j.at("cells");
  if (!rows.is_array() || rows.size() != m.cells.size()) throw InputError("a fault map's rows");
  for (std::size_t r = 0; r < m.cells.size(); ++r) {
    if (!rows[r].is_array() || rows[r].size() != m.cells[r].size()) {
      throw InputError("a fault map's cells");
    }
    for (std::size_t c = 0; c < m.cells[r].size(); ++c) m.cells[r][c] = count(rows[r][c]);
  }
  // std::map<int, …> travels as an array of [key, value] pairs.
  for (const auto& e : j.at("by_lane")) {
    m.by_lane[int_in(e.at(0), 0, kMaxLanes - 1, "a lane")] = count(e.at(1));
  }
  for (const auto& e : j.at("by_part")) {
    m.by_part[int_in(e.at(0), 0, kMaxParts - 1, "a part")] = count(e.at(1));
  }
  m.vector_lanes = int_in(j.at("vector_lanes"), 0, kMaxLanes, "a lane count");
  return m;
}

json output_tally(const OutputTally& t) {
  json bins = json::array(), cells = json::array(), families = json::array(),
       failures = json::array(), sums = json::array();
  for (const auto& [k, n] : t.histogram.bins) bins.push_back({k, n});
  for (const auto& [k, c] : t.density.cells) cells.push_back({k.first, k.second, c.pass, c.fail});
  for (const auto& [k, s] : t.by_family) families.push_back({k.first, k.second, stats_to_json(s)});
  for (const auto& f : t.failures) failures.push_back(failure(f));
  for (const auto& [order, s] : t.metric_sums) {
    sums.push_back(
        {order, long_hex(s.yy), long_hex(s.ee), long_hex(s.ye), long_hex(s.rel), s.rel_n});
  }
  return {{"all", stats_to_json(t.all)},
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
  t.histogram.zero = count(h.at(0));
  t.histogram.infinite = count(h.at(1));
  // Bins are ilogb of a finite double's error; cells half binades of one.
  for (const auto& b : h.at(2)) {
    t.histogram.bins[int_in(b.at(0), -1074, 1023, "a histogram bin")] = count(b.at(1));
  }
  const auto cell = [](const json& v) {
    const int c = int_in(v, -2200, Density::kInfinite, "a density cell");
    if (c > 2100 && c != Density::kInfinite) throw InputError("a density cell out of range");
    return c;
  };
  for (const auto& c : j.at("density")) {
    t.density.cells[{cell(c.at(0)), cell(c.at(1))}] = {count(c.at(2)), count(c.at(3))};
  }
  for (const auto& f : j.at("by_family")) {
    t.by_family[{text(f.at(0)), int_in(f.at(1), 0, 1, "is_train")}] = to_stats(f.at(2));
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
    m.rel_n = count(s.at(5));
    t.metric_sums[any_u64(s.at(0), "an order")] = m;
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
                  {"exact_fallbacks", k.exact_fallbacks},
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
      t.cases = count(k.at("cases"));
      const json& calls = k.at("calls");
      if (!calls.is_object()) throw InputError("calls must be an object");
      for (const auto& [entry, n] : calls.items()) t.calls[entry] = count(n);
      t.call_errors = count(k.at("call_errors"));
      t.exact_fallbacks = count(k.at("exact_fallbacks"));
      for (const auto& e : k.at("call_error_messages")) {
        t.call_error_messages[any_u64(e.at(0), "an order")] = text(e.at(1));
      }
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

namespace {

json records_to_json(const std::vector<CaseRecord>& records) {
  json out = json::array();
  for (const CaseRecord& r : records) {
    json outputs = json::array();
    for (const Stats& s : r.outputs) outputs.push_back(stats_to_json(s));
    out.push_back({r.job, r.kernel, r.call_errors, outputs, r.digest});
  }
  return out;
}

std::vector<CaseRecord> records_from_json(const json& j, std::size_t kernels) {
  if (!j.is_array()) throw InputError("the case records are not an array");
  std::vector<CaseRecord> records;
  records.reserve(j.size());
  for (const json& e : j) {
    CaseRecord r;
    r.job = any_u64(e.at(0), "a case's job");
    r.kernel = int_value<std::size_t>(e.at(1), 0, kernels == 0 ? 0 : kernels - 1, "a kernel index");
    if (kernels == 0) throw InputError("case records without kernels");
    r.call_errors = int_value<std::int64_t>(e.at(2), 0, 1, "a case's failed calls");
    const json& outputs = e.at(3);
    if (!outputs.is_array() || outputs.size() != r.outputs.size()) {
      throw InputError("a case record needs three outputs");
    }
    for (std::size_t o = 0; o < r.outputs.size(); ++o) r.outputs[o] = to_stats(outputs[o]);
    r.digest = text(e.at(4));
    if (r.digest.size() != 64) throw InputError("a case digest is not a SHA-256");
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace

std::vector<std::uint8_t> encode_tally_file(const TallyFile& f) {
  json j = tallies_to_json(f.kernels);
  j["cases"] = records_to_json(f.cases);
  return json::to_cbor(j);
}

TallyFile decode_tally_file(std::span<const std::uint8_t> bytes) {
  const json j = parse_cbor(bytes, "tally");
  TallyFile f;
  f.kernels = tallies_from_json(j);
  try {
    f.cases = records_from_json(j.at("cases"), f.kernels.size());
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("malformed case records ({})", e.what()));
  }
  return f;
}

}  // namespace bng::cert
