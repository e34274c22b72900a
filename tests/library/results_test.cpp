// The entry points deliver SPEC §1 through the right wires: every params slot
// and flat argument reaches the kernel as the quantity it names (a swapped
// mean/invar, or dbias/dscale, fails the reference check by far), and the
// forms agree bit for bit (SPEC §4: params vs flat, _s for any mask vs _p).
// Accuracy itself is tests/kernels' and properties/' business.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "batchnormgrad.h"
#include "bng/optimized/targets.hpp"
#include "bng/reference/error_measure.hpp"
#include "bng/reference/reference.hpp"
#include "bng/reference/rounding.hpp"
#include "entry_points.hpp"

namespace bng::test {
namespace {

// A tensor in the element type of its format (binary32 or binary16 bits).
class Tensor {
 public:
  Tensor(std::size_t n, std::size_t element)
      : n_(n), element_(element), words_((n * element + 7) / 8) {}
  void* data() { return words_.data(); }
  void set(std::size_t i, double v) {
    auto* bytes = reinterpret_cast<unsigned char*>(words_.data()) + i * element_;
    if (element_ == 4) {
      const auto f = static_cast<float>(v);
      std::memcpy(bytes, &f, 4);
    } else {
      const std::uint16_t h = ref::double_to_half_bits(v);
      std::memcpy(bytes, &h, 2);
    }
  }
  double get(std::size_t i) const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(words_.data()) + i * element_;
    if (element_ == 4) {
      float f;
      std::memcpy(&f, bytes, 4);
      return f;
    }
    std::uint16_t h;
    std::memcpy(&h, bytes, 2);
    return ref::half_bits_to_double(h);
  }
  std::uint32_t bits(std::size_t i) const {
    std::uint32_t b = 0;
    std::memcpy(&b, reinterpret_cast<const unsigned char*>(words_.data()) + i * element_, element_);
    return b;
  }
  std::size_t size() const { return n_; }
  bool operator==(const Tensor& o) const {
    return std::memcmp(words_.data(), o.words_.data(), n_ * element_) == 0;
  }

 private:
  std::size_t n_, element_;
  std::vector<std::uint64_t> words_;  // 8-byte aligned storage
};

Combo combo_of(const EntryPoint& e) {
  if (e.combo == "fp") return Combo::fp;
  return e.combo == "hp" ? Combo::hp : Combo::mp;
}

double alpha_of(Combo c) {
  return opt::target_info(BNG_TARGET_NAME).alpha.at(static_cast<std::size_t>(c));
}

struct Outputs {
  Tensor dx, dbias, dscale;
};

// Runs one entry point on `k` (core mask `mask` for _s) and returns its outputs.
Outputs run(const EntryPoint& e, const Case& k, int mask, int* status) {
  const std::size_t n = static_cast<std::size_t>(k.elements());
  const auto ch = static_cast<std::size_t>(k.channel);
  Tensor x(n, e.sizes.data), dy(n, e.sizes.data);
  Tensor mean(ch, e.sizes.stats), invar(ch, e.sizes.stats), scale(ch, e.sizes.stats);
  Outputs out{Tensor(n, e.sizes.data), Tensor(ch, e.sizes.stats), Tensor(ch, e.sizes.stats)};
  for (std::size_t i = 0; i < n; ++i) {
    x.set(i, k.x[i]);
    dy.set(i, k.dy[i]);
  }
  for (std::size_t c = 0; c < ch; ++c) {
    mean.set(c, k.mean[c]);
    invar.set(c, k.invar[c]);
    scale.set(c, k.scale[c]);
  }
  auto addr = [](Tensor& t) {
    return static_cast<long long>(reinterpret_cast<std::uintptr_t>(t.data()));
  };
  long long params[BNG_PARAM_COUNT];  // slots 8..11 left uninitialised, as the seed does
  params[BNG_PARAM_MEAN] = addr(mean);
  params[BNG_PARAM_INVAR] = addr(invar);
  params[BNG_PARAM_SCALE] = addr(scale);
  params[BNG_PARAM_DBIAS] = addr(out.dbias);
  params[BNG_PARAM_DSCALE] = addr(out.dscale);
  params[BNG_PARAM_BATCH] = k.batch;
  params[BNG_PARAM_CHANNEL] = k.channel;
  params[BNG_PARAM_IS_TRAIN] = k.is_train;
  *status = e.invoke(Call{x.data(), dy.data(), out.dx.data(), mean.data(), invar.data(),
                          scale.data(), out.dbias.data(), out.dscale.data(), params, k.batch,
                          k.channel, k.is_train, mask});
  return out;
}

// Small dyadic values, exact in binary16, different for every channel so that
// any two statistics swapped change the result.
Case wiring_case(Combo combo, int is_train) {
  Case k;
  k.combo = combo;
  k.batch = 6;
  k.channel = 3;
  k.is_train = is_train;
  for (int n = 0; n < k.batch; ++n) {
    for (int c = 0; c < k.channel; ++c) {
      k.x.push_back((n * 5 + c * 3) % 11 * 0.25 - 1.0);
      k.dy.push_back(((n * 3 + c * 7) % 9 - 4) * 0.125);
    }
  }
  k.mean = {0.25, -0.5, 0.75};
  k.invar = {1.5, 0.75, 2.0};
  k.scale = {1.25, -0.5, 3.0};
  return k;
}

void expect_within_contract(const char* what, const Tensor& got,
                            const std::vector<ref::Expected>& want, Format f, double alpha,
                            const std::string& context) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    const Measure m = measure(got.get(i), want[i], f, alpha);
    EXPECT_TRUE(m.pass) << context << ": " << what << "[" << i << "] = " << got.get(i) << " ("
                        << std::hexfloat << got.get(i) << ", bits 0x" << std::hex << got.bits(i)
                        << std::dec << "), reference " << want[i].rounded << " (" << std::hexfloat
                        << want[i].rounded << std::defaultfloat << "): " << m.reason;
  }
}

class Results : public ::testing::TestWithParam<EntryPoint> {};

TEST_P(Results, EveryArgumentReachesTheKernelAsTheQuantityItNames) {
  const EntryPoint& e = GetParam();
  const Combo combo = combo_of(e);
  for (int is_train : {0, 1}) {
    const Case k = wiring_case(combo, is_train);
    const ref::Result want = ref::compute(k);
    int status = 0;
    const Outputs got = run(e, k, 0xff, &status);
    ASSERT_EQ(status, BNG_OK) << bng_status_string(status);
    const std::string context = std::string(e.name) + " is_train=" + std::to_string(is_train) +
                                " batch=6 channel=3 (wiring_case)";
    expect_within_contract("dx", got.dx, want.dx, data_format(combo), alpha_of(combo), context);
    expect_within_contract("dbias", got.dbias, want.dbias, stats_format(combo), alpha_of(combo),
                           context);
    expect_within_contract("dscale", got.dscale, want.dscale, stats_format(combo), alpha_of(combo),
                           context);
  }
}

BNG_INSTANTIATE(Results, ::testing::ValuesIn(entry_points()),
                [](const auto& info) { return std::string(info.param.name); });

// A shape big enough to be split (odd sizes: remainders everywhere), with
// values of every sign and many exponents.
Case agreement_case(Combo combo) {
  Case k;
  k.combo = combo;
  k.batch = 263;
  k.channel = 37;
  k.is_train = 1;
  // Multiples of 2^-10 below 4 in magnitude with at most 11 significant
  // bits: exact in binary16, so every type combination holds the same values.
  std::uint64_t state = 0x9e3779b97f4a7c15u;
  auto next = [&state] {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return static_cast<double>(static_cast<std::int64_t>(state >> 53) - 1024) * 0x1p-8;
  };
  for (std::int64_t i = 0; i < k.elements(); ++i) {
    k.x.push_back(next());
    k.dy.push_back(next());
  }
  for (std::int64_t c = 0; c < k.channel; ++c) {
    k.mean.push_back(next() / 4);
    k.invar.push_back(std::fabs(next()) / 4 + 0.25);
    k.scale.push_back(next());
  }
  return k;
}

TEST(BNG_SUITE(Results), AllFormsAndMasksAgreeBitForBit) {
  std::map<std::string_view, const EntryPoint*> first;
  std::map<std::string_view, Outputs> baseline;
  for (const EntryPoint& e : entry_points()) {
    const Case k = agreement_case(combo_of(e));
    const std::vector<int> masks =
        e.has_core_mask ? std::vector<int>{0x1, 0x3, 0x81, 0xff} : std::vector<int>{0};
    for (int mask : masks) {
      int status = 0;
      Outputs got = run(e, k, mask, &status);
      ASSERT_EQ(status, BNG_OK) << e.name << " mask " << mask << ": " << bng_status_string(status);
      if (!first.contains(e.combo)) {
        first[e.combo] = &e;
        baseline.emplace(e.combo, std::move(got));
        continue;
      }
      const Outputs& b = baseline.at(e.combo);
      const std::string ctx = std::string(e.name) + " core_mask=" + std::to_string(mask) + " vs " +
                              std::string(first[e.combo]->name) +
                              " core_mask=0x1, batch=263 channel=37";
      EXPECT_TRUE(got.dx == b.dx) << ctx << ": dx differs";
      EXPECT_TRUE(got.dbias == b.dbias) << ctx << ": dbias differs";
      EXPECT_TRUE(got.dscale == b.dscale) << ctx << ": dscale differs";
    }
  }
}

}  // namespace
}  // namespace bng::test
