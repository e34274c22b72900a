#!/usr/bin/env python3
"""scripts/perf_table.py on synthetic benchmark files: several processes'
repetitions are pooled before the median is taken, the statistic line says
how many processes, and an unreadable file is refused with its name.

Usage: perf_table_test.py PATH/TO/perf_table.py
"""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

TOOL = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), "..", "..", "scripts", "perf_table.py")
spec = importlib.util.spec_from_file_location("perf_table", TOOL)
perf_table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(perf_table)

GB = 1e9


def repetition(name, gbps):
  # One per-repetition row as bng_bench_kernels --benchmark_out writes it
  # (1 MiB moved per call: the time follows from the rate).
  return {"name": name + "/real_time", "run_name": name + "/real_time", "run_type": "iteration",
          "bytes_per_second": gbps * GB, "items_per_second": gbps * GB / 12,
          "real_time": 1048576 / (gbps * GB) * 1e6, "cpu_time": 1048576 / (gbps * GB) * 1e6,
          "time_unit": "us", "label": "mask 0x1"}


def process_file(directory, index, fp_s, onednn, load=0.1):
  rows = [repetition("fp_s/256x1024/t1/train", v) for v in fp_s]
  rows += [repetition("onednn_nhwc/256x1024/t1/train", v) for v in onednn]
  doc = {"context": {"date": "2026-12-02", "num_cpus": 2, "load_avg": [load, load, load]},
         "benchmarks": rows}
  path = os.path.join(directory, f"p{index}.json")
  with open(path, "w", encoding="utf-8") as f:
    json.dump(doc, f)
  return path


class Pooling(unittest.TestCase):

  def test_repetitions_of_all_processes_make_one_median(self):
    with tempfile.TemporaryDirectory() as d:
      # Process 1 is slow for fp_s, process 2 fast: pooled, the median of six.
      a = process_file(d, 1, fp_s=[10, 11, 12], onednn=[20, 20, 20])
      b = process_file(d, 2, fp_s=[40, 41, 42], onednn=[20, 20, 20])
      results, context = perf_table.load_all([a, b])
      key = ("fp_s", 256, 1024, 1, "train")
      self.assertEqual(len(results[key].bps), 6)
      self.assertAlmostEqual(perf_table.pick(results[key].bps, "median"), 26 * GB)
      self.assertAlmostEqual(perf_table.pick(results[key].bps, "best"), 42 * GB)
      self.assertEqual(context["processes"], 2)
      table = perf_table.build(results, context, "median")
      self.assertIn("of 2 processes, pooled", table)
      self.assertIn("| 256×1024 | 1 | 1 | train | 26.00 |", table)
      self.assertIn("| 1.30× |", table)  # 26 / 20 against oneDNN nhwc

  def test_the_worst_starting_load_is_kept(self):
    with tempfile.TemporaryDirectory() as d:
      a = process_file(d, 1, fp_s=[10], onednn=[10], load=0.1)
      b = process_file(d, 2, fp_s=[10], onednn=[10], load=1.9)
      _, context = perf_table.load_all([a, b])
      self.assertEqual(context["load_avg"][0], 1.9)
      self.assertIn("Warning", perf_table.build(*perf_table.load_all([a, b]), "median"))

  def test_one_file_reads_as_before(self):
    with tempfile.TemporaryDirectory() as d:
      a = process_file(d, 1, fp_s=[10, 30, 20], onednn=[20])
      results, context = perf_table.load_all([a])
      self.assertEqual(context["processes"], 1)
      table = perf_table.build(results, context, "median")
      self.assertNotIn("pooled", table)
      self.assertIn("| 256×1024 | 1 | 1 | train | 20.00 |", table)


class BadInput(unittest.TestCase):

  def run_tool(self, *paths):
    return subprocess.run([sys.executable, TOOL, *paths], capture_output=True, text=True,
                          check=False)

  def test_unreadable_and_malformed_files_are_refused_by_name(self):
    with tempfile.TemporaryDirectory() as d:
      good = process_file(d, 1, fp_s=[10], onednn=[10])
      broken = os.path.join(d, "broken.json")
      with open(broken, "w", encoding="utf-8") as f:
        f.write('{"benchmarks": [')
      listed = os.path.join(d, "list.json")
      with open(listed, "w", encoding="utf-8") as f:
        f.write("[1, 2]")
      for bad in (broken, listed, os.path.join(d, "missing.json")):
        run = self.run_tool(good, bad)
        self.assertNotEqual(run.returncode, 0, bad)
        self.assertIn(bad, run.stderr)
        self.assertNotIn("Traceback", run.stderr)


if __name__ == "__main__":
  unittest.main()
