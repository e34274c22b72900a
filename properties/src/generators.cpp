#include "bng/properties/generators.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "bng/properties/pick.hpp"
#include "bng/reference/rounding.hpp"
#include "values.hpp"

namespace bng::prop::gen {

// ---- shapes ------------------------------------------------------------------------

rc::Gen<std::int64_t> extent(std::int64_t max) {
  return rc::gen::withSize([max](int size) {
    const std::int64_t cap =
        std::max<std::int64_t>(scaled(max, size * 2), std::min<std::int64_t>(max, 17));
    auto fit = [cap](std::vector<std::int64_t> v) {
      std::vector<std::int64_t> out;
      for (auto e : v) {
        if (e >= 1 && e <= cap) out.push_back(e);
      }
      if (out.empty()) out.push_back(1);
      return out;
    };
    // 8/16 binary32 lanes (AVX2/AVX-512), 16/32 binary16 lanes, and the 64-lane blocks kernels
    // unroll to.
    const std::vector<std::int64_t> lanes =
        fit({7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129});
    const std::vector<std::int64_t> primes =
        fit({2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 61, 127, 251, 509, 1021});
    std::vector<std::int64_t> pow2;
    for (std::int64_t p = 2; p <= cap + 1; p *= 2) {
      for (std::int64_t d : {-1, 0, 1}) pow2.push_back(p + d);
    }
    return choose<std::int64_t>({
        {4, rc::gen::just<std::int64_t>(1)},
        {3, pick_of(primes)},
        {3, pick_of(fit(pow2))},
        {3, pick_of(lanes)},
        {4, pick<std::int64_t>(1, cap, 1)},
    });
  });
}

rc::Gen<Shape> shape() {
  return rc::gen::withSize([](int size) {
    auto balanced = rc::gen::mapcat(extent(512), [](std::int64_t batch) {
      return rc::gen::map(
          extent(std::max<std::int64_t>(1, std::min<std::int64_t>(512, kMaxElements / batch))),
          [batch](std::int64_t channel) {
            return Shape{batch, channel};
          });
    });
    // Skewed shapes are where partitioning goes wrong: a few channels over many
    // cores (split the batch) or a short batch over many channels.
    auto tall = rc::gen::mapcat(pick<std::int64_t>(1, 3, 1), [size](std::int64_t channel) {
      return rc::gen::map(pick<std::int64_t>(1, scaled(kMaxElements / channel, size), 1),
                          [channel](std::int64_t batch) {
                            return Shape{batch, channel};
                          });
    });
    auto wide = rc::gen::mapcat(pick<std::int64_t>(1, 3, 1), [size](std::int64_t batch) {
      return rc::gen::map(pick<std::int64_t>(1, scaled(kMaxElements / batch / 4, size), 1),
                          [batch](std::int64_t channel) {
                            return Shape{batch, channel};
                          });
    });
    return choose<Shape>({{8, balanced}, {1, tall}, {1, wide}});
  });
}

rc::Gen<Shape> large_shape() {
  return rc::gen::mapcat(pick_of<std::int64_t>({1, 2, 3, 4, 7, 8, 16, 33, 64, 255, 256, 257}),
                         [](std::int64_t channel) {
                           return rc::gen::map(
                               pick<std::int64_t>(kMaxElements / channel, kLargeElements / channel,
                                                  kMaxElements / channel),
                               [channel](std::int64_t batch) {
                                 return Shape{batch, channel};
                               });
                         });
}

rc::Gen<Shape> small_shape() {
  return rc::gen::map(rc::gen::pair(extent(17), extent(17)),
                      [](const std::pair<std::int64_t, std::int64_t>& p) {
                        return Shape{p.first, p.second};
                      });
}

// ---- core masks --------------------------------------------------------------------

rc::Gen<unsigned> valid_mask() {
  return choose<unsigned>({
      {2, pick_of<unsigned>({0x1, 0x3, 0xFF, 0x2, 0x80, 0x81, 0x55, 0xAA, 0x7F, 0xFE})},
      {3, pick<unsigned>(1, kAllCores, 1)},
  });
}

rc::Gen<int> invalid_mask() {
  return choose<int>({
      {2, pick_of<int>({0, 0x100, -1, std::numeric_limits<int>::min(), 0x1FF, 0x101})},
      {2, rc::gen::map(pick<int>(8, 30, 8), [](int bit) { return 1 << bit; })},
      {1, rc::gen::map(rc::gen::pair(pick<int>(8, 30, 8), pick<int>(1, 0xFF, 1)),
                       [](const std::pair<int, int>& p) { return (1 << p.first) | p.second; })},
  });
}

rc::Gen<CallSpec> call_spec(Target t, Combo c) {
  return rc::gen::map(rc::gen::tuple(pick<int>(0, 1, 0), pick<int>(0, 1, 0), valid_mask()),
                      [t, c](const std::tuple<int, int, unsigned>& v) {
                        CallSpec s{t, c, std::get<0>(v) == 0 ? Storage::shared : Storage::private_,
                                   std::get<1>(v) == 0 ? Form::params : Form::flat, std::get<2>(v)};
                        if (!exists(s)) s.form = Form::params;  // mp has no flat form
                        return s;
                      });
}

// ---- values -------------------------------------------------------------------------------

rc::Gen<double> uniform(Format f, double lo, double hi) {
  constexpr std::int64_t steps = std::int64_t{1} << 24;
  // Shrinks toward the range's simplest point: 0 when inside it, else lo.
  const std::int64_t toward =
      (lo <= 0 && hi >= 0) ? static_cast<std::int64_t>(-lo / (hi - lo) * steps) : 0;
  return rc::gen::map(
      pick<std::int64_t>(0, steps, std::clamp<std::int64_t>(toward, 0, steps)),
      [=](std::int64_t i) {
        return round_to(f, lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(steps));
      });
}

rc::Gen<double> log_uniform(Format f) {
  const ref::FormatTraits t = ref::traits(f);
  return rc::gen::map(
      rc::gen::tuple(pick<int>(0, 1, 0), pick<int>(t.emin, t.emax, 0),
                     pick<std::int64_t>(0, (std::int64_t{1} << (t.precision - 1)) - 1, 0)),
      [t](const std::tuple<int, int, std::int64_t>& v) {
        const double sig = 1.0 + std::ldexp(static_cast<double>(std::get<2>(v)), 1 - t.precision);
        const double m = std::ldexp(sig, std::get<1>(v));
        return std::get<0>(v) != 0 ? -m : m;
      });
}

rc::Gen<double> subnormal(Format f) {
  const ref::FormatTraits t = ref::traits(f);
  return rc::gen::map(
      rc::gen::pair(pick<int>(0, 1, 0),
                    pick<std::int64_t>(0, (std::int64_t{1} << (t.precision - 1)) - 1, 0)),
      [t](const std::pair<int, std::int64_t>& v) {
        const double m = std::ldexp(static_cast<double>(v.second), t.emin - t.precision + 1);
        return v.first != 0 ? -m : m;
      });
}

rc::Gen<double> near_max(Format f) {
  const ref::FormatTraits t = ref::traits(f);
  return rc::gen::map(
      rc::gen::pair(pick<int>(0, 1, 0), pick<int>(0, 16, 0)), [t, f](const std::pair<int, int>& v) {
        const double m =
            max_finite(f) - std::ldexp(static_cast<double>(v.second), t.emax - t.precision + 1);
        return v.first != 0 ? -m : m;
      });
}

rc::Gen<double> signed_zero() {
  return pick_of<double>({0.0, -0.0});
}

rc::Gen<double> non_finite() {
  return pick_of<double>({std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::quiet_NaN()});
}

rc::Gen<double> any_finite(Format f) {
  return choose<double>({
      {6, uniform(f, -4, 4)},
      {1, rc::gen::cast<double>(pick<int>(-8, 8, 0))},
      {3, log_uniform(f)},
      {1, subnormal(f)},
      {1, near_max(f)},
      {1, signed_zero()},
  });
}

// ---- statistics
// ----------------------------------------------------------------------------------

rc::Gen<double> epsilon() {
  return pick_of<double>({1e-5, 1e-3, 1.0});
}

Stats consistent_stats(const std::vector<double>& x, std::int64_t batch, std::int64_t channel,
                       Format stats_fmt, double eps, const std::vector<double>& scale) {
  Stats s;
  s.scale = scale;
  const auto ch = static_cast<std::size_t>(channel);
  for (std::size_t c = 0; c < ch; ++c) {
    // Two passes in double, as frameworks' reference paths do; what matters is
    // only that mean and invar are what a caller would plausibly pass.
    double sum = 0;
    for (std::int64_t n = 0; n < batch; ++n) sum += x[static_cast<std::size_t>(n) * ch + c];
    const double mean = sum / static_cast<double>(batch);
    double ss = 0;
    for (std::int64_t n = 0; n < batch; ++n) {
      const double d = x[static_cast<std::size_t>(n) * ch + c] - mean;
      ss += d * d;
    }
    const double var = ss / static_cast<double>(batch);
    s.mean.push_back(round_to(stats_fmt, mean));
    s.invar.push_back(round_to(stats_fmt, 1.0 / std::sqrt(var + eps)));
  }
  return s;
}

}  // namespace bng::prop::gen
