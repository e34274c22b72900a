#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include <fmt/format.h>

namespace bng::cert {
namespace {

std::string kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Closes the descriptor on every path out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string file_kind(const std::filesystem::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return errno == ENOENT ? "missing" : std::strerror(errno);
  return kind_of(st.st_mode);
}

std::vector<unsigned char> read_regular_file(const std::filesystem::path& path,
                                             std::uint64_t max_bytes, Links links) {
  return read_identified_file(path, max_bytes, links).bytes;
}

IdentifiedBytes read_identified_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                                     Links links) {
  const std::string name = path.string();
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
  if (links == Links::refuse) flags |= O_NOFOLLOW;
  const Fd f{::open(path.c_str(), flags)};
  if (f.fd < 0) {
    const int err = errno;
    if (err == ELOOP && links == Links::refuse) {
      throw InputError(
          fmt::format("{}: a symbolic link, refused (files of a pack or shard are "
                      "read only where they lie)",
                      name));
    }
    throw InputError(fmt::format("{}: cannot open: {}", name,
                                 err == ENOENT ? "no such file" : std::strerror(err)));
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) {
    throw InputError(fmt::format("{}: cannot stat: {}", name, std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    throw InputError(fmt::format("{}: {}, not a regular file: refused", name, kind_of(st.st_mode)));
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) {
    throw InputError(fmt::format("{}: {} bytes, more than the {} this kind of file may have", name,
                                 size, max_bytes));
  }
  // Back to blocking reads: a regular file never blocks, but be plain about it.
  ::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK);
  IdentifiedBytes read;
  read.file = {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
  std::vector<unsigned char>& bytes = read.bytes;
  try {
    bytes.resize(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    throw InputError(fmt::format("{}: {} bytes do not fit in memory", name, size));
  }
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(f.fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(fmt::format("{}: read error: {}", name, std::strerror(errno)));
    if (n == 0) {
      throw InputError(
          fmt::format("{}: shrank from {} to {} bytes while being read", name, size, got));
    }
    got += static_cast<std::size_t>(n);
  }
  unsigned char extra = 0;
  if (::read(f.fd, &extra, 1) > 0) {
    throw InputError(fmt::format("{}: grew beyond {} bytes while being read", name, size));
  }
  return read;
}

std::string read_text_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                           Links links) {
  const std::vector<unsigned char> bytes = read_regular_file(path, max_bytes, links);
  return {bytes.begin(), bytes.end()};
}

}  // namespace bng::cert
