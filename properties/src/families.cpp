#include "bng/properties/families.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "bng/properties/generators.hpp"
#include "bng/properties/pick.hpp"
#include "bng/reference/rounding.hpp"
#include "values.hpp"

namespace bng::prop {
namespace {

using gen::Shape;
using Vec = std::vector<double>;

// Vectors longer than this do not shrink element by element. RapidCheck tries
// every shrink of every element, and each try rebuilds the whole vector: on a
// 37547-row case that is ~10^6 tries of O(n) each, hours before a failing
// property reports (it hung CI's bites). A long case shrinks by its shape
// instead (the families draw the shape first), and its values are the same:
// noShrink draws from the same random stream.
constexpr std::int64_t kShrinkElementsUpTo = 1024;

template <class T>
rc::Gen<std::vector<T>> vec_of(std::int64_t n, rc::Gen<T> g) {
  auto values = rc::gen::container<std::vector<T>>(static_cast<std::size_t>(n), std::move(g));
  return n <= kShrinkElementsUpTo ? values : rc::gen::noShrink(std::move(values));
}

rc::Gen<Vec> vec(std::int64_t n, rc::Gen<double> g) {
  return vec_of(n, std::move(g));
}

rc::Gen<int> is_train() {
  return gen::pick_of<int>({1, 0});
}

// Moderate magnitudes spread over half the exponent range either side of 1:
// wide enough to make cancellation lose many bits, far from overflow.
rc::Gen<double> spread(Format f) {
  const ref::FormatTraits t = ref::traits(f);
  return rc::gen::map(
      rc::gen::tuple(gen::pick<int>(0, 1, 0), gen::pick<int>(-t.emax / 2, t.emax / 2, 0),
                     gen::pick<std::int64_t>(0, (std::int64_t{1} << (t.precision - 1)) - 1, 0)),
      [t](const std::tuple<int, int, std::int64_t>& v) {
        const double m = std::ldexp(
            1.0 + std::ldexp(static_cast<double>(std::get<2>(v)), 1 - t.precision), std::get<1>(v));
        return std::get<0>(v) != 0 ? -m : m;
      });
}

rc::Gen<double> positive(rc::Gen<double> g) {
  return rc::gen::map(std::move(g), [](double v) { return std::fabs(v); });
}

Case make(Combo combo, Shape s, int train, Vec x, Vec dy) {
  Case c;
  c.combo = combo;
  c.batch = s.batch;
  c.channel = s.channel;
  c.is_train = train;
  c.x = std::move(x);
  c.dy = std::move(dy);
  return c;
}

void set_consistent(Case& c, double eps, Vec scale) {
  gen::Stats st = gen::consistent_stats(c.x, c.batch, c.channel, stats_format(c.combo), eps, scale);
  c.mean = std::move(st.mean);
  c.invar = std::move(st.invar);
  c.scale = std::move(st.scale);
}

// A family whose x and dy are drawn element-wise, with consistent statistics
// and scale from `scale_gen`.
rc::Gen<Case> elementwise(Combo combo, rc::Gen<double> xg, rc::Gen<double> dyg,
                          rc::Gen<double> scale_gen) {
  return rc::gen::mapcat(
      rc::gen::pair(gen::shape(), is_train()), [=](const std::pair<Shape, int>& p) {
        const Shape s = p.first;
        return rc::gen::map(
            rc::gen::tuple(vec(s.batch * s.channel, xg), vec(s.batch * s.channel, dyg),
                           vec(s.channel, scale_gen), gen::epsilon()),
            [=](const std::tuple<Vec, Vec, Vec, double>& v) {
              Case c = make(combo, s, p.second, std::get<0>(v), std::get<1>(v));
              set_consistent(c, std::get<3>(v), std::get<2>(v));
              return c;
            });
      });
}

rc::Gen<Case> ordinary(Combo combo) {
  const Format df = data_format(combo), sf = stats_format(combo);
  return elementwise(combo, gen::uniform(df, -4, 4), gen::uniform(df, -1, 1),
                     gen::uniform(sf, -2, 2));
}

rc::Gen<Case> integers(Combo combo) {
  auto small = rc::gen::cast<double>(gen::pick<int>(-8, 8, 0));
  return rc::gen::mapcat(
      rc::gen::pair(gen::shape(), is_train()), [=](const std::pair<Shape, int>& p) {
        const Shape s = p.first;
        auto pow2 =
            rc::gen::map(gen::pick<int>(-3, 3, 0), [](int e) { return std::ldexp(1.0, e); });
        return rc::gen::map(
            rc::gen::tuple(vec(s.batch * s.channel, small), vec(s.batch * s.channel, small),
                           vec(s.channel, small), vec(s.channel, pow2), vec(s.channel, small)),
            [=](const std::tuple<Vec, Vec, Vec, Vec, Vec>& v) {
              Case c = make(combo, s, p.second, std::get<0>(v), std::get<1>(v));
              c.mean = std::get<2>(v);
              c.invar = std::get<3>(v);
              c.scale = std::get<4>(v);
              return c;
            });
      });
}

// Whole-format values with arbitrary statistics: exercises intermediate
// overflow and underflow, which are the kernel's problem where y* is finite.
rc::Gen<Case> log_uniform(Combo combo) {
  const Format df = data_format(combo), sf = stats_format(combo);
  return rc::gen::mapcat(
      rc::gen::pair(gen::shape(), is_train()), [=](const std::pair<Shape, int>& p) {
        const Shape s = p.first;
        return rc::gen::map(rc::gen::tuple(vec(s.batch * s.channel, gen::log_uniform(df)),
                                           vec(s.batch * s.channel, gen::log_uniform(df)),
                                           vec(s.channel, gen::log_uniform(sf)),
                                           vec(s.channel, positive(gen::log_uniform(sf))),
                                           vec(s.channel, gen::log_uniform(sf))),
                            [=](const std::tuple<Vec, Vec, Vec, Vec, Vec>& v) {
                              Case c = make(combo, s, p.second, std::get<0>(v), std::get<1>(v));
                              c.mean = std::get<2>(v);
                              c.invar = std::get<3>(v);
                              c.scale = std::get<4>(v);
                              return c;
                            });
      });
}

rc::Gen<Case> subnormals(Combo combo) {
  const Format df = data_format(combo), sf = stats_format(combo);
  auto tiny = gen::choose<double>(
      {{3, gen::subnormal(df)}, {1, gen::signed_zero()}, {1, gen::uniform(df, -1, 1)}});
  // Huge invar makes subnormal differences matter in xhat; consistent stats give invar ≈
  // 1/sqrt(eps).
  return rc::gen::mapcat(rc::gen::pair(elementwise(combo, tiny, tiny, gen::uniform(sf, -2, 2)),
                                       gen::pick<int>(0, 1, 0)),
                         [=](const std::pair<Case, int>& p) {
                           if (p.second == 0) return rc::gen::just(p.first);
                           return rc::gen::map(vec(p.first.channel, positive(gen::log_uniform(sf))),
                                               [base = p.first](const Vec& invar) {
                                                 Case c = base;
                                                 c.invar = invar;
                                                 return c;
                                               });
                         });
}

rc::Gen<Case> near_max(Combo combo) {
  const Format df = data_format(combo), sf = stats_format(combo);
  auto big = gen::choose<double>({{1, gen::uniform(df, -4, 4)}, {2, gen::near_max(df)}});
  return elementwise(combo, big, big, gen::uniform(sf, -2, 2));
}

rc::Gen<Case> zeros(Combo combo) {
  const Format df = data_format(combo), sf = stats_format(combo);
  auto z = [](Format f) {
    return gen::choose<double>({{3, gen::signed_zero()}, {1, gen::uniform(f, -2, 2)}});
  };
  return elementwise(combo, z(df), z(df), z(sf));
}

rc::Gen<Case> arbitrary_stats(Combo combo) {
  const Format df = data_format(combo), sf = stats_format(combo);
  return rc::gen::mapcat(
      elementwise(combo, gen::uniform(df, -4, 4), gen::uniform(df, -1, 1), gen::uniform(sf, -2, 2)),
      [=](const Case& base) {
        return rc::gen::map(rc::gen::tuple(vec(base.channel, gen::any_finite(sf)),
                                           vec(base.channel, gen::any_finite(sf)),
                                           vec(base.channel, gen::any_finite(sf))),
                            [base](const std::tuple<Vec, Vec, Vec>& v) {
                              Case c = base;
                              c.mean = std::get<0>(v);
                              c.invar = std::get<1>(v);
                              c.scale = std::get<2>(v);
                              return c;
                            });
      });
}

// dy mirrored within each column (row n and row batch-1-n opposite), the
// middle row of an odd batch left free: dbias ≈ 0 with large Σ|dy|, so the
// tolerance is 1 ulp of a tiny value plus α·M.
rc::Gen<Case> dy_cancel(Combo combo) {
  const Format df = data_format(combo), sf = stats_format(combo);
  return rc::gen::map(
      elementwise(combo, gen::uniform(df, -4, 4), spread(df), gen::uniform(sf, -2, 2)), [](Case c) {
        const auto ch = static_cast<std::size_t>(c.channel);
        for (std::int64_t n = 0; n < c.batch / 2; ++n) {
          for (std::size_t k = 0; k < ch; ++k) {
            c.dy[static_cast<std::size_t>(c.batch - 1 - n) * ch + k] =
                -c.dy[static_cast<std::size_t>(n) * ch + k];
          }
        }
        return c;
      });
}

// dy_cancel on large_shape(): the mirrored rows n and batch-1-n fall in
// different reduction blocks, so block and band totals cancel only when they
// are combined; how they are combined shows in the low bits of dbias/dscale.
rc::Gen<Case> large_cancel(Combo combo) {
  const Format df = data_format(combo), sf = stats_format(combo);
  return rc::gen::mapcat(
      rc::gen::pair(gen::large_shape(), is_train()), [=](const std::pair<Shape, int>& p) {
        const Shape s = p.first;
        return rc::gen::map(rc::gen::tuple(vec(s.batch * s.channel, gen::uniform(df, -4, 4)),
                                           vec(s.batch * s.channel, spread(df)),
                                           vec(s.channel, gen::uniform(sf, -2, 2)), gen::epsilon()),
                            [=](const std::tuple<Vec, Vec, Vec, double>& v) {
                              Case c = make(combo, s, p.second, std::get<0>(v), std::get<1>(v));
                              set_consistent(c, std::get<3>(v), std::get<2>(v));
                              const auto ch = static_cast<std::size_t>(c.channel);
                              for (std::int64_t n = 0; n < c.batch / 2; ++n) {
                                for (std::size_t k = 0; k < ch; ++k) {
                                  c.dy[static_cast<std::size_t>(c.batch - 1 - n) * ch + k] =
                                      -c.dy[static_cast<std::size_t>(n) * ch + k];
                                }
                              }
                              return c;
                            });
      });
}

// x within a few ulps of a per-channel base: x - mean cancels almost entirely.
rc::Gen<Case> x_constant(Combo combo) {
  const Format df = data_format(combo), sf = stats_format(combo);
  return rc::gen::mapcat(
      rc::gen::pair(gen::shape(), is_train()), [=](const std::pair<Shape, int>& p) {
        const Shape s = p.first;
        return rc::gen::map(rc::gen::tuple(vec(s.channel, gen::uniform(df, -4, 4)),
                                           vec(s.batch * s.channel,
                                               rc::gen::cast<double>(gen::pick<int>(-3, 3, 0))),
                                           vec(s.batch * s.channel, gen::uniform(df, -1, 1)),
                                           vec(s.channel, gen::uniform(sf, -2, 2)), gen::epsilon()),
                            [=](const std::tuple<Vec, Vec, Vec, Vec, double>& v) {
                              const Vec& base = std::get<0>(v);
                              Vec x(std::get<1>(v).size());
                              const auto ch = static_cast<std::size_t>(s.channel);
                              for (std::size_t i = 0; i < x.size(); ++i) {
                                const double b = base[i % ch];
                                x[i] = round_to(df, b + std::get<1>(v)[i] * ref::ulp_in(df, b));
                              }
                              Case c = make(combo, s, p.second, std::move(x), std::get<2>(v));
                              set_consistent(c, std::get<4>(v), std::get<3>(v));
                              return c;
                            });
      });
}

// x = μ_c + small spread with |μ_c| far above the spread: x - mean keeps only
// the low bits of x.
rc::Gen<Case> mean_dominates(Combo combo) {
  const Format df = data_format(combo), sf = stats_format(combo);
  const int top = df == Format::binary32 ? 30 : 13;
  return rc::gen::mapcat(
      rc::gen::pair(gen::shape(), is_train()), [=](const std::pair<Shape, int>& p) {
        const Shape s = p.first;
        return rc::gen::map(
            rc::gen::tuple(vec(s.channel, rc::gen::cast<double>(gen::pick<int>(4, top, 4))),
                           vec(s.channel, rc::gen::cast<double>(gen::pick<int>(0, 1, 0))),
                           vec(s.batch * s.channel, gen::uniform(Format::binary32, -1, 1)),
                           vec(s.batch * s.channel, gen::uniform(df, -1, 1)),
                           vec(s.channel, gen::uniform(sf, -2, 2)), gen::epsilon()),
            [=](const std::tuple<Vec, Vec, Vec, Vec, Vec, double>& v) {
              const auto ch = static_cast<std::size_t>(s.channel);
              Vec x(std::get<2>(v).size());
              for (std::size_t i = 0; i < x.size(); ++i) {
                const double mu = std::ldexp(std::get<1>(v)[i % ch] != 0 ? -1.5 : 1.5,
                                             static_cast<int>(std::get<0>(v)[i % ch]));
                x[i] = round_to(df, mu + std::get<2>(v)[i]);
              }
              Case c = make(combo, s, p.second, std::move(x), std::get<3>(v));
              set_consistent(c, std::get<5>(v), std::get<4>(v));
              return c;
            });
      });
}

// The output format's overflow threshold MAX + ulp_top/2, from which (ties
// to even: MAX's significand is odd) a value rounds to ±Inf, and ulp_top.
struct OverflowEdge {
  double threshold, ulp_top;
};
OverflowEdge overflow_edge_of(Format f) {
  const ref::FormatTraits t = ref::traits(f);
  const double ulp_top = std::ldexp(1.0, t.emax + 1 - t.precision);
  return {std::ldexp(2.0, t.emax) - ulp_top / 2, ulp_top};
}

// One channel's draw for overflow_edge: which output sits at the edge (0:
// dx = a*dy, 1: dbias), the distance from the threshold in quarters (dx)
// or eighths (dbias) of ulp_top, -8..8, and the exponents and significands
// of dy and invar and the channel's constant x.
struct EdgeDraw {
  int mode, steps, dy_exp, invar_exp;
  double dy_significand, invar_significand, x;
};

rc::Gen<EdgeDraw> edge_draw(Format df, Format sf) {
  const bool wide = df == Format::binary32;
  return rc::gen::map(
      rc::gen::tuple(gen::pick<int>(0, 1, 0), gen::pick<int>(-8, 8, 0),
                     gen::pick<int>(1, wide ? 20 : 7, 1), gen::pick<int>(0, wide ? 90 : 6, 0),
                     gen::uniform(df, 1, 2), gen::uniform(sf, 1, 2), gen::uniform(df, -4, 4)),
      [](const std::tuple<int, int, int, int, double, double, double>& v) {
        return EdgeDraw{std::get<0>(v), std::get<1>(v), std::get<2>(v), std::get<3>(v),
                        std::get<4>(v), std::get<5>(v), std::get<6>(v)};
      });
}

// dy one data ulp up (k = 1) or down (k = -1) from g > 0, or g itself.
double nudged(Format f, double g, int k) {
  const double u = ref::ulp_in(f, g);
  int e = 0;
  const double down = std::frexp(g, &e) == 0.5 ? u / 2 : u;  // the spacing halves below 2^e
  return k > 0 ? g + u : k < 0 ? g - down : g;
}

// Channel ch of case c at the overflow edge. x = mean (x̂ = 0), so that
// training dx is a*(dy - Σdy/m). Mode 0: scale = RN(edge / (invar*g)) for an
// edge a few quarter-ulps from the threshold, and dy = ±g (one ulp up or
// down on some rows): inference dx = a*dy lands just below, at or above the
// threshold, and so does training dx, whose dy is mirrored (row n and row
// batch-1-n opposite, the middle row 0) so that Σdy = 0. Mode 1 (data and
// dbias in the same format, batch >= 2): dy = ±MAX and ±(ulp_top/2 + a few
// eighths), the rest 0, so that dbias = Σdy sits at the threshold.
void place_at_edge(Case& c, std::int64_t ch, const EdgeDraw& d) {
  const Format df = data_format(c.combo), sf = stats_format(c.combo);
  const OverflowEdge edge = overflow_edge_of(df);
  const auto width = static_cast<std::size_t>(c.channel);
  const auto at = [&](std::int64_t n) -> double& {
    return c.dy[static_cast<std::size_t>(n) * width + static_cast<std::size_t>(ch)];
  };
  const auto k = static_cast<std::size_t>(ch);
  c.mean[k] = d.x;
  for (std::int64_t n = 0; n < c.batch; ++n) {
    c.x[static_cast<std::size_t>(n) * width + k] = d.x;
  }
  const double invar = round_to(sf, std::ldexp(d.invar_significand, d.invar_exp));
  c.invar[k] = invar;
  const bool dbias_edge = d.mode == 1 && df == sf && c.batch >= 2;
  if (dbias_edge) {
    c.scale[k] = 1;
    const double sign = d.steps % 2 == 0 ? 1.0 : -1.0;
    for (std::int64_t n = 0; n < c.batch; ++n) at(n) = 0;
    at(0) = sign * (edge.threshold - edge.ulp_top / 2);  // ±MAX
    at(c.batch - 1) = sign * (edge.ulp_top / 2 + d.steps * edge.ulp_top / 8);
    return;
  }
  const double g = round_to(df, std::ldexp(d.dy_significand, d.dy_exp));
  const double target = edge.threshold + d.steps * edge.ulp_top / 4;
  c.scale[k] = round_to(sf, target / (invar * g));
  const std::int64_t mirrored = c.is_train != 0 ? c.batch / 2 : c.batch;
  for (std::int64_t n = 0; n < mirrored; ++n) {
    at(n) = (n % 2 == 0 ? 1.0 : -1.0) * nudged(df, g, static_cast<int>(n % 3) - 1);
    if (c.is_train != 0) at(c.batch - 1 - n) = -at(n);
  }
  if (c.is_train != 0 && c.batch % 2 == 1) at(c.batch / 2) = 0;
}

// Outputs just below, at and just above the output format's overflow
// threshold, in inference and training: where y* rounds to ±Inf a
// correctly rounded output must be ±Inf (SPEC §5), not ±MAX.
rc::Gen<Case> overflow_edge(Combo combo) {
  const Format df = data_format(combo), sf = stats_format(combo);
  return rc::gen::mapcat(
      rc::gen::pair(gen::shape(), is_train()), [=](const std::pair<Shape, int>& p) {
        const Shape s = p.first;
        return rc::gen::map(vec_of(s.channel, edge_draw(df, sf)),
                            [=](const std::vector<EdgeDraw>& draws) {
                              const auto n = static_cast<std::size_t>(s.batch * s.channel);
                              Case c = make(combo, s, p.second, Vec(n), Vec(n));
                              const auto ch = static_cast<std::size_t>(s.channel);
                              c.mean.assign(ch, 0.0);
                              c.invar.assign(ch, 1.0);
                              c.scale.assign(ch, 1.0);
                              for (std::int64_t k = 0; k < s.channel; ++k) {
                                place_at_edge(c, k, draws[static_cast<std::size_t>(k)]);
                              }
                              return c;
                            });
      });
}

enum class Slot : int { x, dy, mean, invar, scale };

// One channel gets NaN or ±Inf in one or two of its inputs; SPEC §4 says it
// must reach no other channel and SPEC §5 says what the reference expects in it.
rc::Gen<Case> nonfinite_channel(Combo combo) {
  return rc::gen::mapcat(ordinary(combo), [](const Case& base) {
    auto plant = rc::gen::tuple(gen::pick<int>(0, 4, 0),
                                gen::pick<std::int64_t>(0, base.batch - 1, 0), gen::non_finite());
    return rc::gen::map(rc::gen::tuple(gen::pick<std::int64_t>(0, base.channel - 1, 0), plant,
                                       plant, gen::pick<int>(0, 1, 0)),
                        [base](const auto& v) {
                          Case c = base;
                          const auto ch = static_cast<std::size_t>(c.channel);
                          const auto col = static_cast<std::size_t>(std::get<0>(v));
                          auto apply = [&](const std::tuple<int, std::int64_t, double>& pl) {
                            const auto row = static_cast<std::size_t>(std::get<1>(pl));
                            const double val = std::get<2>(pl);
                            switch (static_cast<Slot>(std::get<0>(pl))) {
                              case Slot::x:
                                c.x[row * ch + col] = val;
                                break;
                              case Slot::dy:
                                c.dy[row * ch + col] = val;
                                break;
                              case Slot::mean:
                                c.mean[col] = val;
                                break;
                              case Slot::invar:
                                c.invar[col] = val;
                                break;
                              case Slot::scale:
                                c.scale[col] = val;
                                break;
                            }
                          };
                          apply(std::get<1>(v));
                          if (std::get<3>(v) != 0) apply(std::get<2>(v));
                          return c;
                        });
  });
}

const Family kFamilies[] = {
    {"ordinary",
     "x in [-4,4], dy in [-1,1], statistics computed from x as a framework would, scale in [-2,2]",
     &ordinary, true},
    {"integers",
     "small integers and power-of-two invar: exact arithmetic, the easiest failures to read",
     &integers, true},
    {"log_uniform",
     "x, dy, mean, invar, scale log-uniform over the whole format: intermediate overflow/underflow",
     &log_uniform, true},
    {"subnormals", "x and dy subnormal or zero, invar consistent or log-uniform: gradual underflow",
     &subnormals, true},
    {"near_max",
     "x and dy within 16 ulp of the format's maximum (65504 for binary16) mixed with ordinary "
     "values",
     &near_max, true},
    {"zeros", "mostly +0/-0 in x, dy and scale: signs of zero and exact zero outputs", &zeros,
     true},
    {"arbitrary_stats",
     "mean, invar, scale anything finite (any sign, subnormal, near max), unrelated to x",
     &arbitrary_stats, true},
    {"dy_cancel",
     "dy mirrored within each column over half the exponent range: dbias cancels to ~0", &dy_cancel,
     true},
    {"large_cancel",
     "dy_cancel on 65536..131072 elements (tall and wide): cancellation across reduction blocks "
     "and bands",
     &large_cancel, true, true},
    {"x_constant", "x within 3 ulp of a per-channel constant: x - mean cancels, variance ~0",
     &x_constant, true},
    {"mean_dominates",
     "|mean| up to 2^30 (binary16: 2^13) above a unit spread: x - mean keeps only low bits",
     &mean_dominates, true},
    {"overflow_edge",
     "inference and training dx (and dbias where it has the data's format) just below, at and "
     "just above the output format's overflow threshold MAX + ulp/2",
     &overflow_edge, true},
    {"nonfinite_channel",
     "an ordinary case with NaN or ±Inf planted in one or two inputs of one channel",
     &nonfinite_channel, false},
};

}  // namespace

std::span<const Family> families() {
  return kFamilies;
}

const Family* find_family(std::string_view name) {
  for (const Family& f : kFamilies) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

rc::Gen<NamedCase> any_family(Combo combo, bool finite_only, bool include_large) {
  std::vector<const Family*> chosen;
  for (const Family& f : kFamilies) {
    if ((f.finite || !finite_only) && (!f.large || include_large)) chosen.push_back(&f);
  }
  return rc::gen::mapcat(gen::pick<std::size_t>(0, chosen.size() - 1, 0), [chosen,
                                                                           combo](std::size_t i) {
    const Family* f = chosen[i];
    return rc::gen::map(f->gen(combo), [f](Case c) { return NamedCase{f->name, std::move(c)}; });
  });
}

Case sample(const Family& f, Combo combo, std::uint64_t seed, int size) {
  return f.gen(combo)(rc::Random(seed), size).value();
}

}  // namespace bng::prop
