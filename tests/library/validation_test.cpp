// SPEC §3 for every entry point of one library: each status in each way it
// can arise, and on every rejection not one byte of the arena (outputs,
// inputs, params, free space) changed. Accepted calls are the valid
// neighbours of the rejected ones (in-place forms, adjacency, aliasing inputs).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "batchnormgrad.h"
#include "entry_points.hpp"
#include "scene.hpp"

namespace bng::test {
namespace {

constexpr std::array<Buf, 9> kAllBuffers = {Buf::x,     Buf::dy,     Buf::dx,
                                            Buf::mean,  Buf::invar,  Buf::scale,
                                            Buf::dbias, Buf::dscale, Buf::params};

class Validation : public ::testing::TestWithParam<EntryPoint> {
 protected:
  const EntryPoint& entry() const { return GetParam(); }
  bool params_form() const { return entry().form == Form::params; }

  // The buffers this entry point takes (the flat form has no params array).
  std::vector<Buf> buffers() const {
    std::vector<Buf> v(kAllBuffers.begin(), kAllBuffers.end());
    if (!params_form()) v.pop_back();
    return v;
  }

  void expect_rejected(Scene& s, int expected, const std::string& what) {
    s.prepare();
    const std::vector<unsigned char> before = s.snapshot();
    const std::string call = s.describe();
    const int status = s.invoke();
    EXPECT_EQ(status, expected) << what << "\n  call: " << call << "\n  got "
                                << bng_status_string(status) << ", expected "
                                << bng_status_string(expected);
    const std::string diff = s.first_difference(before);
    EXPECT_EQ(diff, "") << what << ": a rejected call wrote memory\n  call: " << call;
  }

  void expect_accepted(Scene& s, const std::string& what) {
    const std::string call = s.describe();
    const int status = s.invoke();
    EXPECT_EQ(status, BNG_OK) << what << "\n  call: " << call << "\n  got "
                              << bng_status_string(status);
  }
};

TEST_P(Validation, TheBaseSceneIsValid) {
  // Every rejection below changes one thing in this scene.
  Scene s(entry());
  expect_accepted(s, "the unmodified scene");
}

TEST_P(Validation, EachNullPointerIsRejected) {
  for (Buf b : buffers()) {
    Scene s(entry());
    s.at(b) = 0;
    expect_rejected(s, BNG_ERR_NULL, std::string(name(b)) + " null");
  }
}

TEST_P(Validation, NonPositiveBatchOrChannelIsRejected) {
  const long long bad[] = {0, -1, params_form() ? LLONG_MIN : INT_MIN};
  for (long long v : bad) {
    Scene s(entry());
    s.batch = v;
    expect_rejected(s, BNG_ERR_SHAPE, "batch " + std::to_string(v));
    Scene t(entry());
    t.channel = v;
    expect_rejected(t, BNG_ERR_SHAPE, "channel " + std::to_string(v));
  }
}

TEST_P(Validation, SizesBeyondPtrdiffAreRejected) {
  const auto limit = static_cast<long long>(PTRDIFF_MAX);
  const auto data = static_cast<long long>(entry().sizes.data);
  const auto stats = static_cast<long long>(entry().sizes.stats);
  struct Shape {
    long long batch, channel;
    const char* why;
  };
  std::vector<Shape> shapes;
  if (params_form()) {
    shapes = {
        {LLONG_MAX, 2, "batch*channel overflows"},
        {1LL << 40, 1LL << 40, "batch*channel overflows"},
        {limit / data + 1, 1, "batch*channel fits, its bytes do not"},
        // mp: data bytes (2 per element) fit, statistics bytes (4 per channel) do not.
        {1, limit / stats + 1, "channel's statistics bytes overflow"},
    };
  } else if (data >= 4) {
    // (2^31-1)^2 elements of 4 bytes exceed PTRDIFF_MAX. For 2-byte data
    // they do not: no int shape of the flat hp form overflows.
    shapes = {{INT_MAX, INT_MAX, "batch*channel bytes overflow"}};
  }
  for (const Shape& sh : shapes) {
    Scene s(entry());
    s.batch = sh.batch;
    s.channel = sh.channel;
    expect_rejected(s, BNG_ERR_SHAPE, sh.why);
  }
}

TEST_P(Validation, AddressRangesThatWrapAreRejected) {
  // Aligned for every type, and shorter than every buffer of the scene.
  const std::uintptr_t top = UINTPTR_MAX - 7;
  for (Buf b : {Buf::x, Buf::dy, Buf::mean, Buf::scale, Buf::dscale}) {
    Scene s(entry());
    ASSERT_GT(s.bytes(b), 8u);
    s.at(b) = top;
    expect_rejected(s, BNG_ERR_SHAPE, std::string(name(b)) + " at 2^64-8");
  }
  if (params_form()) {
    Scene s(entry());
    s.at(Buf::params) = UINTPTR_MAX - 31;  // slot 4 would lie past the end of memory
    expect_rejected(s, BNG_ERR_SHAPE, "params at 2^64-32");
  }
}

TEST_P(Validation, IsTrainOtherThanZeroOrOneIsRejected) {
  std::vector<long long> bad = {2, -1, 255};
  if (params_form()) {
    // Values that a narrowing to int would turn into a valid 1 or 0.
    bad.insert(bad.end(), {(1LL << 32) | 1, 1LL << 32, LLONG_MIN});
  } else {
    bad.insert(bad.end(), {INT_MIN, INT_MAX});
  }
  for (long long v : bad) {
    Scene s(entry());
    s.is_train = v;
    expect_rejected(s, BNG_ERR_FLAG, "is_train " + std::to_string(v));
  }
}

TEST_P(Validation, BothModesAreAccepted) {
  for (long long v : {0, 1}) {
    Scene s(entry());
    s.is_train = v;
    expect_accepted(s, "is_train " + std::to_string(v));
  }
}

// The _s entry points: those that take a core mask.
class CoreMask : public Validation {};

TEST_P(CoreMask, InvalidCoreMasksAreRejected) {
  for (int mask : {0, 0x100, 0x1ff, 0x80000, -1, INT_MIN, INT_MAX, -256}) {
    Scene s(entry());
    s.core_mask = mask;
    char what[40];
    std::snprintf(what, sizeof what, "core_mask 0x%x", static_cast<unsigned>(mask));
    expect_rejected(s, BNG_ERR_CORE_MASK, what);
  }
}

TEST_P(CoreMask, EveryMaskOfTheEightCoresIsAccepted) {
  for (int mask = 1; mask <= 0xff; ++mask) {
    Scene s(entry());
    s.core_mask = mask;
    expect_accepted(s, "core_mask " + std::to_string(mask));
  }
}

TEST_P(Validation, MisalignedPointersAreRejected) {
  for (Buf b : buffers()) {
    const std::size_t align = Scene(entry()).element_size(b);
    for (std::size_t off = 1; off < align; ++off) {
      Scene s(entry());
      s.at(b) += off;
      expect_rejected(s, BNG_ERR_ALIGN,
                      std::string(name(b)) + " + " + std::to_string(off) + " bytes");
    }
  }
}

// Offsets that make buffer `o` overlap buffer `b` (both at their home) by at
// least one element, with `o` aligned: same start, starting in b's last
// bytes, ending in b's first bytes.
std::vector<std::pair<std::intptr_t, const char*>> overlapping_offsets(const Scene& s, Buf o,
                                                                       Buf b) {
  const auto lb = static_cast<std::intptr_t>(s.bytes(b));
  const auto lo = static_cast<std::intptr_t>(s.bytes(o));
  return {{0, "same start"},
          {(lb - 1) / 8 * 8, "starting inside its last bytes"},
          {-lo + 8, "ending inside its first 8 bytes"}};
}

TEST_P(Validation, OutputsOverlappingAnythingElseAreRejected) {
  for (Buf o : kOutputs) {
    for (Buf b : buffers()) {
      if (b == o) continue;
      for (auto [offset, how] : overlapping_offsets(Scene(entry()), o, b)) {
        // dx == x and dx == dy are the in-place forms, tested as accepted below.
        if (o == Buf::dx && (b == Buf::x || b == Buf::dy) && offset == 0) continue;
        Scene s(entry());
        s.at(o) = s.home(b) + static_cast<std::uintptr_t>(offset);
        expect_rejected(s, BNG_ERR_OVERLAP,
                        std::string(name(o)) + " overlapping " + name(b) + ", " + how);
      }
    }
  }
}

TEST_P(Validation, InPlaceFormsAreAccepted) {
  {
    Scene s(entry());
    s.at(Buf::dx) = s.at(Buf::x);
    expect_accepted(s, "dx == x");
  }
  {
    Scene s(entry());
    s.at(Buf::dx) = s.at(Buf::dy);
    expect_accepted(s, "dx == dy");
  }
  {
    Scene s(entry());
    s.at(Buf::dy) = s.at(Buf::x);
    s.at(Buf::dx) = s.at(Buf::x);
    expect_accepted(s, "dx == x == dy");
  }
}

TEST_P(Validation, InPlaceOnOneInputDoesNotExcuseOverlapWithTheOther) {
  Scene s(entry());
  s.at(Buf::x) = s.home(Buf::dy) + 8;  // inputs may overlap each other...
  s.at(Buf::dx) = s.at(Buf::x);        // ...and dx == x, but dx still overlaps dy
  expect_rejected(s, BNG_ERR_OVERLAP, "dx == x, x = dy + 8 bytes");
}

TEST_P(Validation, InputsMayOverlapEachOther) {
  Scene s(entry());
  s.at(Buf::dy) = s.at(Buf::x);
  s.at(Buf::invar) = s.at(Buf::mean);
  s.at(Buf::scale) = s.at(Buf::mean);
  expect_accepted(s, "x == dy, mean == invar == scale");
  Scene t(entry());
  t.at(Buf::mean) = t.home(Buf::x) + 8;  // statistics inside a data tensor
  t.at(Buf::dy) = t.home(Buf::x) + 8 * (t.bytes(Buf::x) / 16);
  expect_accepted(t, "mean and dy partly inside x");
}

TEST_P(Validation, BuffersThatOnlyTouchAreAccepted) {
  for (Buf o : kOutputs) {
    for (Buf b : buffers()) {
      if (b == o) continue;
      {
        Scene s(entry());
        const std::size_t a = s.element_size(o);
        s.at(o) = s.home(b) + (s.bytes(b) + a - 1) / a * a;
        expect_accepted(s, std::string(name(o)) + " starting where " + name(b) + " ends");
      }
      {
        Scene s(entry());
        s.at(o) = s.home(b) - s.bytes(o);
        expect_accepted(s, std::string(name(o)) + " ending where " + name(b) + " starts");
      }
    }
  }
}

// The params form: the array itself.
class ParamsArray : public Validation {};

TEST_P(ParamsArray, ReservedSlotsAreNeverRead) {
  // Slots 0..7 end exactly at an inaccessible page: reading slot 8 faults.
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* m = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(m, MAP_FAILED);
  auto* base = static_cast<unsigned char*>(m);
  ASSERT_EQ(mprotect(base + page, page, PROT_NONE), 0);
  Scene s(entry());
  s.prepare();  // fills the slots at params' home
  std::memcpy(base + page - kParamsBytesRead, reinterpret_cast<void*>(s.at(Buf::params)),
              kParamsBytesRead);
  Call c = s.prepare();
  c.params = reinterpret_cast<const long long*>(base + page - kParamsBytesRead);
  EXPECT_EQ(entry().invoke(c), BNG_OK) << s.describe();
  munmap(m, 2 * page);
}

TEST_P(ParamsArray, OutputsMayOccupyTheReservedSlots) {
  Scene s(entry());
  s.at(Buf::dscale) = s.home(Buf::params) + kParamsBytesRead;
  expect_accepted(s, "dscale over params[8..]");
}

std::string test_name(const ::testing::TestParamInfo<EntryPoint>& info) {
  return std::string(info.param.name);
}

std::vector<EntryPoint> entry_points_where(bool (*keep)(const EntryPoint&)) {
  std::vector<EntryPoint> v;
  for (const EntryPoint& e : entry_points()) {
    if (keep(e)) v.push_back(e);
  }
  return v;
}

BNG_INSTANTIATE(Validation, ::testing::ValuesIn(entry_points()), test_name);
BNG_INSTANTIATE(CoreMask, ::testing::ValuesIn(entry_points_where([](const EntryPoint& e) {
                  return e.has_core_mask;
                })),
                test_name);
BNG_INSTANTIATE(ParamsArray, ::testing::ValuesIn(entry_points_where([](const EntryPoint& e) {
                  return e.form == Form::params;
                })),
                test_name);

}  // namespace
}  // namespace bng::test
