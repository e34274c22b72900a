#include "bng/properties/target.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "bng/optimized/targets.hpp"

namespace bng::prop {

namespace {

// The registry's kernel kinds are in the order of bng::Combo.
static_assert(static_cast<std::size_t>(Combo::fp) == 0 &&
              static_cast<std::size_t>(Combo::hp) == 1 &&
              static_cast<std::size_t>(Combo::mp) == 2 && opt::kKernelKinds == 3);
static_assert(opt::kTargetCount <= 256, "Target is a uint8_t index");

const opt::TargetInfo& info(Target t) {
  const auto i = static_cast<std::size_t>(t);
  if (i >= opt::kTargetCount) throw std::out_of_range("no target number " + std::to_string(i));
  return opt::kTargets[i];
}

}  // namespace

std::vector<Target> all_targets() {
  std::vector<Target> out;
  for (std::size_t i = 0; i < opt::kTargetCount; ++i) out.push_back(static_cast<Target>(i));
  return out;
}

std::optional<Target> find_target(std::string_view name) {
  if (const auto i = opt::target_index(name)) return static_cast<Target>(*i);
  return std::nullopt;
}

Target target(std::string_view name) {
  if (const auto t = find_target(name)) return *t;
  throw std::invalid_argument("unknown target '" + std::string(name) + "' (the registry has " +
                              target_names() + ")");
}

std::string target_names(std::string_view separator) {
  std::string out;
  for (const opt::TargetInfo& t : opt::kTargets) {
    if (!out.empty()) out += separator;
    out += t.name;
  }
  return out;
}

std::vector<Target> targets_with(Combo c) {
  std::vector<Target> out;
  for (Target t : all_targets()) {
    if (info(t).has_kernel(static_cast<std::size_t>(c))) out.push_back(t);
  }
  return out;
}

std::string_view target_name(Target t) {
  return info(t).name;
}
std::string_view storage_name(Storage s) {
  return s == Storage::shared ? "s" : "p";
}
std::string_view form_name(Form f) {
  return f == Form::params ? "params" : "flat";
}

std::string entry_point(const CallSpec& s) {
  std::string name(combo_name(s.combo));
  name += s.form == Form::params ? "_batch_norm_grad_" : "_batchnormgrad_";
  name += storage_name(s.storage);
  return name;
}

std::string describe(const CallSpec& s) {
  std::string out = std::string(target_name(s.target)) + " " + entry_point(s);
  if (s.storage == Storage::shared) {
    char mask[32];
    std::snprintf(mask, sizeof mask, " mask=0x%02x", s.core_mask);
    out += mask;
  }
  return out;
}

void showValue(const CallSpec& s, std::ostream& os) {
  os << describe(s);
}

bool exists(const CallSpec& s) {
  if (!info(s.target).has_kernel(static_cast<std::size_t>(s.combo))) return false;
  return !(s.combo == Combo::mp && s.form == Form::flat);
}

std::vector<Combo> combos(Target t) {
  std::vector<Combo> out;
  for (Combo c : {Combo::fp, Combo::hp, Combo::mp}) {
    if (info(t).has_kernel(static_cast<std::size_t>(c))) out.push_back(c);
  }
  return out;
}

std::vector<std::string> spec_exports(Target t) {
  std::vector<std::string> names{"bng_status_string"};
  for (Combo c : combos(t)) {
    for (Form f : {Form::params, Form::flat}) {
      for (Storage s : {Storage::shared, Storage::private_}) {
        CallSpec spec{t, c, s, f, 1};
        if (exists(spec)) names.push_back(entry_point(spec));
      }
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<CallSpec> entry_points(Target t, Combo c, unsigned core_mask) {
  std::vector<CallSpec> out;
  for (Form f : {Form::params, Form::flat}) {
    for (Storage s : {Storage::shared, Storage::private_}) {
      CallSpec spec{t, c, s, f, core_mask};
      if (exists(spec)) out.push_back(spec);
    }
  }
  return out;
}

double declared_alpha(Target t, Combo c) {
  const auto k = static_cast<std::size_t>(c);
  if (k >= opt::kKernelKinds) throw std::invalid_argument("unknown combo");
  if (!info(t).has_kernel(k)) {
    throw std::invalid_argument(std::string(target_name(t)) + " has no " +
                                std::string(combo_name(c)) + " kernel");
  }
  return info(t).alpha[k];
}

bool declares_correct_rounding(Target t, Combo c, int is_train, bool dx) {
  declared_alpha(t, c);  // the same checks
  return opt::declares_correct_rounding(is_train != 0, dx);
}

}  // namespace bng::prop
