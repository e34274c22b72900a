// `bngcert diff OLD NEW`: what changed between two releases' report.json or
// certificate.json files, and whether anything got worse (docs/certification.md §8, step 4).
#pragma once

#include <filesystem>
#include <string>

namespace bng::cert {

struct DiffOptions {
  std::filesystem::path old_file, new_file;
  std::string format = "text";  // "text" or "markdown"
  bool allow_different_campaigns = false;
};

// Prints the comparison on stdout. Exit status: 0 nothing worse, 1 a
// regression (a figure worse, or a row of OLD missing from NEW), 2 the files
// cannot be compared (unreadable, different schema or schema version,
// different campaigns without --allow-different-campaigns, or either judged
// at another α than its kernels' declared one: not a release verdict).
int run_diff(const DiffOptions& options);

}  // namespace bng::cert
