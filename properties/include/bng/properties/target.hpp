// What a property call is aimed at: which built library, which type
// combination, which entry point (_s/_p, params/flat) and which core mask.
// Shared by the runner, the checks, the tests and bngcert.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "bng/reference/case.hpp"

namespace bng::prop {

// A target of the registry (bng/optimized/targets.inc), by its index there:
// all_targets() lists them, target() and find_target() look one up by name.
// Nothing here names a target; a new registry entry is a new Target.
enum class Target : std::uint8_t {};
enum class Storage : std::uint8_t { shared, private_ };  // the _s and _p entry points
enum class Form : std::uint8_t { params, flat };  // the seed's params[12] or the vendor's flat form

inline constexpr int kCoreCount = 8;  // SPEC §2: every target, valid masks use bits 0..7
inline constexpr unsigned kAllCores = 0xFFu;

struct CallSpec {
  Target target{};  // the registry's first
  Combo combo = Combo::fp;
  Storage storage = Storage::shared;
  Form form = Form::params;
  unsigned core_mask = 0x1u;  // read for Storage::shared only
};

// Every target of the registry, in its order.
std::vector<Target> all_targets();
// The target the registry calls `name`, if any.
std::optional<Target> find_target(std::string_view name);
// The same, throwing std::invalid_argument (naming the registry's targets)
// for a name it does not list.
Target target(std::string_view name);
// "ft78ne, mt7004": the registry's names, for messages and help texts.
std::string target_names(std::string_view separator = ", ");
// The targets that implement combo c, in the registry's order.
std::vector<Target> targets_with(Combo c);

std::string_view target_name(Target t);    // the registry's name, e.g. "mt7004"
std::string_view storage_name(Storage s);  // "s", "p"
std::string_view form_name(Form f);        // "params", "flat"

// The C symbol a spec calls, e.g. "hp_batchnormgrad_s", "fp_batch_norm_grad_p".
std::string entry_point(const CallSpec& s);
// One line naming the call: "mt7004 hp_batch_norm_grad_s mask=0x05".
std::string describe(const CallSpec& s);
void showValue(const CallSpec& s, std::ostream& os);  // for RapidCheck's counterexample print

// Whether the target has the call: its kernel for the combo (the registry)
// and the form (SPEC §2: mp has the params form only).
bool exists(const CallSpec& s);
// The combos a target implements (the registry's kernels of the target).
std::vector<Combo> combos(Target t);
// Every entry point SPEC §2 says the target exports, bng_status_string included, sorted.
std::vector<std::string> spec_exports(Target t);
// Every CallSpec the target offers for one combo with the given mask for _s: the
// _s and _p entry points in each form that exists.
std::vector<CallSpec> entry_points(Target t, Combo c, unsigned core_mask);

// The α the target declares for the kernel in the registry (SPEC §5; targets.inc, alpha.hpp).
// Throws std::invalid_argument for a combo the target does not implement.
double declared_alpha(Target t, Combo c);

// Whether the kernel declares correct rounding (SPEC §5) for an output: dx
// or not (dbias, dscale), of a call with is_train 0 or 1 (alpha.hpp's
// declares_correct_rounding, for this kernel). Such an output passes only as
// RN(y*) where that is finite (measure's correctly_rounded). Throws like
// declared_alpha.
bool declares_correct_rounding(Target t, Combo c, int is_train, bool dx);

}  // namespace bng::prop
