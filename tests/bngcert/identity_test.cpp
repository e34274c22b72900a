// The identity of a judged library: its ELF build record read back from the
// file, and bad files refused with a reason rather than a crash.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "elf_section.hpp"
#include "library_identity.hpp"
#include "sha256.hpp"

namespace fs = std::filesystem;

namespace bng::cert {
namespace {

fs::path scratch(const std::string& name) {
  return fs::temp_directory_path() / ("bng_identity_" + name + "_" + std::to_string(::getpid()));
}

TEST(LibraryIdentity, TheBuiltLibraryCarriesItsRecord) {
  const LibraryIdentity id = identify_library(BNG_MT7004_LIBRARY);
  EXPECT_EQ(id.size, fs::file_size(BNG_MT7004_LIBRARY));
  EXPECT_EQ(id.sha256, sha256_file(BNG_MT7004_LIBRARY));
  ASSERT_EQ(id.record_error, "");
  EXPECT_EQ(id.record.at("target"), "mt7004");
  EXPECT_EQ(id.record.at("commit").size(), 40u);
  EXPECT_TRUE(id.record.at("dirty") == "0" || id.record.at("dirty") == "1");
  ASSERT_FALSE(id.isa_paths.empty());
  EXPECT_EQ(id.isa_paths.back(), "portable");
  EXPECT_FALSE(id.isa_ran.empty());
}

TEST(LibraryIdentity, Sha256OfKnownText) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(LibraryIdentity, BadFilesGiveReasonsNotCrashes) {
  const fs::path text = scratch("text");
  std::ofstream(text) << "not an ELF file at all";
  EXPECT_NE(read_elf_section(text, ".bng_build").error.find("not an ELF file"), std::string::npos);
  const LibraryIdentity id = identify_library(text);
  EXPECT_TRUE(id.record.empty());
  EXPECT_NE(id.record_error.find("no build record"), std::string::npos) << id.record_error;

  // The library's first 4 KiB: a valid header whose section table lies beyond the end.
  const fs::path cut = scratch("cut");
  {
    std::ifstream in(BNG_MT7004_LIBRARY, std::ios::binary);
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    std::ofstream(cut, std::ios::binary) << head;
  }
  const SectionRead r = read_elf_section(cut, ".bng_build");
  EXPECT_FALSE(r.bytes.has_value());
  EXPECT_NE(r.error.find("outside the file"), std::string::npos) << r.error;

  EXPECT_THROW(identify_library(scratch("missing")), std::runtime_error);
  fs::remove(text);
  fs::remove(cut);
}

TEST(LibraryIdentity, RecordsOfAnotherFormatAreRefused) {
  std::map<std::string, std::string> out;
  std::string error;
  EXPECT_FALSE(parse_build_record("bng-build-record 2\nx=y\n", &out, &error));
  EXPECT_NE(error.find("unknown format"), std::string::npos);
  EXPECT_FALSE(parse_build_record("bng-build-record 1\nno equals sign\n", &out, &error));
  EXPECT_TRUE(parse_build_record(std::string("bng-build-record 1\na=b\n\0junk", 27), &out, &error));
  EXPECT_EQ(out.at("a"), "b");
}

}  // namespace
}  // namespace bng::cert
