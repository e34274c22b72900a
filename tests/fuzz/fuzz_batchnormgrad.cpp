// libFuzzer entry: the bytes choose a target, type combination, entry point,
// core mask (valid or not), a small shape, is_train and every input's bit
// pattern (so NaN payloads, Inf, subnormals and ±0 come for free), and
// optionally one or two SPEC §3 faults. A valid call is checked against the
// exact reference at the kernel's declared α and against the same call on
// another entry point (bit identity); a faulty one for its status and for not
// one byte written. Any violation prints its reproducer and aborts.
#include <fuzzer/FuzzedDataProvider.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bng/properties/properties.hpp"
#include "bng/reference/rounding.hpp"

namespace {

using namespace bng;
using namespace bng::prop;

double value(FuzzedDataProvider& in, Format f) {
  if (f == Format::binary32) {
    const auto bits = in.ConsumeIntegral<std::uint32_t>();
    return static_cast<double>(std::bit_cast<float>(bits));
  }
  return ref::half_bits_to_double(in.ConsumeIntegral<std::uint16_t>());
}

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "\n%s\n", why.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  CallSpec spec;
  const std::vector<Target> targets = all_targets();
  spec.target = targets[in.ConsumeIntegralInRange<std::size_t>(0, targets.size() - 1)];
  const auto combos_of = combos(spec.target);
  spec.combo = combos_of[in.ConsumeIntegralInRange<std::size_t>(0, combos_of.size() - 1)];
  spec.storage = in.ConsumeBool() ? Storage::private_ : Storage::shared;
  spec.form = in.ConsumeBool() && spec.combo != Combo::mp ? Form::flat : Form::params;
  spec.core_mask = in.ConsumeIntegralInRange<unsigned>(1, kAllCores);

  Case c;
  c.combo = spec.combo;
  c.batch = in.ConsumeIntegralInRange<std::int64_t>(1, 24);
  c.channel = in.ConsumeIntegralInRange<std::int64_t>(1, 24);
  c.is_train = in.ConsumeBool() ? 1 : 0;
  const Format df = data_format(c.combo), sf = stats_format(c.combo);
  const auto n = static_cast<std::size_t>(c.elements()), ch = static_cast<std::size_t>(c.channel);
  for (std::size_t i = 0; i < n; ++i) c.x.push_back(value(in, df));
  for (std::size_t i = 0; i < n; ++i) c.dy.push_back(value(in, df));
  for (std::size_t i = 0; i < ch; ++i) {
    c.mean.push_back(value(in, sf));
    c.invar.push_back(value(in, sf));
    c.scale.push_back(value(in, sf));
  }

  // One input in four carries faults: the status rules get their share
  // without starving the accuracy checks.
  std::vector<Fault> faults;
  if (in.ConsumeIntegralInRange<int>(0, 3) == 0) {
    const int count = in.ConsumeIntegralInRange<int>(1, 2);
    for (int k = 0; k < count; ++k) {
      const auto f = static_cast<Fault>(in.ConsumeIntegralInRange<int>(0, kFaultCount - 1));
      const bool repeated = !faults.empty() && faults[0] == f;
      if (fault_applies(f, spec, c) && !repeated) faults.push_back(f);
    }
  }

  if (!faults.empty()) {
    if (std::string why = check_status(c, spec, faults); !why.empty()) fail(why);
    return 0;
  }
  if (std::string why = check_accuracy(c, spec); !why.empty()) fail(why);
  CallSpec other = spec;
  other.storage = spec.storage == Storage::shared ? Storage::private_ : Storage::shared;
  other.core_mask = kAllCores ^ (spec.core_mask == kAllCores ? 0x7Eu : spec.core_mask);
  if (std::string why = check_reproducible(c, spec, {other}); !why.empty()) fail(why);
  return 0;
}
