#include "json_number.hpp"

#include <cmath>

namespace bng::cert {

nlohmann::json number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

}  // namespace bng::cert
