// Choice helpers that shrink. RapidCheck's gen::element and gen::oneOf never
// shrink the choice itself, and gen::inRange collapses to its minimum at size
// 0; these pick uniformly (or by weight) whatever the size and shrink toward
// the first, simplest, option.
#pragma once

#include <rapidcheck.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace bng::prop::gen {

// Uniform in [lo, hi], shrinking toward `toward` (which must lie in the range).
template <typename T>
rc::Gen<T> pick(T lo, T hi, T toward) {
  return rc::Gen<T>([=](const rc::Random& random, int) {
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    const T v = static_cast<T>(lo + static_cast<T>(rc::Random(random).next() % span));
    return rc::shrinkable::shrinkRecur(v, [=](T x) { return rc::shrink::towards<T>(x, toward); });
  });
}

// One of `values`, shrinking toward values.front().
template <typename T>
rc::Gen<T> pick_of(std::vector<T> values) {
  const std::size_t last =
      values.size() - 1;  // before the move below: argument order is unspecified
  return rc::gen::map(pick<std::size_t>(0, last, 0),
                      [values = std::move(values)](std::size_t i) { return values[i]; });
}

// A generator chosen by weight; shrinks the choice toward the first option,
// then within the chosen generator.
template <typename T>
rc::Gen<T> choose(std::vector<std::pair<unsigned, rc::Gen<T>>> options) {
  std::vector<std::size_t> owner;
  for (std::size_t i = 0; i < options.size(); ++i) owner.insert(owner.end(), options[i].first, i);
  return rc::gen::mapcat(
      pick<std::size_t>(0, owner.size() - 1, 0),
      [owner, options = std::move(options)](std::size_t k) { return options[owner[k]].second; });
}

// Size-scaled upper bound: 1 at size 0, `max` from size 100 on.
inline std::int64_t scaled(std::int64_t max, int size) {
  if (size >= 100) return max;
  const std::int64_t v = 1 + (max - 1) * std::max(size, 0) / 100;
  return std::max<std::int64_t>(v, 1);
}

}  // namespace bng::prop::gen
