// What one case added to a run's tallies, kept per case in a shard's
// tally.cbor. `bngcert merge` derives every total from these records instead
// of believing the shard's sums, and `merge --recheck` judges cases again on
// the merging machine and compares their records bit for bit: the digest
// covers the bits the kernel (or the device) returned and the statistics they
// were judged to, so a node that computed, judged or reported otherwise is
// caught on any case drawn.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bng/reference/case.hpp"
#include "tally.hpp"

namespace bng::cert {

struct CaseRecord {
  std::uint64_t job = 0;   // the case's index in the whole run
  std::size_t kernel = 0;  // index into the run's kernels
  std::int64_t call_errors = 0;
  std::array<Stats, 3> outputs{};  // dx, dbias, dscale
  std::string digest;              // SHA-256, hex
};

// `one` holds this case alone; `judged` stands for what was judged (the
// outputs' bits and the call's status, or a pack case's output files).
CaseRecord make_case_record(std::uint64_t job, std::size_t kernel, const KernelTally& one,
                            std::span<const unsigned char> judged);

// The bits of a kernel's outputs and its status, for make_case_record.
std::vector<unsigned char> judged_bits(const Outputs& got, int status, bool clobbered);

// What the records of one kernel add up to.
struct CaseTotals {
  std::int64_t cases = 0, call_errors = 0;
  std::array<Stats, 3> outputs{};
};
std::vector<CaseTotals> totals_by_kernel(const std::vector<CaseRecord>& records,
                                         std::size_t kernels);

// "" when the tally's counts and maxima are exactly what the records add up
// to; otherwise which of them differ.
std::string disagreement(const KernelTally& tally, const CaseTotals& totals);

// "" when two records of one case are the same bit for bit; otherwise what
// differs (the judged bits, or which statistic).
std::string record_difference(const CaseRecord& recorded, const CaseRecord& again);

}  // namespace bng::cert
