#include "case_record.hpp"

#include <bit>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sha256.hpp"
#include "tally_codec.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

std::vector<std::uint8_t> stats_bytes(const CaseRecord& r) {
  json j = json::array({r.call_errors});
  for (const Stats& s : r.outputs) j.push_back(stats_to_json(s));
  return json::to_cbor(j);
}

std::string digest_of(const CaseRecord& r, std::span<const unsigned char> judged) {
  Sha256 h;
  h.update(judged);
  h.update(stats_bytes(r));
  return h.hex();
}

void append(std::vector<unsigned char>& out, const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  out.insert(out.end(), b, b + n);
}

// A statistic as a reader wants it: doubles travel as their bits.
std::string shown(const std::string& key, const json& v) {
  if (key.starts_with("max_") && v.is_number_unsigned()) {
    return fmt::format("{:g}", std::bit_cast<double>(v.get<std::uint64_t>()));
  }
  return v.dump();
}

}  // namespace

CaseRecord make_case_record(std::uint64_t job, std::size_t kernel, const KernelTally& one,
                            std::span<const unsigned char> judged) {
  CaseRecord r;
  r.job = job;
  r.kernel = kernel;
  r.call_errors = one.call_errors;
  for (std::size_t o = 0; o < r.outputs.size(); ++o) r.outputs[o] = one.outputs[o].all;
  r.digest = digest_of(r, judged);
  return r;
}

std::vector<unsigned char> judged_bits(const Outputs& got, int status, bool clobbered) {
  std::vector<unsigned char> out;
  append(out, &status, sizeof status);
  const unsigned char c = clobbered ? 1 : 0;
  append(out, &c, 1);
  for (const auto* v : {&got.dx, &got.dbias, &got.dscale}) {
    const std::uint64_t n = v->size();
    append(out, &n, sizeof n);
    if (!v->empty()) append(out, v->data(), v->size() * sizeof(double));
  }
  return out;
}

std::vector<CaseTotals> totals_by_kernel(const std::vector<CaseRecord>& records,
                                         std::size_t kernels) {
  std::vector<CaseTotals> t(kernels);
  for (const CaseRecord& r : records) {
    CaseTotals& k = t.at(r.kernel);
    ++k.cases;
    k.call_errors += r.call_errors;
    for (std::size_t o = 0; o < k.outputs.size(); ++o) k.outputs[o].merge(r.outputs[o]);
  }
  return t;
}

std::string disagreement(const KernelTally& tally, const CaseTotals& totals) {
  std::string what;
  const auto note = [&](const std::string& s) { what += (what.empty() ? "" : "; ") + s; };
  if (tally.cases != totals.cases) {
    note(fmt::format("cases {} against {} recorded", tally.cases, totals.cases));
  }
  if (tally.call_errors != totals.call_errors) {
    note(fmt::format("failed calls {} against {}", tally.call_errors, totals.call_errors));
  }
  std::int64_t calls = 0;
  for (const auto& [entry, n] : tally.calls) calls += n;
  if (calls != totals.cases) note(fmt::format("calls {} against {} cases", calls, totals.cases));
  for (std::size_t o = 0; o < totals.outputs.size(); ++o) {
    const json a = stats_to_json(tally.outputs[o].all), b = stats_to_json(totals.outputs[o]);
    for (const auto& [key, v] : a.items()) {
      if (b.at(key) != v) {
        note(fmt::format("{} {}: {} against {}", output_name(static_cast<Output>(o)), key, v.dump(),
                         b.at(key).dump()));
      }
    }
  }
  return what;
}

std::string record_difference(const CaseRecord& recorded, const CaseRecord& again) {
  if (recorded.kernel != again.kernel) return "another kernel";
  if (recorded.call_errors != again.call_errors) {
    return fmt::format("failed calls {} recorded, {} now", recorded.call_errors, again.call_errors);
  }
  for (std::size_t o = 0; o < recorded.outputs.size(); ++o) {
    const json a = stats_to_json(recorded.outputs[o]), b = stats_to_json(again.outputs[o]);
    for (const auto& [key, v] : a.items()) {
      if (b.at(key) != v) {
        return fmt::format("{} {}: {} recorded, {} now", output_name(static_cast<Output>(o)), key,
                           shown(key, v), shown(key, b.at(key)));
      }
    }
  }
  if (recorded.digest != again.digest) {
    return "the same statistics, but other output bits (digest " + recorded.digest.substr(0, 16) +
           "… recorded, " + again.digest.substr(0, 16) + "… now)";
  }
  return "";
}

}  // namespace bng::cert
