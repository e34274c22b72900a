// _core.reference: the exact reference (bng/reference/reference.hpp) on numpy
// arrays: SPEC §1 computed without rounding, rounded once into each output's
// format. Where an input is NaN or ±Inf there is no real result: NaN.
#include "bng/reference/reference.hpp"
#include "arrays.hpp"
#include "bindings.hpp"

namespace bng::python {

namespace {

void reference(const std::string& combo, std::int64_t batch, std::int64_t channel, int is_train,
               const std::string& path, CallArrays a) {
  const ref::Path p = reference_path_named(path);
  const CallShape shape{combo_named(combo), batch, channel, is_train};
  check_call_arrays(a, shape);
  Case c;
  c.combo = shape.combo;
  c.batch = batch;
  c.channel = channel;
  c.is_train = is_train;
  const Format data = data_format(c.combo), stats = stats_format(c.combo);
  c.x = to_doubles(a.x, data);
  c.dy = to_doubles(a.dy, data);
  c.mean = to_doubles(a.mean, stats);
  c.invar = to_doubles(a.invar, stats);
  c.scale = to_doubles(a.scale, stats);
  ref::Result r;
  {
    py::gil_scoped_release unlocked;
    r = ref::compute(c, p);
  }
  const auto rounded = [](const std::vector<ref::Expected>& es) {
    std::vector<double> v(es.size());
    for (std::size_t i = 0; i < es.size(); ++i) v[i] = es[i].rounded;
    return v;
  };
  from_doubles(rounded(r.dx), data, a.dx);
  from_doubles(rounded(r.dscale), stats, a.dscale);
  from_doubles(rounded(r.dbias), stats, a.dbias);
}

}  // namespace

void bind_reference(py::module_& m) {
  m.def(
      "reference",
      [](const std::string& combo, std::int64_t batch, std::int64_t channel, int is_train,
         const std::string& path, py::array x, py::array dy, py::array mean, py::array invar,
         py::array scale, py::array dx, py::array dscale, py::array dbias) {
        reference(combo, batch, channel, is_train, path,
                  {x, dy, mean, invar, scale, dx, dscale, dbias});
      },
      "The exact results, correctly rounded, into dx, dscale, dbias.");
}

}  // namespace bng::python
