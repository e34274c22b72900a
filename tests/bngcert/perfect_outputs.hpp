// What a perfect device returns for a case: the exact reference's correctly
// rounded outputs. The tests of check and of the fault maps perturb them.
#pragma once

#include "bng/reference/case.hpp"
#include "bng/reference/reference.hpp"

namespace bngcert_test {

inline bng::Outputs perfect(const bng::Case& c) {
  const auto r = bng::ref::compute(c);
  bng::Outputs o;
  for (const auto& e : r.dx) o.dx.push_back(e.rounded);
  for (const auto& e : r.dbias) o.dbias.push_back(e.rounded);
  for (const auto& e : r.dscale) o.dscale.push_back(e.rounded);
  return o;
}

}  // namespace bngcert_test
