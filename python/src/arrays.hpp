// The numpy side of the extension module: a call's description as the Python
// layer derived it (batchnormgrad/_arrays.py checks dtypes, shapes and
// layouts and makes every input C-contiguous), and access to the buffers
// behind it. The checks here are guards on that contract, not the messages a
// user sees: a violation means the private module was called wrongly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "bng/properties/target.hpp"
#include "bng/reference/case.hpp"
#include "bng/reference/reference.hpp"

namespace bng::python {

namespace py = pybind11;

// One call: which kernel and which shape (batch = product of x's leading dimensions).
struct CallShape {
  Combo combo = Combo::fp;
  std::int64_t batch = 1, channel = 1;
  int is_train = 1;
};

Combo combo_named(const std::string& name);          // "fp", "hp", "mp"
prop::Target target_named(const std::string& name);  // a registry target, else TargetError
ref::Path reference_path_named(
    const std::string& name);  // "tiered", "exact", else ReferencePathError

// Raises batchnormgrad.errors.<type_name>(message) in Python.
[[noreturn]] void raise_error(const char* type_name, const std::string& message);

// The eight arrays of a call, in SPEC §2's order, with their formats.
struct CallArrays {
  py::array x, dy, mean, invar, scale, dx, dscale, dbias;
};

// Guards: each array C-contiguous, of its format's item size, with the element
// count of the call, outputs writeable; raises LayoutError otherwise.
void check_call_arrays(const CallArrays& a, const CallShape& s);

// Elements of a binary16 ('<f2') or binary32 ('<f4') array as exact doubles.
std::vector<double> to_doubles(const py::array& a, Format f);
// Stores exact values (each representable in `f`, or NaN) into such an array.
void from_doubles(const std::vector<double>& v, Format f, py::array& a);

// The array's data as bytes (a copy, taken with the GIL held).
std::vector<unsigned char> bytes_of(const py::array& a);

}  // namespace bng::python
