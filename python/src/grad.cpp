// _core.grad: one call of the shipped library's kernel on numpy buffers,
// through the runner the property tests use (bng/properties/runner.hpp: the
// library dlopen()ed by its absolute path), with the GIL released. The
// arrays stay referenced by this frame, so their memory outlives the call.
#include <utility>

#include "arrays.hpp"
#include "bindings.hpp"
#include "bng/properties/runner.hpp"

namespace bng::python {

namespace {

// (status, the library's own message for it)
std::pair<int, std::string> grad(const std::string& target, const std::string& combo,
                                 std::int64_t batch, std::int64_t channel, int is_train,
                                 unsigned core_mask, CallArrays a) {
  const CallShape shape{combo_named(combo), batch, channel, is_train};
  check_call_arrays(a, shape);
  prop::CallSpec spec;
  spec.target = target_named(target);
  spec.combo = shape.combo;
  spec.storage = prop::Storage::shared;
  spec.form = prop::Form::params;  // every combo has it (mp has no flat form)
  spec.core_mask = core_mask;
  if (!prop::exists(spec)) {
    raise_error(
        "TargetError", target + " has no " + combo + " kernel (it has: " + [&] {
          std::string names;
          for (Combo c : prop::combos(spec.target)) {
            names += (names.empty() ? "" : ", ") + std::string(combo_name(c));
          }
          return names;
        }() + ")");
  }
  prop::RawCall call;
  call.x = a.x.data();
  call.dy = a.dy.data();
  call.mean = a.mean.data();
  call.invar = a.invar.data();
  call.scale = a.scale.data();
  call.dx = a.dx.mutable_data();
  call.dscale = a.dscale.mutable_data();
  call.dbias = a.dbias.mutable_data();
  call.batch = batch;
  call.channel = channel;
  call.is_train = is_train;
  using StatusString = const char* (*)(int);
  const auto status_string =
      reinterpret_cast<StatusString>(prop::find_symbol(spec.target, "bng_status_string"));
  int status = 0;
  {
    py::gil_scoped_release unlocked;
    status = prop::invoke(spec, call);
  }
  return {status, status == 0 || status_string == nullptr ? "" : status_string(status)};
}

}  // namespace

void bind_grad(py::module_& m) {
  m.def(
      "grad",
      [](const std::string& target, const std::string& combo, std::int64_t batch,
         std::int64_t channel, int is_train, unsigned core_mask, py::array x, py::array dy,
         py::array mean, py::array invar, py::array scale, py::array dx, py::array dscale,
         py::array dbias) {
        return grad(target, combo, batch, channel, is_train, core_mask,
                    {x, dy, mean, invar, scale, dx, dscale, dbias});
      },
      "One kernel call (batchnormgrad.grad checks the arguments first); returns (status, "
      "message).");
}

}  // namespace bng::python
