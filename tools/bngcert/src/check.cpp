// `bngcert check`: judges outputs computed elsewhere (a dump from a target's
// hardware) against the exact reference. Each file is read whole, once
// (input_file.hpp), and judged a block of channels at a time (dump_judge.hpp),
// so the reference's working set stays bounded however large the call was,
// and the blocks are judged on every core.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "bng/reference/reference.hpp"
#include "case_files.hpp"
#include "certificate.hpp"
#include "cli.hpp"
#include "dump_judge.hpp"
#include "json_input.hpp"
#include "report.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

json read_params(const std::filesystem::path& p) {
  json j = read_json_file(p, kMaxSmallJsonBytes);
  if (!j.is_object()) throw InputError(fmt::format("{}: expected a JSON object", p.string()));
  return j;
}

template <typename T>
std::optional<T> param(const json& j, const char* key, const std::filesystem::path& file) {
  if (!j.contains(key)) return std::nullopt;
  try {
    return j.at(key).get<T>();
  } catch (const json::exception&) {
    throw InputError(
        fmt::format("{}: '{}' has the wrong type ({})", file.string(), key, j.at(key).dump()));
  }
}

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

}  // namespace

int run_check(const CheckOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const std::string started = utc_now();
  prepare_output_dir(o.out);

  // Parameters: params.json, then flags.
  json params = json::object();
  std::filesystem::path params_file = o.params.value_or(o.dir / "params.json");
  if (o.params || std::filesystem::exists(params_file)) params = read_params(params_file);
  std::optional<std::int64_t> batch =
      o.batch ? o.batch : param<std::int64_t>(params, "batch", params_file);
  std::optional<std::int64_t> channel =
      o.channel ? o.channel : param<std::int64_t>(params, "channel", params_file);
  std::optional<int> is_train =
      o.is_train ? o.is_train : param<int>(params, "is_train", params_file);
  std::optional<std::string> target =
      o.target ? o.target : param<std::string>(params, "target", params_file);
  std::optional<double> alpha = o.alpha ? o.alpha : param<double>(params, "alpha", params_file);
  if (!is_train || (*is_train != 0 && *is_train != 1)) {
    throw InputError("is_train (0 or 1) is needed: give --is-train or 'is_train' in params.json");
  }
  const std::optional<prop::Target> found = target ? prop::find_target(*target) : std::nullopt;
  if (!found) {
    throw InputError(
        fmt::format("the target that produced the outputs ({}) is needed: give --target or "
                    "'target' in params.json",
                    prop::target_names(" or ")));
  }
  const prop::Target tgt = *found;

  // The eight arrays.
  DumpArrays a;
  for (std::string_view n : kInputNames)
    a.emplace(n, npy::Array::open(o.dir / (std::string(n) + ".npy")));
  for (std::string_view n : kOutputNames)
    a.emplace(n, npy::Array::open(o.dir / (std::string(n) + ".npy")));

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
                    *target, combo_name(*combo), combo_name(*combo), combo_list(have)));
  }

  // Shapes: x is [batch, channel] or [N, H, W, channel] (batch = N·H·W).
  const npy::Header& xh = a.at("x").header();
  if (!channel) {
    if (xh.shape.empty())
      throw InputError(fmt::format("{}: a scalar; expected [batch, channel]", a.at("x").name()));
    channel = xh.shape.back();
  }
  if (*channel < 1) throw InputError(fmt::format("channel must be at least 1, not {}", *channel));
  if (!batch) batch = xh.elements() / *channel;
  if (*batch < 1) throw InputError(fmt::format("batch must be at least 1, not {}", *batch));
  if (xh.elements() != *batch * *channel || (xh.shape.size() >= 2 && xh.shape.back() != *channel)) {
    throw InputError(fmt::format("{} has shape {} but batch = {} and channel = {} need [{}, {}]",
                                 a.at("x").name(), xh.shape_string(), *batch, *channel, *batch,
                                 *channel));
  }
  for (const char* n : {"dy", "dx"}) {
    if (a.at(n).header().shape != xh.shape) {
      throw InputError(fmt::format("{} has shape {} but x.npy has {}", a.at(n).name(),
                                   a.at(n).header().shape_string(), xh.shape_string()));
    }
  }
  for (const char* n : {"mean", "invar", "scale", "dbias", "dscale"}) {
    const auto& s = a.at(n).header().shape;
    if (s.size() != 1 || s[0] != *channel) {
      throw InputError(fmt::format("{} has shape {} but channel = {} needs ({},)", a.at(n).name(),
                                   a.at(n).header().shape_string(), *channel, *channel));
    }
  }

  KernelTally tally;
  const double declared = prop::declared_alpha(tgt, *combo);
  tally.kernel = {tgt, *combo, alpha.value_or(declared)};
  if (!(tally.kernel.alpha >= 0)) throw InputError("alpha must be a non-negative number");
  tally.cases = 1;
  tally.calls["files in " + o.dir.string()] = 1;

  const DumpShape shape{*combo, *batch, *channel, *is_train};
  const std::int64_t width = block_width(shape, o.block_elements);
  const std::int64_t blocks = (*channel + width - 1) / width;
  const int jobs =
      o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  {
    Progress progress("check", blocks, o.progress);
    Origin origin;
    origin.family = "input";
    judge_dump(a, shape, origin, 0, o.block_elements, jobs, tally, &progress);
  }

  json inputs = json::object();
  for (const auto& [name, arr] : a) {
    inputs[name] = {{"path", arr.name()},
                    {"dtype", npy::descr(arr.header().dtype)},
                    {"shape", arr.header().shape}};
  }
  std::int64_t outputs = 0;
  for (const auto& ot : tally.outputs) outputs += ot.all.outputs;
  const json run = {
      {"kind", "check"},
      {"input_dir", o.dir.string()},
      {"inputs", inputs},
      {"batch", *batch},
      {"channel", *channel},
      {"is_train", *is_train},
      {"mode", mode_name(*is_train)},
      {"target", *target},
      {"combo", combo_name(*combo)},
      {"kernel", tally.kernel.name()},
      {"alpha", tally.kernel.alpha},
      {"alpha_hex", hex_double(tally.kernel.alpha)},
      {"declared_alpha", declared},
      {"alpha_source", o.alpha                    ? "--alpha"
                       : params.contains("alpha") ? "params.json"
                                                  : "declared"},
      {"blocks", blocks},
      {"jobs", jobs},
      {"started_utc", started},
      {"duration_s",
       std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()},
      {"cases", 1},
      {"outputs", outputs}};
  std::vector<KernelTally> kernels;
  kernels.push_back(std::move(tally));
  const json report = write_report(o.out, run, kernels);
  const bool pass = write_certificate(o.out, {report});
  const json& v = report["verdict"];
  fmt::print(
      stderr,
      "bngcert: check {} — {} outputs of {} judged at α = {}, {} beyond the bound; wrote {}/\n",
      pass ? "PASS" : "FAIL", outputs, kernels[0].kernel.name(),
      hex_double(kernels[0].kernel.alpha), v["failed_outputs"].get<std::int64_t>(), o.out.string());
  return pass ? kExitPass : kExitFail;
}

}  // namespace bng::cert
