#include "library_options.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "bng/properties/runner.hpp"

namespace bng::cert {

void settle_libraries(const std::map<std::string, std::string>& given,
                      const std::vector<prop::Target>& loaded) {
  for (const auto& [name, path] : given) {
    if (path.empty()) continue;
    const std::string option = "--lib-" + name;
    const prop::Target t = prop::target(name);
    if (std::find(loaded.begin(), loaded.end(), t) == loaded.end()) {
      throw std::invalid_argument(
          fmt::format("{} {}: has no effect: this run's --targets do not include {}, so no {} "
                      "library is loaded",
                      option, path, name, name));
    }
    const std::string variable = prop::library_env_var(t);
    const char* env = std::getenv(variable.c_str());
    if (env != nullptr && *env != '\0' &&
        prop::library_file(env, variable) != prop::library_file(path, option)) {
      throw std::invalid_argument(fmt::format(
          "{} {} and {}={} name different files, and the variable would decide which is loaded: "
          "unset {} or give the same file",
          option, path, variable, env, variable));
    }
  }
  // library_path checks each file as library_file does, naming its origin.
  for (prop::Target t : loaded) prop::library_path(t);
}

void refuse_libraries(const std::map<std::string, std::string>& given, std::string_view command,
                      std::string_view why) {
  for (const auto& [name, path] : given) {
    if (path.empty()) continue;
    throw std::invalid_argument(
        fmt::format("{}: --lib-{} {}: has no effect there: {}", command, name, path, why));
  }
}

}  // namespace bng::cert
