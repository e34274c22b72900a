// What a property call is aimed at: which built library, which type
// combination, which entry point (_s/_p, params/flat) and which core mask.
// Shared by the runner, the checks, the tests and bngcert.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "bng/reference/case.hpp"

namespace bng::prop {

enum class Target : std::uint8_t { ft78ne, mt7004 };
enum class Storage : std::uint8_t { shared, private_ };  // the _s and _p entry points
enum class Form : std::uint8_t { params, flat };  // the seed's params[12] or the vendor's flat form

inline constexpr int kCoreCount = 8;  // SPEC §2: both targets, valid masks use bits 0..7
inline constexpr unsigned kAllCores = 0xFFu;

struct CallSpec {
  Target target = Target::mt7004;
  Combo combo = Combo::fp;
  Storage storage = Storage::shared;
  Form form = Form::params;
  unsigned core_mask = 0x1u;  // read for Storage::shared only
};

std::string_view target_name(Target t);    // "ft78ne", "mt7004"
std::string_view storage_name(Storage s);  // "s", "p"
std::string_view form_name(Form f);        // "params", "flat"

// The C symbol a spec calls, e.g. "hp_batchnormgrad_s", "fp_batch_norm_grad_p".
std::string entry_point(const CallSpec& s);
// One line naming the call: "mt7004 hp_batch_norm_grad_s mask=0x05".
std::string describe(const CallSpec& s);
void showValue(const CallSpec& s, std::ostream& os);  // for RapidCheck's counterexample print

// Whether SPEC §2 gives this call to the target (ft78ne: fp only; mp: params form only).
bool exists(const CallSpec& s);
// The combos a target implements: ft78ne {fp}, mt7004 {fp, hp, mp}.
std::vector<Combo> combos(Target t);
// Every entry point SPEC §2 says the target exports, bng_status_string included, sorted.
std::vector<std::string> spec_exports(Target t);
// Every CallSpec the target offers for one combo with the given mask for _s: the
// _s and _p entry points in each form that exists.
std::vector<CallSpec> entry_points(Target t, Combo c, unsigned core_mask);

// The α the kernel declares in optimized/include/bng/optimized/alpha.hpp (SPEC §5).
// Throws std::invalid_argument for a combo the target does not implement.
double declared_alpha(Target t, Combo c);

}  // namespace bng::prop
