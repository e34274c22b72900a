#include "array_check.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "parallel_jobs.hpp"
#include "reference_run.hpp"
#include "utc_time.hpp"

namespace bng::cert {

using nlohmann::json;

int check_jobs(int jobs) {
  return jobs_or_default(jobs);
}

ArrayCheck judge_arrays(const DumpArrays& a, prop::Target t, const DumpShape& s,
                        const ArrayCheckOptions& o) {
  ArrayCheck check;
  check.start = std::chrono::steady_clock::now();
  check.started_utc = utc_now();
  const auto& have = prop::combos(t);
  if (std::find(have.begin(), have.end(), s.combo) == have.end()) {
    throw InputError(fmt::format("{} has no {} kernel", prop::target_name(t), combo_name(s.combo)));
  }
  // α: the kernel's declared one; another only when asked, for investigation
  // (the verdict then says it is not a release verdict).
  check.declared_alpha = prop::declared_alpha(t, s.combo);
  if (o.alpha && !(std::isfinite(*o.alpha) && *o.alpha >= 0)) {
    throw InputError(fmt::format("--alpha {}: must be a finite non-negative number", *o.alpha));
  }
  KernelTally& tally = check.tally;
  tally.kernel = {t, s.combo, o.alpha.value_or(check.declared_alpha)};
  tally.keep_failing = o.keep_failing;
  tally.cases = 1;
  const std::int64_t width = block_width(s, o.block_elements);
  check.blocks = (s.channel + width - 1) / width;
  check.jobs = check_jobs(o.jobs);
  Origin origin;
  origin.family = "input";
  check.reference = o.reference;
  judge_dump(a, s, origin, 0, o.block_elements, check.jobs, o.reference, tally, o.progress);
  return check;
}

json array_check_run(const ArrayCheck& check, const DumpArrays& a, const DumpShape& s,
                     const std::string& input_dir, bool alpha_given) {
  json inputs = json::object();
  for (const auto& [name, arr] : a) {
    inputs[name] = {{"path", arr.name()},
                    {"dtype", npy::descr(arr.header().dtype)},
                    {"shape", arr.header().shape}};
  }
  std::int64_t outputs = 0;
  for (const auto& ot : check.tally.outputs) outputs += ot.all.outputs;
  const Kernel& k = check.tally.kernel;
  return {{"kind", "check"},
          {"input_dir", input_dir},
          {"inputs", inputs},
          {"batch", s.batch},
          {"channel", s.channel},
          {"is_train", s.is_train},
          {"mode", mode_name(s.is_train)},
          {"target", prop::target_name(k.target)},
          {"combo", combo_name(k.combo)},
          {"kernel", k.name()},
          {"alpha", k.alpha},
          {"alpha_hex", hex_double(k.alpha)},
          {"declared_alpha", check.declared_alpha},
          {"alpha_source", alpha_given ? "--alpha" : "declared"},
          {"blocks", check.blocks},
          {"jobs", check.jobs},
          {"reference", reference_run_field(check.reference)},
          {"started_utc", check.started_utc},
          {"duration_s",
           std::chrono::duration<double>(std::chrono::steady_clock::now() - check.start).count()},
          {"cases", 1},
          {"outputs", outputs}};
}

}  // namespace bng::cert
