// The report directory: report.json (the one source: schema in
// docs/report-format.md), report.md and report.html rendered from it, and the
// worst cases written as reproducers that `bngcert check` reads back.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "json_number.hpp"
#include "output_file.hpp"
#include "tally.hpp"

namespace bng::cert {

// 2: build split into tool, isa and libraries (each with its file's identity).
inline constexpr int kReportSchemaVersion = 2;

nlohmann::json stats_json(const Stats& s);
nlohmann::json failure_json(const Failure& f);
// bngcert's own build, the ISA path this process runs on (BNG_ISA), and for
// each target in `judged` the identity of the library loaded for it
// (library_identity.hpp): shared with certificates.
nlohmann::json build_json(const std::vector<prop::Target>& judged);
// The targets whose libraries a campaign's kernels ran, in kernel order.
std::vector<prop::Target> judged_targets(const std::vector<KernelTally>& kernels);

// Writes reproducers/<target>-<combo>-<output>/ for each kernel's worst output
// (inputs and the kernel's outputs as .npy, params.json) and returns, per
// kernel and output, the directory relative to `dir` ("" if none).
std::vector<std::array<std::string, 3>> write_reproducers(const std::filesystem::path& dir,
                                                          const std::vector<KernelTally>& kernels,
                                                          const std::string& kind);

// The whole report document. `run` describes what ran (campaign or check);
// `build` is build_json of this process unless given (a merge reports the
// build its shards recorded, not its own).
nlohmann::json report_json(const nlohmann::json& run, const std::vector<KernelTally>& kernels,
                           const std::vector<std::array<std::string, 3>>& reproducers,
                           const std::optional<nlohmann::json>& build = std::nullopt);

std::string render_markdown(const nlohmann::json& report);
std::string render_html(const nlohmann::json& report);

// report.json, report.md, report.html (and reproducers) into `dir`, which
// must exist (prepare_output_dir or make_subdirectory); returns the report.
nlohmann::json write_report(const std::filesystem::path& dir, const nlohmann::json& run,
                            const std::vector<KernelTally>& kernels,
                            const std::optional<nlohmann::json>& build = std::nullopt);

}  // namespace bng::cert
