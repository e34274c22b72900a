// A double as a JSON value, for every JSON bngcert writes (reports, metrics,
// certificates, diffs): JSON has no NaN or infinity.
#pragma once

#include <nlohmann/json.hpp>

namespace bng::cert {

// Non-finite doubles become the strings "inf", "-inf", "nan"; finite ones
// stay numbers.
nlohmann::json number(double v);

}  // namespace bng::cert
