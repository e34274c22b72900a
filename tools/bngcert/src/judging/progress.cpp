#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

namespace bng::cert {

Progress::Progress(std::string what, std::int64_t total, Style style)
    : what_(std::move(what)), total_(total), style_(style) {
  if (style_ == Style::automatic) style_ = ::isatty(STDERR_FILENO) ? Style::bar : Style::lines;
  start_ = last_draw_ = std::chrono::steady_clock::now();
  if (style_ == Style::lines) fmt::print(stderr, "bngcert: {}: {} to do\n", what_, total_);
  if (style_ == Style::bar) draw(false);
}

Progress::~Progress() {
  std::lock_guard lock(mutex_);
  if (style_ == Style::bar) {
    draw(true);
    fmt::print(stderr, "\n");
  }
}

void Progress::advance(std::int64_t n) {
  std::lock_guard lock(mutex_);
  done_ += n;
  if (style_ == Style::bar) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_draw_ > std::chrono::milliseconds(100) || done_ == total_) {
      last_draw_ = now;
      draw(false);
    }
  } else if (style_ == Style::lines && total_ > 0) {
    const int decile = static_cast<int>(done_ * 10 / total_);
    if (decile > last_decile_) {
      last_decile_ = decile;
      draw(false);
    }
  }
}

void Progress::draw(bool final) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double fraction =
      total_ > 0 ? static_cast<double>(done_) / static_cast<double>(total_) : 1.0;
  if (style_ == Style::lines) {
    fmt::print(stderr, "bngcert: {}: {:3.0f}% ({}/{}, {:.0f} s)\n", what_, fraction * 100, done_,
               total_, seconds);
    return;
  }
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(kWidth - filled), '.');
  std::string eta;
  if (!final && done_ > 0 && done_ < total_) {
    eta = fmt::format(", ~{:.0f} s left", seconds / fraction * (1 - fraction));
  }
  fmt::print(stderr, "\r{} [{}] {:3.0f}% {}/{} ({:.0f} s{})\x1b[K", what_, bar, fraction * 100,
             done_, total_, seconds, eta);
  std::fflush(stderr);
}

}  // namespace bng::cert
