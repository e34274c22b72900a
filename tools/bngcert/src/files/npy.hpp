// Reading and writing NumPy .npy files (format versions 1.0, 2.0 and 3.0),
// the exchange format of `bngcert check` and of the report's reproducers.
// Only what the tool needs: little-endian '<f2', '<f4', '<f8', C order.
// Every malformed or unsupported file raises npy::Error with a message that
// names the file and says what is wrong; nothing here aborts or reads past
// the data the header promises.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "input_file.hpp"

namespace bng::cert::npy {

using bng::cert::Links;

enum class DType : std::uint8_t { f2, f4, f8 };

std::string_view descr(DType t);  // "<f2", "<f4", "<f8"
std::size_t item_size(DType t);   // 2, 4, 8

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Header {
  DType dtype = DType::f4;
  std::vector<std::int64_t> shape;  // () is a scalar: one element
  std::size_t data_offset = 0;      // bytes from the start of the file
  std::int64_t elements() const;
  std::string shape_string() const;  // "(3, 4)", as NumPy prints it
};

// Parses the magic, version and header dictionary at the start of `bytes` and
// checks that a file of `file_size` bytes holds exactly the promised data.
// `name` is the file name used in messages.
Header parse_header(std::span<const unsigned char> bytes, std::uint64_t file_size,
                    const std::string& name);

// A read-only .npy array, its file read whole into memory once (input_file.hpp:
// a file that shrinks or changes while it is judged cannot crash the reader or
// show it two different contents), values converted to double slice by slice.
class Array {
 public:
  static Array open(const std::filesystem::path& path, Links links = Links::follow);
  // The array a file of these bytes holds; `name` names it in messages.
  static Array from_bytes(std::string name, std::vector<unsigned char> bytes);
  // The array of `shape` whose C-order elements are `data` (no file header):
  // arrays handed over in memory (the Python judge). data.size() must be the
  // shape's elements times the item size; otherwise Error.
  static Array from_memory(std::string name, DType dtype, std::vector<std::int64_t> shape,
                           std::vector<unsigned char> data);

  const Header& header() const { return header_; }
  const std::string& name() const { return name_; }

  // Elements [first, first + count) in file order, each converted exactly to double.
  void read(std::int64_t first, std::int64_t count, double* out) const;
  std::vector<double> read_all() const;
  // Viewing the data as rows of `columns` elements, the columns [c_begin, c_end)
  // of every row, row by row (out gets rows * (c_end - c_begin) values).
  void read_columns(std::int64_t columns, std::int64_t c_begin, std::int64_t c_end,
                    std::vector<double>& out) const;
  // The same columns, column by column: out[j][r] is row r of column
  // c_begin + j (one pass over the rows reads each row's part once). Each
  // column a vector of its own, so that a caller can take one over whole
  // (swap it out) instead of copying it; out's vectors keep their storage.
  void read_columns_transposed(std::int64_t columns, std::int64_t c_begin, std::int64_t c_end,
                               std::vector<std::vector<double>>& out) const;

 private:
  // Rows of the array viewed as rows of `columns`; std::out_of_range unless
  // [c_begin, c_end) is a range of columns of it.
  std::int64_t column_rows(std::int64_t columns, std::int64_t c_begin, std::int64_t c_end) const;
  Array() = default;
  std::string name_;
  Header header_;
  std::vector<unsigned char> bytes_;
};

// The bytes of a version 1.0 (2.0 if the header needs it) C-order .npy file.
// Each value must be exactly representable in `dtype` (NaN and ±Inf are);
// otherwise Error. values.size() must equal the product of shape.
std::vector<unsigned char> encode(DType dtype, std::span<const std::int64_t> shape,
                                  std::span<const double> values);
void write(const std::filesystem::path& path, DType dtype, std::span<const std::int64_t> shape,
           std::span<const double> values);

}  // namespace bng::cert::npy
