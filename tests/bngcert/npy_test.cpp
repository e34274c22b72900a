// The .npy module: exact round trips for every dtype, files as NumPy writes
// them, and every kind of bad file rejected with a message naming the file and
// the problem (never a crash, never a read past the promised data).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "bng/binary16.hpp"
#include "npy.hpp"

namespace fs = std::filesystem;
using bng::cert::npy::Array;
using bng::cert::npy::DType;

namespace {

class NpyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("bngcert_npy_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path file(const std::string& name, const std::string& bytes) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
  // The message of the npy::Error that opening `bytes` raises ("" if none).
  std::string open_error(const std::string& bytes) {
    const fs::path p = file("bad.npy", bytes);
    try {
      Array::open(p);
    } catch (const bng::cert::npy::Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(p.string()), std::string::npos)
          << "message does not name the file: " << msg;
      return msg;
    }
    return "";
  }

  fs::path dir_;
};

// A file as numpy.lib.format writes it: magic, version, little-endian header
// length, the dict padded with spaces to a 64-byte boundary, '\n', then data.
std::string npy_bytes(const std::string& dict, const std::string& data, int major = 1,
                      std::size_t align = 64) {
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  const std::size_t prefix = 8 + len_bytes;
  std::string header = dict;
  const std::size_t unpadded = prefix + header.size() + 1;
  header.append((align - unpadded % align) % align, ' ');
  header.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back(static_cast<char>(major));
  out.push_back(0);
  for (std::size_t i = 0; i < len_bytes; ++i)
    out.push_back(static_cast<char>(header.size() >> (8 * i)));
  return out + header + data;
}

template <typename T>
std::string raw(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

bool same_value(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

}  // namespace

TEST(Binary16, EveryBitPatternRoundTripsExactly) {
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const double v = bng::binary16::to_double(static_cast<std::uint16_t>(bits));
    const auto back = bng::binary16::exact_from_double(v);
    ASSERT_TRUE(back.has_value()) << std::hex << bits;
    const bool is_nan = (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0;
    const std::uint32_t want = is_nan ? ((bits & 0x8000) | 0x7e00) : bits;
    ASSERT_EQ(*back, want) << "bits 0x" << std::hex << bits << " value " << v;
  }
}

TEST(Binary16, KnownValues) {
  EXPECT_EQ(bng::binary16::to_double(0x3c00), 1.0);
  EXPECT_EQ(bng::binary16::to_double(0x7bff), 65504.0);
  EXPECT_EQ(bng::binary16::to_double(0x0001), 0x1p-24);
  EXPECT_EQ(bng::binary16::to_double(0x0400), 0x1p-14);
  EXPECT_EQ(bng::binary16::to_double(0xc000), -2.0);
}

TEST(Binary16, RefusesValuesThatNeedRounding) {
  for (double v : {0.1, 1.0 + 0x1p-11, 65520.0, 65536.0, 0x1p-25, 0x1p-24 * 1.5, 0x1p-14 + 0x1p-25,
                   1e300, -3.0e-8}) {
    EXPECT_FALSE(bng::binary16::exact_from_double(v).has_value()) << v;
  }
}

TEST_F(NpyTest, RoundTripsEveryDtypeAndShape) {
  const std::vector<double> specials = {0.0,      -0.0,      1.0, -2.5,    0x1p-24,     65504.0,
                                        INFINITY, -INFINITY, NAN, 0x1p-14, -0x1.ffcp-1, 3.0};
  const std::vector<std::vector<std::int64_t>> shapes = {{}, {0}, {12}, {3, 4}, {2, 3, 2}, {1, 12}};
  for (DType t : {DType::f2, DType::f4, DType::f8}) {
    for (const auto& shape : shapes) {
      std::int64_t n = 1;
      for (auto d : shape) n *= d;
      std::vector<double> values(specials.begin(), specials.begin() + n);
      const fs::path p = dir_ / "rt.npy";
      bng::cert::npy::write(p, t, shape, values);
      EXPECT_EQ(fs::file_size(p) % 64,
                (static_cast<std::size_t>(n) * bng::cert::npy::item_size(t)) % 64)
          << "header not padded to 64 bytes";
      const Array a = Array::open(p);
      EXPECT_EQ(a.header().dtype, t);
      EXPECT_EQ(a.header().shape, shape);
      const auto back = a.read_all();
      ASSERT_EQ(back.size(), values.size());
      for (std::size_t i = 0; i < values.size(); ++i) {
        EXPECT_TRUE(same_value(back[i], values[i])) << bng::cert::npy::descr(t) << " element " << i
                                                    << ": " << back[i] << " vs " << values[i];
      }
    }
  }
}

TEST_F(NpyTest, Float32ValuesKeepEveryBit) {
  std::vector<double> values;
  for (float f : {std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(),
                  std::numeric_limits<float>::min(), 1.0f + 0x1p-23f, -0x1.fffffep-1f}) {
    values.push_back(f);
  }
  const std::vector<std::int64_t> shape = {static_cast<std::int64_t>(values.size())};
  const fs::path p = dir_ / "f4.npy";
  bng::cert::npy::write(p, DType::f4, shape, values);
  EXPECT_EQ(Array::open(p).read_all(), values);
}

TEST_F(NpyTest, EncodeRefusesInexactValuesAndWrongCounts) {
  const std::vector<std::int64_t> one = {1};
  const std::vector<double> tenth = {0.1};
  EXPECT_THROW(bng::cert::npy::encode(DType::f2, one, tenth), bng::cert::npy::Error);
  EXPECT_THROW(bng::cert::npy::encode(DType::f4, one, tenth), bng::cert::npy::Error);
  EXPECT_NO_THROW(bng::cert::npy::encode(DType::f8, one, tenth));
  const std::vector<std::int64_t> two = {2};
  EXPECT_THROW(bng::cert::npy::encode(DType::f8, two, tenth), bng::cert::npy::Error);
}

TEST_F(NpyTest, ReadsFilesAsNumpyWritesThem) {
  const std::vector<float> data = {1, 2, 3, 4, 5, 6};
  // NumPy >= 1.23 adds spare spaces after the dict for in-place growth.
  const std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }                    ";
  for (int major : {1, 2, 3}) {
    const Array a = Array::open(file("np.npy", npy_bytes(dict, raw(data), major)));
    EXPECT_EQ(a.header().shape, (std::vector<std::int64_t>{2, 3}));
    EXPECT_EQ(a.header().data_offset % 64, 0u);
    EXPECT_EQ(a.read_all(), (std::vector<double>{1, 2, 3, 4, 5, 6})) << "version " << major;
  }
  // Old writers: 16-byte alignment, Python 2 long literals, double quotes, key order.
  const Array old = Array::open(
      file("old.npy", npy_bytes("{\"shape\": (6L,), \"fortran_order\": False, \"descr\": \"<f4\"}",
                                raw(data), 1, 16)));
  EXPECT_EQ(old.header().shape, (std::vector<std::int64_t>{6}));
  EXPECT_EQ(old.read_all().back(), 6.0);
}

TEST_F(NpyTest, HalfFileDecodesBits) {
  const std::vector<std::uint16_t> bits = {0x3c00, 0x0001, 0xfbff, 0x7c00, 0x8000};
  const Array a = Array::open(file(
      "h.npy", npy_bytes("{'descr': '<f2', 'fortran_order': False, 'shape': (5,), }", raw(bits))));
  const auto v = a.read_all();
  EXPECT_EQ(v[0], 1.0);
  EXPECT_EQ(v[1], 0x1p-24);
  EXPECT_EQ(v[2], -65504.0);
  EXPECT_EQ(v[3], INFINITY);
  EXPECT_TRUE(same_value(v[4], -0.0));
}

TEST_F(NpyTest, FortranOrderAcceptedOnlyWhereItChangesNothing) {
  const std::vector<float> data = {1, 2, 3};
  EXPECT_EQ(
      open_error(npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }", raw(data))),
      "");
  EXPECT_EQ(open_error(
                npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 3), }", raw(data))),
            "");
  const std::vector<float> six = {1, 2, 3, 4, 5, 6};
  const std::string msg =
      open_error(npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", raw(six)));
  EXPECT_NE(msg.find("Fortran"), std::string::npos) << msg;
}

TEST_F(NpyTest, ReadColumnsSlicesRows) {
  std::vector<double> v(4 * 5);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  const std::vector<std::int64_t> shape = {4, 5};
  const fs::path p = dir_ / "cols.npy";
  bng::cert::npy::write(p, DType::f4, shape, v);
  std::vector<double> out;
  Array::open(p).read_columns(5, 1, 3, out);
  EXPECT_EQ(out, (std::vector<double>{1, 2, 6, 7, 11, 12, 16, 17}));
  EXPECT_THROW(Array::open(p).read_columns(3, 0, 1, out), std::out_of_range);  // 20 % 3 != 0
  EXPECT_THROW(Array::open(p).read_columns(5, 2, 6, out), std::out_of_range);
}

TEST_F(NpyTest, ReadColumnsTransposedGivesColumnByColumn) {
  std::vector<double> v(4 * 5);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i) - 7.5;
  const std::vector<std::int64_t> shape = {4, 5};
  for (const DType t : {DType::f2, DType::f4, DType::f8}) {
    const fs::path p = dir_ / "cols_t.npy";
    bng::cert::npy::write(p, t, shape, v);
    std::vector<std::vector<double>> out(7, std::vector<double>(99, 1.0));  // resized
    Array::open(p).read_columns_transposed(5, 1, 4, out);
    EXPECT_EQ(out, (std::vector<std::vector<double>>{
                       {-6.5, -1.5, 3.5, 8.5}, {-5.5, -0.5, 4.5, 9.5}, {-4.5, 0.5, 5.5, 10.5}}));
    EXPECT_THROW(Array::open(p).read_columns_transposed(3, 0, 1, out), std::out_of_range);
    EXPECT_THROW(Array::open(p).read_columns_transposed(5, 4, 3, out), std::out_of_range);
  }
}

// Rows in tiles of 8 (npy.cpp): 19 rows are two whole tiles and a part one;
// every column range gives the transpose of read_columns'.
TEST_F(NpyTest, ReadColumnsTransposedAcrossTiles) {
  constexpr std::int64_t kRows = 19, kColumns = 7;
  std::vector<double> v(kRows * kColumns);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i) * 0.25 - 3;
  const fs::path p = dir_ / "tiles.npy";
  bng::cert::npy::write(p, DType::f4, std::vector<std::int64_t>{kRows, kColumns}, v);
  const Array a = Array::open(p);
  for (std::int64_t c0 = 0; c0 < kColumns; ++c0) {
    for (std::int64_t c1 = c0; c1 <= kColumns; ++c1) {
      std::vector<double> rows;
      std::vector<std::vector<double>> columns;
      a.read_columns(kColumns, c0, c1, rows);
      a.read_columns_transposed(kColumns, c0, c1, columns);
      const std::int64_t w = c1 - c0;
      ASSERT_EQ(columns.size(), static_cast<std::size_t>(w));
      for (const auto& column : columns) ASSERT_EQ(column.size(), static_cast<std::size_t>(kRows));
      for (std::int64_t r = 0; r < kRows; ++r) {
        for (std::int64_t j = 0; j < w; ++j) {
          ASSERT_EQ(columns[static_cast<std::size_t>(j)][static_cast<std::size_t>(r)],
                    rows[static_cast<std::size_t>(r * w + j)])
              << "columns [" << c0 << ", " << c1 << ") row " << r << " column " << j;
        }
      }
    }
  }
}

struct BadFile {
  const char* what;
  std::string bytes;
  const char* expect;  // a phrase the message must contain
};

TEST_F(NpyTest, EveryBadFileKindGivesAClearError) {
  const std::vector<float> six = {1, 2, 3, 4, 5, 6};
  const std::string good =
      npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", raw(six));
  auto with_dict = [&](const std::string& dict) { return npy_bytes(dict, raw(six)); };
  std::string version4 = good;
  version4[6] = 4;
  std::string bad_magic = good;
  bad_magic[1] = 'X';
  const std::vector<BadFile> cases = {
      {"empty file", "", "empty"},
      {"bad magic", bad_magic, "magic"},
      {"text file", "x,y\n1,2\n", "magic"},
      {"version 4.0", version4, "version 4.0"},
      {"preamble cut", good.substr(0, 9), "truncated"},
      {"header cut", good.substr(0, 40), "truncated"},
      {"data cut", good.substr(0, good.size() - 3), "truncated"},
      {"no data", good.substr(0, 64), "truncated"},
      {"trailing bytes", good + "xyz", "unexpected bytes"},
      {"int32", with_dict("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }"),
       "'<i4' is not supported"},
      {"uint16", with_dict("{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }"),
       "not supported"},
      {"big endian", with_dict("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }"),
       "big-endian"},
      {"structured",
       with_dict("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2, 3), }"),
       "structured"},
      {"fortran", with_dict("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }"),
       "Fortran"},
      {"shape mismatch", with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3), }"),
       "truncated"},
      {"shape too small", with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }"),
       "unexpected bytes"},
      {"missing shape", with_dict("{'descr': '<f4', 'fortran_order': False, }"), "must have"},
      {"unknown key", with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x': 1}"),
       "unexpected key"},
      {"negative dim", with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (-6,), }"),
       "non-negative"},
      {"huge dims",
       with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
       "too large"},
      {"overflowing dim",
       with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }"),
       "too large"},
      {"not a dict", with_dict("['descr', '<f4']"), "malformed"},
      {"bad bool", with_dict("{'descr': '<f4', 'fortran_order': 0, 'shape': (6,), }"),
       "True or False"},
      {"unterminated", with_dict("{'descr': '<f4, 'fortran_order': False, 'shape': (6,), }"),
       "malformed"},
      {"text after dict",
       with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), } junk"),
       "after the header"},
  };
  for (const auto& c : cases) {
    const std::string msg = open_error(c.bytes);
    EXPECT_NE(msg, "") << c.what << ": accepted";
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.what << ": message was: " << msg;
  }
}

TEST_F(NpyTest, MissingFileAndDirectory) {
  try {
    Array::open(dir_ / "nope.npy");
    FAIL() << "opened a missing file";
  } catch (const bng::cert::npy::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Array::open(dir_), bng::cert::npy::Error);
}
