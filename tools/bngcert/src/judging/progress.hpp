// Campaign progress on stderr: a redrawn bar when stderr is a terminal, and
// otherwise a plain line every 10 % (logs and CI keep them readable).
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace bng::cert {

class Progress {
 public:
  enum class Style { automatic, bar, lines, quiet };
  Progress(std::string what, std::int64_t total, Style style = Style::automatic);
  ~Progress();                       // finishes the bar's line
  void advance(std::int64_t n = 1);  // thread-safe

 private:
  void draw(bool final);
  std::string what_;
  std::int64_t total_, done_ = 0;
  Style style_;
  int last_decile_ = 0;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex mutex_;
};

}  // namespace bng::cert
