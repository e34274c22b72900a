// The text format of tests/data/hard-cases/*.case (README.md there): '#'
// comments, then "key value..." lines; tensors as stored bit patterns in hex.
#pragma once

#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "bng/reference/case.hpp"
#include "bng/reference/rounding.hpp"

namespace bng::prop::test {

inline double from_bits(const std::string& hex, Format f) {
  const auto bits = static_cast<std::uint32_t>(std::stoul(hex, nullptr, 16));
  if (f == Format::binary32) return static_cast<double>(std::bit_cast<float>(bits));
  return ref::half_bits_to_double(static_cast<std::uint16_t>(bits));
}

inline Case read_hard_case(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  Case c;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string key;
    ls >> key;
    if (key == "combo") {
      std::string v;
      ls >> v;
      c.combo = v == "fp"   ? Combo::fp
                : v == "hp" ? Combo::hp
                : v == "mp" ? Combo::mp
                            : throw std::runtime_error(v);
    } else if (key == "batch") {
      ls >> c.batch;
    } else if (key == "channel") {
      ls >> c.channel;
    } else if (key == "is_train") {
      ls >> c.is_train;
    } else {
      std::vector<double>* dst = key == "x"       ? &c.x
                                 : key == "dy"    ? &c.dy
                                 : key == "mean"  ? &c.mean
                                 : key == "invar" ? &c.invar
                                 : key == "scale" ? &c.scale
                                                  : nullptr;
      if (dst == nullptr) throw std::runtime_error(path.string() + ": unknown key " + key);
      const Format f = (key == "x" || key == "dy") ? data_format(c.combo) : stats_format(c.combo);
      std::string hex;
      while (ls >> hex) dst->push_back(from_bits(hex, f));
    }
  }
  if (c.x.size() != static_cast<std::size_t>(c.elements()) || c.dy.size() != c.x.size() ||
      c.mean.size() != static_cast<std::size_t>(c.channel) || c.invar.size() != c.mean.size() ||
      c.scale.size() != c.mean.size()) {
    throw std::runtime_error(path.string() + ": tensor sizes do not match batch x channel");
  }
  return c;
}

}  // namespace bng::prop::test
