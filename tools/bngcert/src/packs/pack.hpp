// A case pack: a campaign's cases written out for a device to run
// (`bngcert export`), run by the C harness (tools/harness), judged as one run
// (`bngcert check --pack`). docs/report-format.md documents the layout:
//   pack.json            the manifest: campaign, every case, shapes, SHA-256 of each input file
//   cases.txt            the case folders, one per line (what the C harness reads)
//   cases/<name>/        x.npy dy.npy mean.npy invar.npy scale.npy params.json (export)
//                        dx.npy dbias.npy dscale.npy status.json           (harness)
#pragma once

#include <string_view>

namespace bng::cert::pack {

inline constexpr std::string_view kManifest = "pack.json";
inline constexpr std::string_view kCaseList = "cases.txt";
inline constexpr std::string_view kCasesDir = "cases";
inline constexpr std::string_view kParams = "params.json";
inline constexpr std::string_view kStatus = "status.json";
inline constexpr std::string_view kSchema = "bngcert-pack";
inline constexpr int kSchemaVersion = 1;

}  // namespace bng::cert::pack
