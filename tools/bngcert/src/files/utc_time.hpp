// The time stamps of reports, certificates and shards.
#pragma once

#include <string>

namespace bng::cert {

// Now, in UTC, as "2026-12-03T11:04:05Z".
std::string utc_now();

}  // namespace bng::cert
