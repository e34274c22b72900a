// What a certificate says of each library it judged: the exact file (path,
// size, SHA-256), the build recorded in that file (optimized/build_record.cpp)
// and the ISA path its kernels ran on in this process. All of it comes from
// one read of the file, whose device and inode are kept so that the file
// loaded can be held against it (library_binding.hpp).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "input_file.hpp"

namespace bng::cert {

struct LibraryIdentity {
  std::string path;
  std::uintmax_t size = 0;
  std::string sha256;
  FileId file;  // the file read (not recorded: a device and inode mean nothing elsewhere)
  // The build record's key=value lines; empty, with record_error saying why,
  // when the file has none (not a library of this project, or too old).
  std::map<std::string, std::string> record;
  std::string record_error;
  std::vector<std::string> isa_paths;  // record's compiled-in paths, best first
  std::string isa_ran;                 // the path its kernels run on here ("" if unknown)
};

// Throws InputError (a std::runtime_error) when the file cannot be read at
// all or is not a regular file.
LibraryIdentity identify_library(const std::filesystem::path& file);

// The record's text as key/value pairs; false (with `error`) when it is not a
// build record of a format this tool reads.
bool parse_build_record(const std::string& text, std::map<std::string, std::string>* out,
                        std::string* error);

nlohmann::json identity_json(const LibraryIdentity& id);

}  // namespace bng::cert
