#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace bng::cert {
namespace {

std::runtime_error write_error(const std::filesystem::path& path, const std::string& what) {
  return std::runtime_error(fmt::format("{}: cannot write: {}", path.string(), what));
}

bool is_real_directory(const std::filesystem::path& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// A temporary name no other writer of this process or another one uses.
std::filesystem::path temporary_beside(const std::filesystem::path& path) {
  static std::atomic<unsigned long> counter{0};
  return path.parent_path() /
         fmt::format(".{}.{}.{}.tmp", path.filename().string(), ::getpid(), counter.fetch_add(1));
}

}  // namespace

void prepare_output_dir(const std::filesystem::path& dir, std::string_view option) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec)) {
    throw std::invalid_argument(
        fmt::format("{} {}: exists and is not a directory", option, dir.string()));
  }
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir)) {
    throw std::invalid_argument(fmt::format("{} {}: cannot create the directory ({})", option,
                                            dir.string(), ec ? ec.message() : "unknown error"));
  }
  const std::filesystem::path probe = temporary_beside(dir / "probe");
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw std::invalid_argument(
        fmt::format("{} {}: not writable ({})", option, dir.string(), std::strerror(errno)));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

std::filesystem::path make_subdirectory(const std::filesystem::path& base,
                                        const std::filesystem::path& rel) {
  std::filesystem::path at = base;
  for (const auto& part : rel) {
    if (part.empty() || part == "." || part == ".." || part.is_absolute()) {
      throw std::runtime_error(
          fmt::format("{}: '{}' is not a folder name inside it", base.string(), rel.string()));
    }
    at /= part;
    if (::mkdir(at.c_str(), 0777) != 0 && errno != EEXIST) {
      throw write_error(at, fmt::format("cannot create the directory ({})", std::strerror(errno)));
    }
    if (!is_real_directory(at)) {
      throw std::runtime_error(fmt::format(
          "{}: exists and is not a directory (a symlink there is refused, not followed)",
          at.string()));
    }
  }
  return at;
}

void write_file(const std::filesystem::path& path, std::span<const unsigned char> bytes) {
  const std::filesystem::path tmp = temporary_beside(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw write_error(path, std::strerror(errno));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw write_error(path, std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw write_error(path, std::strerror(err));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw write_error(path, std::strerror(err));
  }
}

void write_text(const std::filesystem::path& path, std::string_view text) {
  write_file(path, {reinterpret_cast<const unsigned char*>(text.data()), text.size()});
}

}  // namespace bng::cert
