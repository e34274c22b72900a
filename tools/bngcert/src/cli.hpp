// The subcommands behind the command line (commands/ registers their options).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "campaign.hpp"
#include "dump_check_options.hpp"
#include "recheck.hpp"

namespace bng::cert {

// Exit statuses: 0 pass (report: ran), 1 a judged failure, 2 bad usage or input.
inline constexpr int kExitPass = 0, kExitFail = 1, kExitError = 2;
// verify and sign: the certificate, or a file it covers, is not as recorded
// (digest, library, signature).
inline constexpr int kExitMismatch = 3;

int run_report(const CampaignOptions& options, const std::filesystem::path& out);
int run_certify(const CampaignOptions& options, const std::filesystem::path& out);
// certify --isa all: `self` run with `args` once per ISA path the processor
// supports (out/<path>/ holds each run's report), one certificate in `out`.
// Sharded (--shard in args): out/<path>/ holds each path's shard, nothing is
// judged here (bngcert merge does).
int run_certify_every_path(const std::filesystem::path& self, const std::vector<std::string>& args,
                           const std::filesystem::path& out, bool sharded);

// bngcert merge: shard directories (or directories holding one per ISA path)
// into one report and, for certify and check shards, one certificate.
struct MergeOptions {
  std::vector<std::filesystem::path> shards;
  std::filesystem::path out;
  bool partial = false;    // merge what is there; the verdict is PARTIAL, never PASS
  RecheckOptions recheck;  // --recheck N: judge N cases of every shard again here
};
int run_merge(const MergeOptions& options);

// bngcert verify: does the certificate still hold its digest, does it cover
// exactly these library files (given, or the paths it recorded), (with
// --signature) does the signature verify, and does it record a release PASS?
// Exit 0: all four; 1: the first three, but the verdict recorded is FAIL,
// PARTIAL or not a release verdict; 3: the digest differs, a library differs
// or is not covered, or the signature does not verify; 2: not a certificate,
// unreadable, a signature file missing, bad usage.
struct VerifyOptions {
  std::filesystem::path certificate;  // certificate.json, or the directory holding it
  std::map<std::string, std::filesystem::path> libraries;  // target -> file
  std::optional<std::filesystem::path> signature;          // FILE.sig (ssh-keygen -Y sign)
  std::filesystem::path allowed_signers;                   // ssh-keygen's ALLOWED SIGNERS format
  std::string identity;                                    // the signer expected there
};
int run_verify(const VerifyOptions& options);

// bngcert check --dir (dump_check_options.hpp).
int run_check(const CheckOptions& options);

}  // namespace bng::cert
