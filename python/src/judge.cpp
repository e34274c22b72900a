// _core.judge: numpy arrays judged as `bngcert check --dir` judges .npy files
// (tools/bngcert/src/judging/array_check.hpp: the same code, so the two agree), with
// every failing index kept. The result holds the tally, so that
// write_report() writes the very report and certificate `check` would.
#include <cmath>
#include <filesystem>
#include <new>
#include <optional>
#include <stdexcept>

#include <pybind11/stl.h>

#include "array_check.hpp"
#include "arrays.hpp"
#include "bindings.hpp"
#include "certificate.hpp"
#include "input_file.hpp"
#include "output_file.hpp"
#include "report.hpp"

namespace bng::python {

namespace {

using nlohmann::json;

class Judgement {
 public:
  Judgement(cert::ArrayCheck check, json run) : run_(std::move(run)) {
    kernels_.push_back(std::move(check.tally));
    const std::array<std::string, 3> none{};
    report_ = cert::report_json(run_, kernels_, {none});
  }
  bool passed() const { return kernels_.front().passed(); }
  std::string report() const { return report_.dump(); }
  py::array_t<std::int64_t> failing(const std::string& output) const {
    const std::vector<std::int64_t>& f = tally(output).failing;
    return py::array_t<std::int64_t>(static_cast<py::ssize_t>(f.size()), f.data());
  }
  std::int64_t nonfinite_where_finite(const std::string& output) const {
    return tally(output).nonfinite_where_finite;
  }
  // report.json, .md, .html, reproducers and certificate into `dir`, as `check` writes them.
  void write_report(const std::string& dir) const {
    try {
      cert::prepare_output_dir(dir, "write_report");
      const json report = cert::write_report(dir, run_, kernels_);
      cert::write_certificate(dir, {report});
    } catch (const std::exception& e) {
      raise_error("OutputError", e.what());
    }
  }

 private:
  const cert::OutputTally& tally(const std::string& output) const {
    for (cert::Output o : cert::kOutputs) {
      if (cert::output_name(o) == output) return kernels_.front()[o];
    }
    raise_error("Error", "no output is called '" + output + "' (dx, dscale, dbias)");
  }
  json run_;
  json report_;
  std::vector<cert::KernelTally> kernels_;
};

cert::npy::DType dtype_of(Format f) {
  return f == Format::binary16 ? cert::npy::DType::f2 : cert::npy::DType::f4;
}

Judgement judge(const std::string& target, const std::string& combo, std::int64_t batch,
                std::int64_t channel, int is_train, std::optional<double> alpha,
                const std::string& path, const std::vector<std::int64_t>& data_shape,
                const CallArrays& a) {
  const CallShape shape{combo_named(combo), batch, channel, is_train};
  check_call_arrays(a, shape);
  const prop::Target t = target_named(target);
  const Format data = data_format(shape.combo), stats = stats_format(shape.combo);
  cert::DumpArrays arrays;
  const auto add = [&](const char* name, const py::array& arr, Format f, bool is_data) {
    std::vector<std::int64_t> dims = is_data ? data_shape : std::vector<std::int64_t>{channel};
    arrays.emplace(name,
                   cert::npy::Array::from_memory(std::string(name) + " (numpy array)", dtype_of(f),
                                                 std::move(dims), bytes_of(arr)));
  };
  add("x", a.x, data, true);
  add("dy", a.dy, data, true);
  add("dx", a.dx, data, true);
  add("mean", a.mean, stats, false);
  add("invar", a.invar, stats, false);
  add("scale", a.scale, stats, false);
  add("dbias", a.dbias, stats, false);
  add("dscale", a.dscale, stats, false);
  const cert::DumpShape s{shape.combo, batch, channel, is_train};
  cert::ArrayCheckOptions options;
  options.alpha = alpha;
  options.keep_failing = true;
  options.reference = reference_path_named(path);
  try {
    std::optional<cert::ArrayCheck> check;
    {
      py::gil_scoped_release unlocked;
      check = cert::judge_arrays(arrays, t, s, options);
    }
    check->tally.calls["numpy arrays"] = 1;
    json run = cert::array_check_run(*check, arrays, s, "numpy arrays (batchnormgrad.judge)",
                                     alpha.has_value());
    return Judgement(std::move(*check), std::move(run));
  } catch (const cert::InputError& e) {
    raise_error(alpha && !(std::isfinite(*alpha) && *alpha >= 0) ? "AlphaError" : "TargetError",
                e.what());
  } catch (const std::bad_alloc&) {
    raise_error("Error",
                "out of memory judging the arrays (the exact reference of a block of "
                "channels did not fit)");
  }
}

}  // namespace

void bind_judge(py::module_& m) {
  py::class_<Judgement>(m, "Judgement")
      .def_property_readonly("passed", &Judgement::passed)
      .def("report", &Judgement::report, "report.json, as text")
      .def("failing", &Judgement::failing, "flat indices of the failing outputs of one output")
      .def("nonfinite_where_finite", &Judgement::nonfinite_where_finite)
      .def("write_report", &Judgement::write_report);
  m.def(
      "judge",
      [](const std::string& target, const std::string& combo, std::int64_t batch,
         std::int64_t channel, int is_train, std::optional<double> alpha, const std::string& path,
         const std::vector<std::int64_t>& data_shape, py::array x, py::array dy, py::array mean,
         py::array invar, py::array scale, py::array dx, py::array dscale, py::array dbias) {
        return judge(target, combo, batch, channel, is_train, alpha, path, data_shape,
                     {x, dy, mean, invar, scale, dx, dscale, dbias});
      },
      "Judges outputs against the exact reference (batchnormgrad.judge checks the arguments).");
}

}  // namespace bng::python
