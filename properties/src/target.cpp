#include "bng/properties/target.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "bng/optimized/alpha.hpp"

namespace bng::prop {

std::string_view target_name(Target t) {
  return t == Target::ft78ne ? "ft78ne" : "mt7004";
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
  if (s.target == Target::ft78ne && s.combo != Combo::fp) return false;
  return !(s.combo == Combo::mp && s.form == Form::flat);
}

std::vector<Combo> combos(Target t) {
  if (t == Target::ft78ne) return {Combo::fp};
  return {Combo::fp, Combo::hp, Combo::mp};
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
  if (t == Target::ft78ne) {
    if (c == Combo::fp) return opt::ft78ne::alpha_fp;
    throw std::invalid_argument("ft78ne implements fp only");
  }
  const double a = opt::mt7004::alpha(c);
  if (a == 0) throw std::invalid_argument("unknown combo");
  return a;
}

}  // namespace bng::prop
