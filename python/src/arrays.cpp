#include "arrays.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "bng/binary16.hpp"

namespace bng::python {

Combo combo_named(const std::string& name) {
  if (name == "fp") return Combo::fp;
  if (name == "hp") return Combo::hp;
  if (name == "mp") return Combo::mp;
  raise_error("DTypeError", "no type combination is called '" + name + "'");
}

ref::Path reference_path_named(const std::string& name) {
  const std::optional<ref::Path> p = ref::parse_path(name);
  if (!p)
    raise_error("ReferencePathError", "no reference path is called '" + name + "' (tiered, exact)");
  return *p;
}

prop::Target target_named(const std::string& name) {
  const auto t = prop::find_target(name);
  if (!t) {
    raise_error("TargetError",
                "no target is called '" + name + "' (targets: " + prop::target_names() + ")");
  }
  return *t;
}

void raise_error(const char* type_name, const std::string& message) {
  const py::object type = py::module_::import("batchnormgrad.errors").attr(type_name);
  PyErr_SetObject(type.ptr(), py::str(message).ptr());
  throw py::error_already_set();
}

namespace {

std::size_t item_size(Format f) {
  return f == Format::binary16 ? 2 : 4;
}

void check_one(const py::array& a, const char* name, Format f, std::int64_t elements, bool output) {
  const bool c_contiguous = (a.flags() & py::array::c_style) != 0;
  if (!c_contiguous || static_cast<std::size_t>(a.itemsize()) != item_size(f) ||
      a.size() != elements || (output && !a.writeable())) {
    raise_error("LayoutError", std::string("internal: array ") + name +
                                   " does not match the call batchnormgrad._arrays described");
  }
}

}  // namespace

void check_call_arrays(const CallArrays& a, const CallShape& s) {
  const Format data = data_format(s.combo), stats = stats_format(s.combo);
  const std::int64_t n = s.batch * s.channel, c = s.channel;
  check_one(a.x, "x", data, n, false);
  check_one(a.dy, "dy", data, n, false);
  check_one(a.mean, "mean", stats, c, false);
  check_one(a.invar, "invar", stats, c, false);
  check_one(a.scale, "scale", stats, c, false);
  check_one(a.dx, "dx", data, n, true);
  check_one(a.dscale, "dscale", stats, c, true);
  check_one(a.dbias, "dbias", stats, c, true);
}

std::vector<double> to_doubles(const py::array& a, Format f) {
  const auto n = static_cast<std::size_t>(a.size());
  std::vector<double> v(n);
  if (f == Format::binary16) {
    const auto* p = static_cast<const std::uint16_t*>(a.data());
    for (std::size_t i = 0; i < n; ++i) v[i] = binary16::to_double(p[i]);
  } else {
    const auto* p = static_cast<const float*>(a.data());
    for (std::size_t i = 0; i < n; ++i) v[i] = p[i];
  }
  return v;
}

void from_doubles(const std::vector<double>& v, Format f, py::array& a) {
  if (f == Format::binary16) {
    auto* p = static_cast<std::uint16_t*>(a.mutable_data());
    for (std::size_t i = 0; i < v.size(); ++i) {
      p[i] = std::isnan(v[i]) ? binary16::kQuietNan : binary16::round_from_double(v[i]);
    }
  } else {
    auto* p = static_cast<float*>(a.mutable_data());
    for (std::size_t i = 0; i < v.size(); ++i) {
      p[i] = std::isnan(v[i]) ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(v[i]);
    }
  }
}

std::vector<unsigned char> bytes_of(const py::array& a) {
  std::vector<unsigned char> b(static_cast<std::size_t>(a.nbytes()));
  if (!b.empty()) std::memcpy(b.data(), a.data(), b.size());
  return b;
}

}  // namespace bng::python
