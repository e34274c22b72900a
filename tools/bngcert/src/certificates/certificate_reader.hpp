// A certificate.json read back (`bngcert verify`, `bngcert sign`): a file from
// elsewhere like any other, so read once (input_file.hpp), parsed with the
// limits of json_input.hpp (no duplicate key: a "verdict" given twice must not
// verify), and every field used checked for its type.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace bng::cert {

// A library the certificate says it judged.
struct RecordedLibrary {
  std::filesystem::path path;
  std::string sha256;
  std::uintmax_t size = 0;
};

struct CertificateFile {
  std::filesystem::path path;  // the certificate.json read
  std::string bytes;           // exactly as read: what a signature covers
  nlohmann::json json;
  std::string verdict;                               // "pass", "fail" or "partial"
  bool is_release_verdict = false;                   // release_verdict.hpp
  std::string release_note;                          // why not, or that it is
  std::string stored_digest, actual_digest;          // digest.value, and recomputed
  std::map<std::string, RecordedLibrary> libraries;  // by target
  bool digest_intact() const { return stored_digest == actual_digest; }
};

// `path` is certificate.json or the directory holding it. Throws InputError
// naming the file and what is wrong: unreadable, not JSON, a key twice, not a
// bngcert certificate of the schema this tool reads, a field of another type.
CertificateFile read_certificate(const std::filesystem::path& path);
// The same from the file's bytes (what the certificate fuzzer drives); `path`
// only names it in messages.
CertificateFile parse_certificate(std::string bytes, const std::filesystem::path& path);

}  // namespace bng::cert
