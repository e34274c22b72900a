#include "campaign_record.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "json_input.hpp"
#include "reference_run.hpp"

namespace bng::cert {

using nlohmann::json;

json campaign_record(const CampaignOptions& o, const std::vector<const prop::Family*>& families) {
  json targets = json::array(), modes = json::array(), names = json::array();
  for (auto t : o.targets) targets.push_back(prop::target_name(t));
  for (int m : o.modes) modes.push_back(mode_name(m));
  for (const auto* f : families) names.push_back(f->name);
  return {{"seed", o.seed},
          {"cases_per_series", o.cases},
          {"max_size", o.max_size},
          {"targets", targets},
          {"functions", o.functions.empty() ? json("all") : json(o.functions)},
          {"modes", modes},
          {"families", names}};
}

json campaign_run_fields(const CampaignOptions& o,
                         const std::vector<const prop::Family*>& families) {
  json run = campaign_record(o, families);
  json described = json::array();
  for (const auto* f : families) {
    described.push_back(
        {{"name", f->name}, {"description", f->description}, {"finite", f->finite}});
  }
  run["families"] = described;
  run["reference"] = reference_run_field(o.reference);
  return run;
}

namespace {

// A non-empty array of distinct strings.
std::vector<std::string> names(const json& record, const char* key, const std::string& where) {
  const json& a = array_field(record, key, where);
  if (a.empty()) throw InputError(fmt::format("{}: '{}' is empty", where, key));
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const json& v : a) {
    if (!v.is_string()) {
      throw InputError(fmt::format("{}: '{}' must hold strings, not {}", where, key, v.dump()));
    }
    if (!seen.insert(v.get<std::string>()).second) {
      throw InputError(fmt::format("{}: '{}' names {} twice", where, key, v.dump()));
    }
    out.push_back(v.get<std::string>());
  }
  return out;
}

}  // namespace

CampaignOptions campaign_options(const json& record, const std::string& where) {
  CampaignOptions o;
  o.seed = int_field<std::uint64_t>(record, "seed", 0, UINT64_MAX, where);
  o.cases = int_field<int>(record, "cases_per_series", 1, kMaxCasesPerSeries, where);
  o.max_size = int_field<int>(record, "max_size", 0, 100, where);
  o.targets.clear();
  for (const std::string& t : names(record, "targets", where)) {
    const auto found = prop::find_target(t);
    if (!found) throw InputError(fmt::format("{}: unknown target '{}'", where, t));
    o.targets.push_back(*found);
  }
  o.modes.clear();
  for (const std::string& m : names(record, "modes", where)) {
    if (m != mode_name(1) && m != mode_name(0)) {
      throw InputError(fmt::format("{}: unknown mode '{}'", where, m));
    }
    o.modes.push_back(m == mode_name(1) ? 1 : 0);
  }
  o.families = names(record, "families", where);
  for (const std::string& f : o.families) {
    if (!prop::find_family(f)) throw InputError(fmt::format("{}: unknown family '{}'", where, f));
  }
  const json& functions = member(record, "functions", where);
  if (!(functions.is_string() && functions.get<std::string>() == "all")) {
    o.functions = names(record, "functions", where);
  }
  return o;
}

}  // namespace bng::cert
