// The file hashed against the file loaded (library_binding.hpp), directly: a
// library loaded here is held against the identity of the same file and of
// other files, one of them a byte-identical copy (the same SHA-256, another
// file: only the device and inode tell them apart).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "bng/properties/runner.hpp"
#include "library_binding.hpp"
#include "library_identity.hpp"

namespace fs = std::filesystem;

namespace bng::cert {
namespace {

// The ft78ne library, loaded as bngcert loads it (RTLD_LOCAL, never closed:
// its kernels' core pool must not outlive its code).
const void* loaded_symbol() {
  static void* handle = ::dlopen(BNG_FT78NE_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  return handle == nullptr ? nullptr : ::dlsym(handle, "bng_status_string");
}

class Copy {
 public:
  explicit Copy(const fs::path& from)
      : path_(fs::temp_directory_path() /
              ("bng_binding_copy_" + std::to_string(::getpid()) + ".so")) {
    fs::copy_file(from, path_, fs::copy_options::overwrite_existing);
  }
  ~Copy() { fs::remove(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

TEST(LibraryBinding, TheFileHashedIsTheFileLoaded) {
  const void* symbol = loaded_symbol();
  ASSERT_NE(symbol, nullptr) << ::dlerror();
  const LibraryIdentity hashed = identify_library(BNG_FT78NE_LIBRARY);
  EXPECT_EQ(binding_mismatch(hashed, symbol), "");
  EXPECT_EQ(mapped_file(symbol).file, hashed.file);
}

TEST(LibraryBinding, AnotherFileHashedIsReportedNamingBoth) {
  const void* symbol = loaded_symbol();
  ASSERT_NE(symbol, nullptr) << ::dlerror();
  const Copy copy(BNG_FT78NE_LIBRARY);
  const LibraryIdentity same_bytes = identify_library(copy.path());
  ASSERT_EQ(same_bytes.sha256, identify_library(BNG_FT78NE_LIBRARY).sha256);
  const std::string m = binding_mismatch(same_bytes, symbol);
  EXPECT_NE(m.find("not the file hashed"), std::string::npos) << m;
  EXPECT_NE(m.find(copy.path().string()), std::string::npos) << "names the file hashed: " << m;
  EXPECT_NE(m.find(fs::path(BNG_FT78NE_LIBRARY).filename().string()), std::string::npos)
      << "names the file loaded: " << m;
  EXPECT_NE(m.find("inode"), std::string::npos) << m;

  const std::string other = binding_mismatch(identify_library(BNG_MT7004_LIBRARY), symbol);
  EXPECT_NE(other.find("not the file hashed"), std::string::npos) << other;
}

// The loader reuses an object already loaded under the same path without
// opening the file again: a file replaced at that path after loading is
// hashed, but the old one runs. bind_library refuses it, naming both.
TEST(LibraryBinding, ALibraryReplacedAfterLoadingIsRefused) {
  const fs::path dir =
      fs::temp_directory_path() / ("bng_binding_replaced_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path lib = dir / "libvendor.so", next = dir / "next.so";
  fs::copy_file(BNG_FT78NE_LIBRARY, lib);
  ASSERT_NE(::dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL), nullptr) << ::dlerror();
  fs::copy_file(BNG_FT78NE_LIBRARY, next);
  fs::rename(next, lib);  // the same bytes, another file

  const prop::Target ft78ne = prop::target("ft78ne");
  prop::set_library_path(ft78ne, lib.string());
  try {
    bind_library(ft78ne);
    ADD_FAILURE() << "a replaced library was bound";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("not the file hashed"), std::string::npos) << m;
    EXPECT_NE(m.find(lib.string() + " ("), std::string::npos) << m;
    EXPECT_NE(m.find(lib.string() + " (deleted)"), std::string::npos)
        << "the file mapped, as the kernel names it now: " << m;
  }
  fs::remove_all(dir);
}

TEST(LibraryBinding, MemoryOfNoFileIsNoLibrary) {
  int on_the_stack = 0;
  EXPECT_THROW(mapped_file(&on_the_stack), std::runtime_error);
  const std::string m = binding_mismatch(identify_library(BNG_FT78NE_LIBRARY), &on_the_stack);
  EXPECT_NE(m, "") << "an address outside every loaded object binds to no file";
}

}  // namespace
}  // namespace bng::cert
