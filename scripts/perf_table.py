#!/usr/bin/env python3
"""Turns bng_bench_kernels JSON output into the tables of docs/performance.md.

Usage:
  perf_table.py RESULTS.json [MORE.json ...] [--statistic median|best] [--update docs/performance.md]

Several files are several processes of the same benchmark (scripts/bench.sh
runs three): their repetitions are pooled, so that no single process decides
a row (docs/performance.md, "Noise"). Without --update the markdown goes to
stdout. With it, the text between the markers <!-- perf-table:begin --> and
<!-- perf-table:end --> of that file is replaced. Throughputs come from the per-repetition rows (median, or the best
repetition with --statistic best); a file holding only aggregates
(--benchmark_report_aggregates_only) falls back to its median rows.
Standard library only.
"""

import argparse
import json
import math
import re
import statistics
import sys
from collections import defaultdict

NAME = re.compile(r"^(?P<comp>[a-z0-9_]+)/(?P<batch>\d+)x(?P<channel>\d+)/t(?P<threads>\d+)/"
                  r"(?P<mode>train|infer|copy)(?:/repeats:\d+)?(?:/real_time)?$")
BEGIN, END = "<!-- perf-table:begin -->", "<!-- perf-table:end -->"
LARGE_TENSOR_BYTES = 64 << 20  # issue 3: "tensors of 64 MiB and more" (one fp32 tensor)
BARS = {"per_shape": 1.0, "geomean": 1.3, "streaming": 0.8, "half_speedup": 1.6,
        "tiny_call_us": 5.0, "two_pass": 0.85}


class Result:
  def __init__(self):
    self.bps = []    # bytes_per_second per repetition
    self.ips = []    # items_per_second per repetition
    self.time_us = []
    self.cpu_us = []  # CPU time of the calling thread per call
    self.label = ""
    self.error = None


def to_us(value, unit):
  return value * {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[unit]


def load(path):
  """Returns {(comp, batch, channel, threads, mode): Result} and the context."""
  try:
    with open(path, encoding="utf-8") as f:
      doc = json.load(f)
  except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
    sys.exit(f"{path}: not a readable bng_bench_kernels JSON file ({e})")
  if not isinstance(doc, dict):
    sys.exit(f"{path}: not a bng_bench_kernels JSON file (no top-level object)")
  rows = doc.get("benchmarks", [])
  have_iterations = any(r.get("run_type") == "iteration" for r in rows)
  results = defaultdict(Result)
  for r in rows:
    m = NAME.match(r.get("run_name", r["name"]))
    if not m:
      continue
    if have_iterations and r.get("run_type") != "iteration":
      continue
    if not have_iterations and r.get("aggregate_name") != "median":
      continue
    key = (m["comp"], int(m["batch"]), int(m["channel"]), int(m["threads"]), m["mode"])
    res = results[key]
    if r.get("error_occurred"):
      res.error = r.get("error_message", "error")
      continue
    res.bps.append(r["bytes_per_second"])
    res.ips.append(r["items_per_second"])
    res.time_us.append(to_us(r["real_time"], r["time_unit"]))
    res.cpu_us.append(to_us(r["cpu_time"], r["time_unit"]))
    res.label = r.get("label", "")
  return results, doc.get("context", {})


def load_all(paths):
  """load() of each file, the repetitions of a benchmark pooled over the files;
  the first file's context, with "processes" = the number of files and the
  highest load average any of them started with."""
  pooled = defaultdict(Result)
  context = {}
  for path in paths:
    results, ctx = load(path)
    for key, res in results.items():
      into = pooled[key]
      into.bps += res.bps
      into.ips += res.ips
      into.time_us += res.time_us
      into.cpu_us += res.cpu_us
      into.label = into.label or res.label
      into.error = into.error or res.error
    if not context:
      context = dict(ctx)
    elif ctx.get("load_avg") and (context.get("load_avg") or [0])[0] < ctx["load_avg"][0]:
      context["load_avg"] = ctx["load_avg"]
  context["processes"] = len(paths)
  return pooled, context


def pick(values, stat):
  if not values:
    return None
  return statistics.median(values) if stat == "median" else max(values)


def pick_time(values, stat):
  if not values:
    return None
  return statistics.median(values) if stat == "median" else min(values)


def gb(v):
  return "—" if v is None else f"{v / 1e9:.2f}"


def ratio(a, b):
  return None if a is None or b is None or b == 0 else a / b


def fmt_ratio(r):
  return "—" if r is None else f"{r:.2f}×"


def fmt_pct(r):
  return "—" if r is None else f"{100 * r:.0f}%"


def shape_mib(batch, channel):
  return batch * channel * 4 / (1 << 20)


def build(results, context, stat, bars_only=False, revision=None, clock="real"):
  """Markdown for one statistic. clock="cpu" rates each call by the calling
  thread's CPU time instead of wall-clock time, and keeps one-thread rows
  only: time spent preempted by other processes does not count there, which
  makes it the figure to trust on a loaded machine (with two threads the
  caller's CPU time misses the other thread's work, so it means nothing)."""
  threads = (1,) if clock == "cpu" else (1, 2)

  def rates(res, values):
    if clock == "real":
      return values
    return [v * w / c for v, w, c in zip(values, res.time_us, res.cpu_us) if c > 0]

  def thr(comp, b, c, t, mode):
    res = results.get((comp, b, c, t, mode))
    return None if res is None or res.error else pick(rates(res, res.bps), stat)

  def limit(comp, b, c, t, mode="copy"):
    # The limit for a caller allowed t cores is the best the streaming kernel
    # does on at most t threads: on tiny shapes one thread beats the cost of
    # waking a second one, and a limit must not be the slower of the two.
    found = [v for u in range(1, t + 1) if (v := thr(comp, b, c, u, mode)) is not None]
    return max(found) if found else None

  def items(comp, b, c, t, mode):
    res = results.get((comp, b, c, t, mode))
    return None if res is None or res.error else pick(rates(res, res.ips), stat)

  shapes = sorted({(k[1], k[2]) for k in results},
                  key=lambda s: (s[0] * s[1], s[1]))
  # Keep the sweep's own order (issue 3) when every shape of it is present.
  order = [(4, 64), (64, 256), (256, 1024), (1024, 1024), (4096, 1024), (65536, 64),
           (1048576, 4), (16384, 4096), (256, 65536)]
  shapes = [s for s in order if s in shapes] + [s for s in shapes if s not in order]
  out = []
  ctx = [f"{k}={context[k]}" for k in ("date", "host_name", "num_cpus", "bng_isa", "onednn_version")
         if k in context]
  if "load_avg" in context:
    ctx.append("load_avg=" + "/".join(f"{x:.2f}" for x in context["load_avg"]))
  if revision:
    ctx.append(f"revision={revision}")
  if not bars_only:
    processes = context.get("processes", 1)
    pooled = f" of {processes} processes, pooled" if processes > 1 else ""
    out.append(f"Statistic: **{stat}** of the repetitions{pooled}. Run: " + ", ".join(ctx) + ".")
    out.append("")
    load1, cpus = (context.get("load_avg") or [0])[0], context.get("num_cpus", 0)
    if cpus and load1 > 0.5 * cpus:
      out.append(f"**Warning:** the run started with a load average of {load1:.1f} on {cpus} "
                 "CPUs. Other processes held the cores: wall-clock figures are low and noisy, "
                 "and two-thread rows (whose barriers wait for a preempted thread) can be off "
                 "by orders of magnitude. Trust the CPU-time section at the end for the "
                 "one-thread comparisons.")
      out.append("")

  # ---- fp32: ours against oneDNN and the limit
  out.append("### fp32: ours vs oneDNN vs the streaming limit (GB/s of compulsory bytes)")
  out.append("")
  out.append("| shape | MiB/tensor | thr | mode | fp_s | fp_p | oneDNN nhwc | oneDNN nc | stream | "
             "stream2 | fp_s/nhwc | fp_s/nc | fp_s/stream | fp_s/stream2 |")
  out.append("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
  vs_nhwc = []  # (shape, threads, mode, ratio)
  vs_stream = []
  vs_two_pass = []  # training rows of large tensors against the two-pass limit
  impls = defaultdict(set)
  for (b, c) in shapes:
    for t in threads:
      for mode in ("train", "infer"):
        fs = thr("fp_s", b, c, t, mode)
        fp = thr("fp_p", b, c, t, mode) if t == 1 else None
        nhwc = thr("onednn_nhwc", b, c, t, mode)
        nc = thr("onednn_nc", b, c, t, mode)
        st = limit("stream_f32", b, c, t)
        # The two-pass limit applies to training (full-batch sums before any dx).
        st2 = limit("stream2_f32", b, c, t, "train") if mode == "train" else None
        if all(v is None for v in (fs, nhwc, nc, st)):
          continue
        for comp in ("onednn_nhwc", "onednn_nc"):
          res = results.get((comp, b, c, t, mode))
          if res is not None and res.label:
            impls[(comp, res.label)].add(f"{b}×{c}")
        r_nhwc = ratio(fs, nhwc)
        if r_nhwc is not None:
          vs_nhwc.append(((b, c), t, mode, r_nhwc))
        if shape_mib(b, c) * (1 << 20) >= LARGE_TENSOR_BYTES:
          vs_stream.append(((b, c), t, mode, ratio(fs, st)))
          if mode == "train" and st2 is not None:
            vs_two_pass.append(((b, c), t, mode, ratio(fs, st2)))
        out.append(f"| {b}×{c} | {shape_mib(b, c):.3g} | {t} | {mode} | {gb(fs)} | {gb(fp)} | "
                   f"{gb(nhwc)} | {gb(nc)} | {gb(st)} | {gb(st2)} | {fmt_ratio(r_nhwc)} | "
                   f"{fmt_ratio(ratio(fs, nc))} | {fmt_pct(ratio(fs, st))} | "
                   f"{fmt_pct(ratio(fs, st2))} |")
  out.append("")
  if impls:
    out.append("oneDNN implementations that ran (`impl_info_str()`):")
    out.append("")
    for (comp, label), where in sorted(impls.items()):
      shapes_txt = "every shape" if len(where) == len(shapes) else ", ".join(sorted(where))
      out.append(f"- `{comp}`: `{label}` ({shapes_txt})")
    out.append("")

  # ---- binary16 data: hp and mp against fp
  out.append("### binary16 data: hp_s and mp_s (element throughput relative to fp_s)")
  out.append("")
  out.append("| shape | thr | mode | hp_s GB/s | mp_s GB/s | stream16 GB/s | hp/fp elements | "
             "mp/fp elements | hp/stream16 | mp/stream16 |")
  out.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
  half_header = len(out)
  half_large = []
  for (b, c) in shapes:
    for t in threads:
      for mode in ("train", "infer"):
        hp, mp = thr("hp_s", b, c, t, mode), thr("mp_s", b, c, t, mode)
        st16 = limit("stream_f16", b, c, t)
        fi = items("fp_s", b, c, t, mode)
        hr = ratio(items("hp_s", b, c, t, mode), fi)
        mr = ratio(items("mp_s", b, c, t, mode), fi)
        if hp is None and mp is None:
          continue
        if shape_mib(b, c) * (1 << 20) >= LARGE_TENSOR_BYTES:
          half_large.append(((b, c), t, mode, hr, mr))
        out.append(f"| {b}×{c} | {t} | {mode} | {gb(hp)} | {gb(mp)} | {gb(st16)} | "
                   f"{fmt_ratio(hr)} | {fmt_ratio(mr)} | {fmt_pct(ratio(hp, st16))} | "
                   f"{fmt_pct(ratio(mp, st16))} |")
  if len(out) == half_header:  # no binary16 results in this run
    del out[half_header - 4:]
  else:
    out.append("")

  # ---- the bars of issue 3
  if bars_only:
    out = []
  if clock == "cpu":
    out.append("### One-thread ratios rated by the caller's CPU time (median)")
    out.append("")
    out.append("| shape | mode | fp_s/nhwc | fp_s/stream | hp/fp elements | mp/fp elements |")
    out.append("|---|---|---:|---:|---:|---:|")
    for (b, c) in shapes:
      for mode in ("train", "infer"):
        fs = thr("fp_s", b, c, 1, mode)
        fi = items("fp_s", b, c, 1, mode)
        if fs is None:
          continue
        out.append(f"| {b}×{c} | {mode} | {fmt_ratio(ratio(fs, thr('onednn_nhwc', b, c, 1, mode)))} | "
                   f"{fmt_pct(ratio(fs, limit('stream_f32', b, c, 1)))} | "
                   f"{fmt_ratio(ratio(items('hp_s', b, c, 1, mode), fi))} | "
                   f"{fmt_ratio(ratio(items('mp_s', b, c, 1, mode), fi))} |")
    out.append("")
  title = "The bars of issue 3"
  if stat != "median":
    title += f" (judged on the {stat} repetition)"
  if clock == "cpu":
    title += " (one-thread rows, rated by the caller's CPU time)"
  out.append(f"### {title}")
  out.append("")
  out.append("| bar | measured | verdict |")
  out.append("|---|---|---|")

  def where(entry):
    (b, c), t, mode = entry[0], entry[1], entry[2]
    return f"{b}×{c} t{t} {mode}"

  losers = [e for e in vs_nhwc if e[3] < BARS["per_shape"]]
  if vs_nhwc:
    worst = min(vs_nhwc, key=lambda e: e[3])
    detail = (f"{len(vs_nhwc) - len(losers)}/{len(vs_nhwc)} rows ≥ 1.0×; worst "
              f"{worst[3]:.2f}× ({where(worst)})")
    if losers:
      detail += "; below: " + ", ".join(f"{where(e)} {e[3]:.2f}×"
                                        for e in sorted(losers, key=lambda e: e[3]))
    out.append(f"| fp_s ≥ 1.0× oneDNN nhwc on every shape, thread count and mode | {detail} | "
               f"{'PASS' if not losers else 'FAIL'} |")
    geo = math.exp(sum(math.log(e[3]) for e in vs_nhwc) / len(vs_nhwc))
    parts = []
    for t in threads:
      for mode in ("train", "infer"):
        sub = [e[3] for e in vs_nhwc if e[1] == t and e[2] == mode]
        if sub:
          parts.append(f"t{t} {mode} {math.exp(sum(map(math.log, sub)) / len(sub)):.2f}×")
    out.append(f"| geomean fp_s/oneDNN nhwc ≥ 1.3× over the sweep | {geo:.2f}× over "
               f"{len(vs_nhwc)} rows ({'; '.join(parts)}) | "
               f"{'PASS' if geo >= BARS['geomean'] else 'FAIL'} |")
  else:
    out.append("| fp_s vs oneDNN nhwc | no paired results | NOT MEASURED |")
  if vs_stream:
    bad = [e for e in vs_stream if e[3] is None or e[3] < BARS["streaming"]]
    detail = ", ".join(f"{where(e)} {fmt_pct(e[3])}" for e in vs_stream)
    out.append(f"| fp_s ≥ 80% of streaming, tensors ≥ 64 MiB | {detail} | "
               f"{'PASS' if not bad else 'FAIL'} |")
  else:
    out.append("| fp_s ≥ 80% of streaming, tensors ≥ 64 MiB | no large shape measured | "
               "NOT MEASURED |")
  if vs_two_pass:
    bad = [e for e in vs_two_pass if e[3] is None or e[3] < BARS["two_pass"]]
    detail = ", ".join(f"{where(e)} {fmt_pct(e[3])}" for e in vs_two_pass)
    out.append(f"| fp_s training ≥ 85% of the two-pass streaming kernel, tensors ≥ 64 MiB | "
               f"{detail} | {'PASS' if not bad else 'FAIL'} |")
  else:
    out.append("| fp_s training ≥ 85% of two-pass streaming | no large shape measured | "
               "NOT MEASURED |")
  if half_large:
    bad = [e for e in half_large
           if e[3] is None or e[4] is None or min(e[3], e[4]) < BARS["half_speedup"]]
    detail = ", ".join(f"{where(e)} hp {fmt_ratio(e[3])} mp {fmt_ratio(e[4])}"
                       for e in half_large)
    out.append(f"| hp_s and mp_s ≥ 1.6× fp_s elements/s, tensors ≥ 64 MiB | {detail} | "
               f"{'PASS' if not bad else 'FAIL'} |")
  else:
    out.append("| hp_s and mp_s ≥ 1.6× fp_s elements/s | no large shape measured | "
               "NOT MEASURED |")
  tiny = []
  for t in threads:
    for mode in ("train", "infer"):
      res = results.get(("fp_s", 4, 64, t, mode))
      if res is not None and not res.error and res.time_us:
        tiny.append((t, mode, pick_time(res.time_us if clock == "real" else res.cpu_us, stat)))
  if tiny:
    worst = max(v for _, _, v in tiny)
    detail = ", ".join(f"t{t} {mode} {v:.2f} µs" for t, mode, v in tiny)
    out.append(f"| a 4×64 call costs a few µs (read: ≤ {BARS['tiny_call_us']:.0f} µs) | {detail} | "
               f"{'PASS' if worst <= BARS['tiny_call_us'] else 'FAIL'} |")
  errors = sorted((k, r.error) for k, r in results.items() if r.error)
  if errors:
    out.append("")
    out.append("Benchmarks that reported an error:")
    out.append("")
    for k, e in errors:
      out.append(f"- `{k[0]}/{k[1]}x{k[2]}/t{k[3]}/{k[4]}`: {e}")
  return "\n".join(out) + "\n"


def update(path, table):
  with open(path, encoding="utf-8") as f:
    text = f.read()
  start, end = text.find(BEGIN), text.find(END)
  if start < 0 or end < start:
    sys.exit(f"{path}: markers {BEGIN} ... {END} not found")
  text = text[:start + len(BEGIN)] + "\n" + table + text[end:]
  with open(path, "w", encoding="utf-8") as f:
    f.write(text)


def main():
  ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  ap.add_argument("results", nargs="+",
                  help="JSON written by bng_bench_kernels --benchmark_out=... (one per process)")
  ap.add_argument("--statistic", choices=("median", "best"), default="median")
  ap.add_argument("--update", metavar="MARKDOWN", help="replace the table inside this file")
  ap.add_argument("--revision", help="source revision measured, shown with the run context")
  args = ap.parse_args()
  results, context = load_all(args.results)
  if not results:
    sys.exit(f"{' '.join(args.results)}: no bng_bench_kernels results in them")
  table = build(results, context, args.statistic, revision=args.revision)
  if args.statistic == "median":
    # The machine is shared: the best repetition shows what the code can do
    # when nothing else runs, so noise and real shortfalls can be told apart.
    table += "\n" + build(results, context, "best", bars_only=True)
    table += "\n" + build(results, context, "median", bars_only=True, clock="cpu")
  if args.update:
    update(args.update, table)
  else:
    sys.stdout.write(table)


if __name__ == "__main__":
  main()
