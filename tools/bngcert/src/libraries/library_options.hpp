// --lib-<target> on bngcert's command line: which library file each target's
// kernels come from, settled before any work, and refused where it would
// change nothing (an option silently ignored would let a reader believe a
// file was judged that never ran).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "bng/properties/target.hpp"

namespace bng::cert {

// report, certify: a --lib-* (target name -> path, "" when not given) for a
// target the run does not load is refused, and so is one that names another
// file than BNG_LIB_<TARGET> (the variable would win); then the library of
// every target the run loads (given, from the environment or this build's)
// must be an existing regular file. Throws std::invalid_argument naming the
// option or variable and the path.
void settle_libraries(const std::map<std::string, std::string>& given,
                      const std::vector<prop::Target>& loaded);

// check, export: they run no library, so any --lib-* given is refused:
// std::invalid_argument naming it, with `why` (what the command does instead).
void refuse_libraries(const std::map<std::string, std::string>& given, std::string_view command,
                      std::string_view why);

}  // namespace bng::cert
