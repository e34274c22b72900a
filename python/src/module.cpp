// batchnormgrad._core: the extension module behind the Python package
// (python/batchnormgrad/). It links the project's own code — the property
// runner that loads the shipped libraries, the exact reference and bngcert's
// judge and report writers — so Python sees exactly what the C ABI and the
// CLI do. The Python layer checks arguments; each part lives in its own file.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bindings.hpp"
#include "bng/properties/runner.hpp"

namespace bng::python {

void bind_libraries(pybind11::module_& m) {
  m.def("targets", [] {
    std::vector<std::string> names;
    for (prop::Target t : prop::all_targets()) names.emplace_back(prop::target_name(t));
    return names;
  });
  m.def("combos", [](const std::string& target) {
    std::vector<std::string> names;
    for (Combo c : prop::combos(target_named(target))) names.emplace_back(combo_name(c));
    return names;
  });
  m.def("declared_alpha", [](const std::string& target, const std::string& combo) {
    return prop::declared_alpha(target_named(target), combo_named(combo));
  });
  // Before a target's first call: the library file to load for it (the
  // package's _paths.py: this build's or the installed one). BNG_LIB_<TARGET>
  // in the environment still wins, as for every runner of the project.
  m.def("use_library", [](const std::string& target, const std::string& path) {
    try {
      prop::set_library_path(target_named(target), path, "batchnormgrad library path");
    } catch (const std::invalid_argument& e) {
      raise_error("LibraryError", e.what());
    }
  });
  m.def("library_path", [](const std::string& target) {
    try {
      return prop::library_path(target_named(target));
    } catch (const std::invalid_argument& e) {
      raise_error("LibraryError", e.what());
    }
  });
}

}  // namespace bng::python

PYBIND11_MODULE(_core, m) {
  m.doc() = "batchnormgrad's compiled core (use the batchnormgrad package, not this module)";
  bng::python::bind_libraries(m);
  bng::python::bind_grad(m);
  bng::python::bind_reference(m);
  bng::python::bind_judge(m);
}
