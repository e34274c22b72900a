// What every reader fuzzer asserts: a hostile file ends in a refusal (an
// exception naming what is wrong) or is read; never a crash, a hang, a
// sanitizer report, or a raw nlohmann error escaping (those say "type_error
// 306" instead of naming the file and the field).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>

#include <nlohmann/json.hpp>

namespace bng::fuzz {

template <class Read>
void expect_read_or_refused(Read&& read) {
  try {
    read();
  } catch (const nlohmann::json::exception& e) {
    std::fprintf(stderr, "a raw nlohmann error escaped the reader: %s\n", e.what());
    std::abort();
  } catch (const std::exception&) {
    // Refused, with a message: what a hostile file should get.
  }
}

}  // namespace bng::fuzz
