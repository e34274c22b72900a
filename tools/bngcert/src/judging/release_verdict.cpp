#include "release_verdict.hpp"

#include <fmt/format.h>

#include "json_input.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

constexpr const char* kEveryKernelDeclared = "every kernel judged at its declared α";

std::string not_release(const std::string& why) {
  return "NOT a release verdict: " + why +
         " (a verdict at another α is for investigation only; a release is judged at the "
         "kernels' declared α)";
}

// A recorded α: a finite JSON number (bngcert writes nothing else there).
double alpha_value(const json& v, const std::string& what) {
  if (!v.is_number()) {
    throw InputError(fmt::format("{} must be a number, not {}", what, v.dump()));
  }
  return v.get<double>();
}

}  // namespace

ReleaseStatus release_status(const std::vector<KernelTally>& kernels) {
  std::string why;
  for (const KernelTally& t : kernels) {
    if (judged_at_declared_alpha(t.kernel)) continue;
    const double declared = prop::declared_alpha(t.kernel.target, t.kernel.combo);
    why += fmt::format("{}{} judged at α = {}, not its declared α = {}", why.empty() ? "" : "; ",
                       t.kernel.name(), hex_double(t.kernel.alpha), hex_double(declared));
  }
  if (why.empty()) return {true, kEveryKernelDeclared};
  return {false, not_release(why)};
}

ReleaseStatus recorded_release_status(const json& doc, const std::string& name) {
  const bool report = string_field(doc, "schema", name) == "bngcert-report";

  // The flag this bngcert records, with its own note.
  const json& flag_holder = report ? object_field(doc, "verdict", name) : doc;
  const std::string flag_where = report ? name + ": verdict" : name;
  if (has_member(flag_holder, "is_release_verdict") &&
      !bool_field(flag_holder, "is_release_verdict", flag_where)) {
    return {false, has_member(flag_holder, "release_note")
                       ? string_field(flag_holder, "release_note", flag_where)
                       : not_release("the file records so")};
  }

  // The other signs, which older files carry too: where α came from (older
  // `check` runs took it from --alpha or params.json), and each kernel's α
  // against its declared one.
  std::string why;
  const auto add = [&why](const std::string& w) { why += (why.empty() ? "" : "; ") + w; };
  const char* run_key = report ? "run" : "campaign";
  const json& run = object_field(doc, run_key, name);
  if (has_member(run, "alpha_source")) {
    const std::string source =
        string_field(run, "alpha_source", fmt::format("{}: {}", name, run_key));
    if (source != "declared") add(fmt::format("α taken from {}", source));
  }
  std::vector<const json*> kernel_lists;
  if (report) {
    kernel_lists.push_back(&array_field(doc, "kernels", name));
  } else {
    for (const json& r : array_field(doc, "runs", name))
      kernel_lists.push_back(&array_field(r, "kernels", name + ": a run"));
  }
  const std::string where = name + ": a kernel";
  for (const json* kernels : kernel_lists) {
    for (const json& k : *kernels) {
      if (!has_member(k, "declared_alpha")) continue;  // older files: alpha_source says it
      const double alpha = alpha_value(member(k, "alpha", where), where + "'s 'alpha'");
      const double declared =
          alpha_value(member(k, "declared_alpha", where), where + "'s 'declared_alpha'");
      if (alpha == declared) continue;
      add(fmt::format("{}/{} judged at α = {}, not its declared α = {}",
                      string_field(k, "target", where), string_field(k, "combo", where),
                      hex_double(alpha), hex_double(declared)));
    }
  }
  if (why.empty()) return {true, kEveryKernelDeclared};
  return {false, not_release(why)};
}

}  // namespace bng::cert
