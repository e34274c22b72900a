#include "npy.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "bng/binary16.hpp"
#include "output_file.hpp"

namespace bng::cert::npy {
namespace {

constexpr unsigned char kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr std::size_t kMagicSize = sizeof kMagic;

[[noreturn]] void fail(const std::string& name, std::string_view what) {
  throw Error(fmt::format("{}: {}", name, what));
}

// The header is a Python dict literal as written by numpy.lib.format, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// followed by space padding and '\n'. Only the literals NumPy writes there
// are accepted: quoted strings, True/False, and tuples of integers.
class DictParser {
 public:
  DictParser(std::string_view text, const std::string& name) : s_(text), name_(name) {}

  struct Entries {
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<std::vector<std::int64_t>> shape;
  };

  Entries parse() {
    Entries e;
    skip_ws();
    expect('{');
    skip_ws();
    while (peek() != '}') {
      const std::string key = string_literal();
      skip_ws();
      expect(':');
      skip_ws();
      if (key == "descr") {
        if (peek() == '[')
          bad("structured (record) dtypes are not supported: expected '<f2', '<f4' or '<f8'");
        e.descr = string_literal();
      } else if (key == "fortran_order") {
        e.fortran_order = boolean();
      } else if (key == "shape") {
        e.shape = tuple();
      } else {
        bad(fmt::format("unexpected key '{}' in the header", key));
      }
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        skip_ws();
      } else if (peek() != '}') {
        bad("expected ',' or '}' in the header dictionary");
      }
    }
    ++pos_;
    skip_ws();
    if (pos_ != s_.size()) bad("unexpected text after the header dictionary");
    return e;
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_ws() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r'))
      ++pos_;
  }
  [[noreturn]] void bad(std::string_view what) const {
    fail(name_, fmt::format("malformed .npy header ({}) in {:?}", what, std::string(s_)));
  }
  void expect(char c) {
    if (peek() != c) bad(fmt::format("expected '{}' at offset {}", c, pos_));
    ++pos_;
  }
  std::string string_literal() {
    const char quote = peek();
    if (quote != '\'' && quote != '"')
      bad(fmt::format("expected a quoted string at offset {}", pos_));
    const std::size_t end = s_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) bad("unterminated string");
    std::string out(s_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return out;
  }
  bool boolean() {
    if (s_.substr(pos_, 4) == "True") return pos_ += 4, true;
    if (s_.substr(pos_, 5) == "False") return pos_ += 5, false;
    bad("fortran_order must be True or False");
  }
  std::vector<std::int64_t> tuple() {
    expect('(');
    std::vector<std::int64_t> dims;
    skip_ws();
    while (peek() != ')') {
      if (peek() < '0' || peek() > '9') bad("shape must be a tuple of non-negative integers");
      std::int64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        const int digit = peek() - '0';
        if (v > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
          bad("shape dimension too large");
        v = v * 10 + digit;
        ++pos_;
      }
      if (peek() == 'L') ++pos_;  // Python 2 long literal, as old files carry
      dims.push_back(v);
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        skip_ws();
      } else if (peek() != ')') {
        bad("expected ',' or ')' in shape");
      }
    }
    ++pos_;
    return dims;
  }

  std::string_view s_;
  const std::string& name_;
  std::size_t pos_ = 0;
};

DType parse_descr(const std::string& d, const std::string& name) {
  if (d == "<f2") return DType::f2;
  if (d == "<f4") return DType::f4;
  if (d == "<f8") return DType::f8;
  if (d.size() == 3 && d[0] == '>' && d[1] == 'f') {
    fail(name, fmt::format("dtype '{}' is big-endian; save it little-endian (arr.astype('<{}'))", d,
                           d.substr(1)));
  }
  fail(name, fmt::format("dtype '{}' is not supported: expected '<f2' (float16), '<f4' (float32) "
                         "or '<f8' (float64)",
                         d));
}

std::uint32_t little_endian(const unsigned char* p, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

double decode(DType t, const unsigned char* p) {
  switch (t) {
    case DType::f2: {
      return binary16::to_double(static_cast<std::uint16_t>(p[0] | (p[1] << 8)));
    }
    case DType::f4: {
      float f;
      std::memcpy(&f, p, sizeof f);
      return f;
    }
    case DType::f8: {
      double d;
      std::memcpy(&d, p, sizeof d);
      return d;
    }
  }
  return 0;
}

}  // namespace

std::string_view descr(DType t) {
  switch (t) {
    case DType::f2:
      return "<f2";
    case DType::f4:
      return "<f4";
    case DType::f8:
      return "<f8";
  }
  return "?";
}

std::size_t item_size(DType t) {
  switch (t) {
    case DType::f2:
      return 2;
    case DType::f4:
      return 4;
    case DType::f8:
      return 8;
  }
  return 0;
}

std::int64_t Header::elements() const {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;  // parse_header has checked this cannot overflow
  return n;
}

std::string Header::shape_string() const {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}

Header parse_header(std::span<const unsigned char> bytes, std::uint64_t file_size,
                    const std::string& name) {
  if (bytes.size() < kMagicSize + 2 || std::memcmp(bytes.data(), kMagic, kMagicSize) != 0) {
    fail(name, "not a .npy file (it does not start with the magic \"\\x93NUMPY\")");
  }
  const int major = bytes[kMagicSize];
  const int minor = bytes[kMagicSize + 1];
  int length_bytes = 0;
  if (major == 1 && minor == 0) {
    length_bytes = 2;
  } else if ((major == 2 || major == 3) && minor == 0) {
    length_bytes = 4;  // 3.0 only allows UTF-8 in the header, which the keys we accept never use
  } else {
    fail(name, fmt::format(".npy format version {}.{} is not supported (1.0, 2.0 and 3.0 are)",
                           major, minor));
  }
  const std::size_t prefix = kMagicSize + 2 + static_cast<std::size_t>(length_bytes);
  if (bytes.size() < prefix) fail(name, "truncated: the file ends inside the .npy preamble");
  const std::uint64_t header_len = little_endian(bytes.data() + kMagicSize + 2, length_bytes);
  if (bytes.size() < prefix + header_len) {
    fail(name, fmt::format("truncated: the header is announced as {} bytes, the file ends after {}",
                           header_len, bytes.size() - prefix));
  }
  const std::string_view text(reinterpret_cast<const char*>(bytes.data() + prefix), header_len);
  const auto entries = DictParser(text, name).parse();
  if (!entries.descr || !entries.fortran_order || !entries.shape) {
    fail(name, "malformed .npy header: it must have 'descr', 'fortran_order' and 'shape'");
  }

  Header h;
  h.dtype = parse_descr(*entries.descr, name);
  h.shape = *entries.shape;
  h.data_offset = prefix + header_len;

  // Fortran order only changes the bytes when two or more dimensions exceed 1.
  int non_trivial = 0;
  for (std::int64_t d : h.shape) non_trivial += d > 1;
  if (*entries.fortran_order && non_trivial > 1) {
    fail(name, fmt::format("array {} is in Fortran (column-major) order; save it in C order "
                           "(np.save(path, np.ascontiguousarray(arr)))",
                           h.shape_string()));
  }

  const std::uint64_t limit = std::numeric_limits<std::int64_t>::max() / 8;
  std::uint64_t n = 1;
  for (std::int64_t d : h.shape) {
    if (d != 0 && n > limit / static_cast<std::uint64_t>(d)) {
      fail(name, fmt::format("shape {} is too large", h.shape_string()));
    }
    n *= static_cast<std::uint64_t>(d);
  }
  const std::uint64_t data_bytes = n * item_size(h.dtype);
  const std::uint64_t expected = h.data_offset + data_bytes;
  if (file_size < expected) {
    fail(name,
         fmt::format("truncated: shape {} of '{}' needs {} data bytes, the file holds {}",
                     h.shape_string(), descr(h.dtype), data_bytes, file_size - h.data_offset));
  }
  if (file_size > expected) {
    fail(name,
         fmt::format("{} unexpected bytes after the data of shape {} (not a single .npy array?)",
                     file_size - expected, h.shape_string()));
  }
  return h;
}

Array Array::open(const std::filesystem::path& path, Links links) {
  std::vector<unsigned char> bytes;
  try {
    bytes = read_regular_file(path, kMaxDataBytes, links);
  } catch (const InputError& e) {
    throw Error(e.what());
  }
  return from_bytes(path.string(), std::move(bytes));
}

Array Array::from_bytes(std::string name, std::vector<unsigned char> bytes) {
  Array a;
  a.name_ = std::move(name);
  if (bytes.empty()) fail(a.name_, "not a .npy file (it is empty)");
  a.header_ = parse_header(bytes, bytes.size(), a.name_);
  a.bytes_ = std::move(bytes);
  return a;
}

Array Array::from_memory(std::string name, DType dtype, std::vector<std::int64_t> shape,
                         std::vector<unsigned char> data) {
  Array a;
  a.name_ = std::move(name);
  a.header_.dtype = dtype;
  a.header_.shape = std::move(shape);
  a.header_.data_offset = 0;
  for (std::int64_t d : a.header_.shape) {
    if (d < 0)
      fail(a.name_, fmt::format("negative dimension in shape {}", a.header_.shape_string()));
  }
  if (static_cast<std::uint64_t>(a.header_.elements()) * item_size(dtype) != data.size()) {
    fail(a.name_, fmt::format("{} bytes do not hold shape {} of {}", data.size(),
                              a.header_.shape_string(), descr(dtype)));
  }
  a.bytes_ = std::move(data);
  return a;
}

namespace {

// Calls body(decode) with the element decoder of `t`: the dtype is chosen once
// per slice, not once per element.
template <class Body>
void with_decoder(DType t, Body&& body) {
  switch (t) {
    case DType::f2:
      return body([](const unsigned char* p) { return decode(DType::f2, p); });
    case DType::f4:
      return body([](const unsigned char* p) { return decode(DType::f4, p); });
    case DType::f8:
      return body([](const unsigned char* p) { return decode(DType::f8, p); });
  }
}

}  // namespace

void Array::read(std::int64_t first, std::int64_t count, double* out) const {
  if (first < 0 || count < 0 || first + count > header_.elements()) {
    throw std::out_of_range(fmt::format("{}: elements [{}, {}) outside the array's {}", name_,
                                        first, first + count, header_.elements()));
  }
  const std::size_t size = item_size(header_.dtype);
  const unsigned char* p =
      bytes_.data() + header_.data_offset + static_cast<std::size_t>(first) * size;
  with_decoder(header_.dtype, [&](auto decode_one) {
    for (std::int64_t i = 0; i < count; ++i, p += size) out[i] = decode_one(p);
  });
}

std::vector<double> Array::read_all() const {
  std::vector<double> v(static_cast<std::size_t>(header_.elements()));
  read(0, header_.elements(), v.data());
  return v;
}

std::int64_t Array::column_rows(std::int64_t columns, std::int64_t c_begin,
                                std::int64_t c_end) const {
  const std::int64_t n = header_.elements();
  if (columns <= 0 || n % columns != 0 || c_begin < 0 || c_begin > c_end || c_end > columns) {
    throw std::out_of_range(fmt::format("{}: columns [{}, {}) of {} do not fit the array of {}",
                                        name_, c_begin, c_end, columns, n));
  }
  return n / columns;
}

void Array::read_columns(std::int64_t columns, std::int64_t c_begin, std::int64_t c_end,
                         std::vector<double>& out) const {
  const std::int64_t rows = column_rows(columns, c_begin, c_end);
  const std::int64_t width = c_end - c_begin;
  out.resize(static_cast<std::size_t>(rows * width));
  for (std::int64_t r = 0; r < rows; ++r)
    read(r * columns + c_begin, width, out.data() + r * width);
}

void Array::read_columns_transposed(std::int64_t columns, std::int64_t c_begin, std::int64_t c_end,
                                    std::vector<std::vector<double>>& out) const {
  const std::int64_t rows = column_rows(columns, c_begin, c_end);
  const std::int64_t width = c_end - c_begin;
  out.resize(static_cast<std::size_t>(width));
  for (auto& column : out) column.resize(static_cast<std::size_t>(rows));
  const std::size_t size = item_size(header_.dtype);
  const unsigned char* data = bytes_.data() + header_.data_offset;
  // In tiles of a few rows: each column's part of a tile is a cache line of
  // doubles written at once, where row by row every value went to another
  // column's line (and page).
  constexpr std::int64_t kTileRows = 8;
  const std::size_t row_bytes = static_cast<std::size_t>(columns) * size;
  with_decoder(header_.dtype, [&](auto decode_one) {
    for (std::int64_t r0 = 0; r0 < rows; r0 += kTileRows) {
      const std::int64_t r1 = std::min(rows, r0 + kTileRows);
      for (std::int64_t j = 0; j < width; ++j) {
        double* column = out[static_cast<std::size_t>(j)].data();
        const unsigned char* p = data + static_cast<std::size_t>(r0 * columns + c_begin + j) * size;
        for (std::int64_t r = r0; r < r1; ++r, p += row_bytes) column[r] = decode_one(p);
      }
    }
  });
}

std::vector<unsigned char> encode(DType dtype, std::span<const std::int64_t> shape,
                                  std::span<const double> values) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) throw Error(fmt::format("npy: negative dimension {}", d));
    n *= d;
  }
  if (static_cast<std::size_t>(n) != values.size()) {
    throw Error(fmt::format("npy: shape ({}) holds {} elements, {} values given",
                            fmt::join(shape, ", "), n, values.size()));
  }
  const std::string shape_text = shape.size() == 1 ? fmt::format("({},)", shape[0])
                                                   : fmt::format("({})", fmt::join(shape, ", "));
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                 descr(dtype), shape_text);
  // NumPy pads the header with spaces and a final '\n' so the data starts on a
  // 64-byte boundary.
  int major = 1;
  std::size_t prefix = kMagicSize + 4;
  if (dict.size() + 1 + 64 > 65535) {  // the 1.0 header length is a uint16
    major = 2;
    prefix = kMagicSize + 6;
  }
  const std::size_t unpadded = prefix + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict.push_back('\n');

  std::vector<unsigned char> out(kMagic, kMagic + kMagicSize);
  out.push_back(static_cast<unsigned char>(major));
  out.push_back(0);
  const std::size_t header_len = dict.size();
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
    out.push_back(static_cast<unsigned char>(header_len >> (8 * i)));
  out.insert(out.end(), dict.begin(), dict.end());

  const std::size_t size = item_size(dtype);
  const std::size_t data_start = out.size();
  out.resize(data_start + values.size() * size);
  unsigned char* p = out.data() + data_start;
  for (std::size_t i = 0; i < values.size(); ++i, p += size) {
    const double v = values[i];
    switch (dtype) {
      case DType::f2: {
        const auto bits = binary16::exact_from_double(v);
        if (!bits) throw Error(fmt::format("npy: value {} ({:a}) at {} is not a float16", v, v, i));
        p[0] = static_cast<unsigned char>(*bits & 0xff);
        p[1] = static_cast<unsigned char>(*bits >> 8);
        break;
      }
      case DType::f4: {
        const auto f = static_cast<float>(v);
        if (!std::isnan(v) && static_cast<double>(f) != v) {
          throw Error(fmt::format("npy: value {} ({:a}) at {} is not a float32", v, v, i));
        }
        std::memcpy(p, &f, sizeof f);
        break;
      }
      case DType::f8:
        std::memcpy(p, &v, sizeof v);
        break;
    }
  }
  return out;
}

void write(const std::filesystem::path& path, DType dtype, std::span<const std::int64_t> shape,
           std::span<const double> values) {
  const auto bytes = encode(dtype, shape, values);
  try {
    write_file(path, bytes);
  } catch (const std::runtime_error& e) {
    throw Error(e.what());
  }
}

}  // namespace bng::cert::npy
