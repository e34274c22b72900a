// SPEC §2 and §7: what each library exports, and its status messages.
#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>

#include "bng/properties/checks.hpp"

namespace bng::prop {

std::string check_exports(Target t) {
  const std::vector<std::string> want = spec_exports(t), got = dynamic_symbols(t);
  std::vector<std::string> extra, missing;
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
                      std::back_inserter(missing));
  std::ostringstream os;
  // Through dlsym as well: what a caller can actually reach.
  for (const std::string& name : want) {
    if (find_symbol(t, name.c_str()) == nullptr) os << " dlsym cannot find " << name << ";";
  }
  // No entry point of a kernel the registry does not give the target.
  for (Combo c : {Combo::fp, Combo::hp, Combo::mp}) {
    for (Form f : {Form::params, Form::flat}) {
      for (Storage st : {Storage::shared, Storage::private_}) {
        const CallSpec spec{t, c, st, f, 1};
        if (exists(spec)) continue;
        const std::string name = entry_point(spec);
        if (find_symbol(t, name.c_str()) != nullptr)
          os << " " << target_name(t) << " exports " << name << " (no such kernel or form);";
      }
    }
  }
  if (!extra.empty()) {
    os << " exports beyond the C API:";
    for (std::size_t i = 0; i < extra.size() && i < 20; ++i) os << " " << extra[i];
    if (extra.size() > 20) os << " ... (" << extra.size() << " in all)";
    os << ";";
  }
  if (!missing.empty()) {
    os << " missing from .dynsym:";
    for (const auto& m : missing) os << " " << m;
  }
  if (os.tellp() == 0) return {};
  return std::string(target_name(t)) + " (" + library_path(t) + "):" + os.str();
}

std::string check_status_strings(Target t) {
  using Fn = const char* (*)(int);
  auto fn = reinterpret_cast<Fn>(find_symbol(t, "bng_status_string"));
  if (fn == nullptr) return std::string(target_name(t)) + " does not export bng_status_string";
  std::ostringstream os;
  std::set<std::string> seen;
  for (int status = 0; status >= -6; --status) {
    const char* msg = fn(status);
    if (msg == nullptr || *msg == '\0') {
      os << " status " << status << " has no message;";
      continue;
    }
    if (std::strchr(msg, '\n') != nullptr)
      os << " status " << status << "'s message is not one line;";
    if (!seen.insert(msg).second)
      os << " status " << status << " repeats message \"" << msg << "\";";
  }
  for (int unknown : {1, -7, -1000, 12345}) {
    const char* msg = fn(unknown);
    if (msg == nullptr || *msg == '\0')
      os << " unknown status " << unknown << " gives no message;";
    else if (seen.count(msg) != 0)
      os << " unknown status " << unknown << " gives a known status's message;";
  }
  if (os.tellp() == 0) return {};
  return std::string(target_name(t)) + " bng_status_string:" + os.str();
}

}  // namespace bng::prop
