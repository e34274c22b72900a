// Whether a verdict is a release verdict. A release judges every kernel at
// the α its target declares (the registry: targets.inc, docs/accuracy.md), and
// at nothing else: no file that travels with the data (a dump's params.json, a
// pack, a shard) can loosen a bound. A verdict reached at another α — `check
// --alpha`, kept for investigation — is reported as such and never counts as a
// release PASS (bngcert verify exits 1 on it; bngcert diff will not compare it).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tally.hpp"

namespace bng::cert {

struct ReleaseStatus {
  bool is_release_verdict = true;
  std::string note;  // why not; or that every kernel was judged at its declared α
};

// From what was judged: each kernel's α against the one its target declares.
ReleaseStatus release_status(const std::vector<KernelTally>& kernels);

// From a report.json or certificate.json read back (verify, diff), written by
// this bngcert or an older one. Every sign the file records must agree: the
// recorded flag (verdict.is_release_verdict in a report, is_release_verdict
// in a certificate; absent in older files), the run's alpha_source (absent, or
// "declared"), and each kernel's α against its recorded declared α. `name`
// names the file in messages; a field of the wrong type is an InputError.
ReleaseStatus recorded_release_status(const nlohmann::json& document, const std::string& name);

}  // namespace bng::cert
