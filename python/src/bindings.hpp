// The parts of the extension module batchnormgrad._core, one per file.
#pragma once

#include <pybind11/pybind11.h>

namespace bng::python {
void bind_libraries(pybind11::module_& m);  // module.cpp: which library files to load
void bind_grad(pybind11::module_& m);       // grad.cpp
void bind_reference(pybind11::module_& m);  // reference.cpp
void bind_judge(pybind11::module_& m);      // judge.cpp
}  // namespace bng::python
