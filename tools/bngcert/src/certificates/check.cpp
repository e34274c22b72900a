// `bngcert check`: judges outputs computed elsewhere (a dump from a target's
// hardware) against the exact reference, at the kernel's declared α. The
// files are read whole (input_file.hpp) and judged a block of channels at a
// time (dump_judge.hpp), so the reference's working set stays bounded however
// many channels the call has, and the blocks are judged on every core.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <map>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "array_check.hpp"
#include "case_files.hpp"
#include "certificate.hpp"
#include "cli.hpp"
#include "dump_params.hpp"
#include "dump_shapes.hpp"
#include "input_file.hpp"
#include "parallel_jobs.hpp"
#include "report.hpp"
#include "utc_time.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

// "fp, hp, mp"
std::string combo_list(const std::vector<Combo>& combos) {
  std::string out;
  for (Combo c : combos) {
    if (!out.empty()) out += ", ";
    out += combo_name(c);
  }
  return out;
}

std::string dtype_word(npy::DType t) {
  switch (t) {
    case npy::DType::f2:
      return "'<f2' (float16)";
    case npy::DType::f4:
      return "'<f4' (float32)";
    case npy::DType::f8:
      return "'<f8' (float64)";
  }
  return "?";
}

// A dump too large for this machine's memory: what was being held, and what
// can make it smaller.
std::string out_of_memory(const CheckOptions& o, const DumpShape& s, std::int64_t width,
                          std::int64_t jobs) {
  std::string advice;
  if (jobs > 1) advice += fmt::format("; --jobs 1 holds one block instead of {}", jobs);
  if (width > 1) advice += "; a smaller --block-elements puts fewer channels in a block";
  if (advice.empty()) {
    advice = fmt::format(
        "; a block is already one channel on one job: its {} rows cannot be judged "
        "on this machine (channels are independent, SPEC §4, rows are not)",
        s.batch);
  }
  return fmt::format(
      "{}: out of memory judging the dump ({} × {}): the exact reference of a block of {} "
      "channel(s) × {} rows ({} elements) on each of {} job(s) did not fit{}",
      o.dir.string(), s.batch, s.channel, width, s.batch, width * s.batch, jobs, advice);
}

// The eight arrays, each file read whole, side by side on the check's jobs:
// x, dy and dx first (read one after another, a 262144 x 64 dump's three were
// a sixth of a two-job check, the other job idle). A bad file is reported as
// reading them in the order of kInputNames and kOutputNames would: the first
// in that order.
DumpArrays read_dump_arrays(const CheckOptions& o) {
  constexpr std::array<std::string_view, 8> kReadOrder = {"x",     "dy",    "dx",    "mean",
                                                          "invar", "scale", "dbias", "dscale"};
  std::array<std::optional<npy::Array>, kReadOrder.size()> read;
  std::array<std::exception_ptr, kReadOrder.size()> errors;
  run_jobs(o.jobs, kReadOrder.size(), [&](int, std::size_t i) {
    try {
      read[i] = npy::Array::open(o.dir / (std::string(kReadOrder[i]) + ".npy"));
    } catch (...) {
      errors[i] = std::current_exception();
    }
  });
  const auto at = [&](std::string_view n) {
    return static_cast<std::size_t>(std::find(kReadOrder.begin(), kReadOrder.end(), n) -
                                    kReadOrder.begin());
  };
  DumpArrays a;
  for (const auto& names : {std::span<const std::string_view>(kInputNames),
                            std::span<const std::string_view>(kOutputNames)}) {
    for (std::string_view n : names) {
      if (errors[at(n)]) std::rethrow_exception(errors[at(n)]);
      a.emplace(n, std::move(*read[at(n)]));
    }
  }
  return a;
}

// The type combination the arrays' dtypes name, refused unless the target has that kernel.
Combo dump_combo(const DumpArrays& a, prop::Target tgt) {
  const std::string target(prop::target_name(tgt));
  const npy::DType data = a.at("x").header().dtype, stats = a.at("mean").header().dtype;
  for (const char* n : {"dy", "dx"}) {
    if (a.at(n).header().dtype != data) {
      throw InputError(fmt::format("{} has dtype {} but x.npy has {}: x, dy and dx share one dtype",
                                   a.at(n).name(), dtype_word(a.at(n).header().dtype),
                                   dtype_word(data)));
    }
  }
  for (const char* n : {"invar", "scale", "dbias", "dscale"}) {
    if (a.at(n).header().dtype != stats) {
      throw InputError(
          fmt::format("{} has dtype {} but mean.npy has {}: mean, invar, scale, dbias and dscale "
                      "share one dtype",
                      a.at(n).name(), dtype_word(a.at(n).header().dtype), dtype_word(stats)));
    }
  }
  const std::optional<Combo> combo = combo_of(data, stats);
  if (!combo) {
    throw InputError(
        fmt::format("data {} with statistics {} is no type combination of SPEC §1: fp is '<f4' "
                    "throughout, hp '<f2' throughout, mp '<f2' x/dy/dx with '<f4' statistics",
                    dtype_word(data), dtype_word(stats)));
  }
  const auto& have = prop::combos(tgt);
  if (std::find(have.begin(), have.end(), *combo) == have.end()) {
    throw InputError(
        fmt::format("{} has no {} kernel (the files' dtypes say {}; the registry gives it {})",
                    target, combo_name(*combo), combo_name(*combo), combo_list(have)));
  }
  return *combo;
}

// The report and certificate of a judged dump, and the line on stderr.
int write_check(const CheckOptions& o, ArrayCheck& check, const DumpArrays& a,
                const DumpShape& shape) {
  check.tally.calls["files in " + o.dir.string()] = 1;
  const json run = array_check_run(check, a, shape, o.dir.string(), o.alpha.has_value());
  const std::int64_t outputs = run["outputs"].get<std::int64_t>();
  std::vector<KernelTally> kernels;
  kernels.push_back(std::move(check.tally));
  const json report = write_report(o.out, run, kernels);
  const bool pass = write_certificate(o.out, {report});
  const json& v = report["verdict"];
  fmt::print(
      stderr, "bngcert: check {}{} — {} outputs of {} judged at α = {}, {} failed; wrote {}/\n",
      pass ? "PASS" : "FAIL", v["is_release_verdict"].get<bool>() ? "" : " (NOT a release verdict)",
      outputs, kernels[0].kernel.name(), hex_double(kernels[0].kernel.alpha),
      v["failed_outputs"].get<std::int64_t>(), o.out.string());
  if (!v["is_release_verdict"].get<bool>()) {
    fmt::print(stderr, "bngcert: check: {}\n", v["release_note"].get<std::string>());
  }
  // At the α judged: --alpha asks whether the outputs pass at that α.
  return pass ? kExitPass : kExitFail;
}

}  // namespace

int run_check(const CheckOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const std::string started = utc_now();
  require_dump_dir(o.dir);  // a mistyped --dir first, before anything it lacks
  prepare_output_dir(o.out);

  // The call: flags, then params.json. α is not read from there (dump_params.hpp).
  const DumpParams params = resolve_dump_params(o);
  for (const std::string& note : params.notes) fmt::print(stderr, "bngcert: check: {}\n", note);
  const prop::Target tgt = params.target;
  const int is_train = params.is_train;
  const DumpArrays a = read_dump_arrays(o);
  const Combo combo = dump_combo(a, tgt);

  // Shapes: x is [batch, channel] or [N, H, W, channel] (batch = N·H·W).
  const CallSize size = check_dump_shapes(a, o.dir, params.batch, params.channel);

  const DumpShape shape{combo, size.batch, size.channel, is_train};
  const std::int64_t width = block_width(shape, o.block_elements);
  const std::int64_t blocks = (size.channel + width - 1) / width;
  ArrayCheck check;
  try {
    Progress progress("check", blocks, o.progress);
    check = judge_arrays(a, tgt, shape,
                         {o.alpha, o.block_elements, o.jobs, false, &progress, o.reference});
  } catch (const std::bad_alloc&) {
    throw InputError(
        out_of_memory(o, shape, width, std::min<std::int64_t>(check_jobs(o.jobs), blocks)));
  }
  check.start = start;  // the run began with reading the files, not with judging them
  check.started_utc = started;
  return write_check(o, check, a, shape);
}

}  // namespace bng::cert
