"""What batchnormgrad.judge returns: the verdict, per-output figures and the report.

The figures are read from the report bngcert would write (report.json: its
schema is docs/report-format.md), so the Python face and the CLI cannot disagree;
the failing indices, which no report lists whole, come from the judge itself.
"""

import json
import math

import numpy as np


def _number(value):
    """report.json writes non-finite numbers as the strings "inf", "-inf", "nan"."""
    return float(value)


class OutputJudgement:
    """How one output (dx, dscale or dbias) fared.

    outputs, fails: how many were judged, how many failed their kernel's
    criterion (beyond the bound, or not RN(y*) where the kernel declares correct
    rounding). max_ulp_error, max_normalised_error, max_bound_use: the worst of
    each (bound use ≤ 1 passes the bound). correctly_rounded_share: the share of outputs with a
    finite result that equal RN(y*). metrics: the golden-data figures (cosine
    similarity, maximum absolute and relative error, ...). failing: flat indices
    of the failing outputs (np.unravel_index(failing, shape) for positions).
    nonfinite_where_finite: outputs that are NaN or ±Inf where RN(y*) is finite.
    """

    def __init__(self, name, entry, failing, nonfinite_where_finite, shape):
        stats = entry["stats"]
        self.name = name
        self.shape = shape
        self.outputs = stats["outputs"]
        self.fails = stats["fails"]
        self.max_ulp_error = _number(stats["max_ulp_error"])
        self.max_normalised_error = _number(stats["max_normalised_error"])
        self.max_bound_use = _number(stats["max_bound_use"])
        self.metrics = entry["metrics"]
        counts = stats["metrics"]
        compared = counts["compared"]
        self.correctly_rounded_share = (counts["correctly_rounded"] / compared if compared
                                        else math.nan)
        self.failing = failing
        self.nonfinite_where_finite = nonfinite_where_finite

    @property
    def passed(self):
        return self.fails == 0

    def __repr__(self):
        return (f"<{self.name}: {self.outputs} outputs, {self.fails} failing, max bound use "
                f"{self.max_bound_use:.3g}, {100 * self.correctly_rounded_share:.1f} % correctly "
                "rounded>")


class Judgement:
    """The verdict on one call's outputs. ``report`` is report.json as a dict."""

    def __init__(self, core, call):
        self._core = core
        self.report = json.loads(core.report())
        kernel = self.report["kernels"][0]
        shapes = {"dx": call.data_shape, "dscale": (call.channel,), "dbias": (call.channel,)}
        for name, shape in shapes.items():
            entry = kernel["outputs"][name]
            setattr(self, name, OutputJudgement(name, entry, np.asarray(core.failing(name)),
                                                core.nonfinite_where_finite(name), shape))

    @property
    def passed(self):
        """True when every output lies within the bound (and no call error was recorded)."""
        return bool(self._core.passed)

    def write_report(self, directory):
        """report.json, report.md, report.html, reproducers and the certificate into
        ``directory`` (created if needed), exactly as ``bngcert check`` writes them."""
        self._core.write_report(str(directory))

    def __repr__(self):
        verdict = "PASS" if self.passed else "FAIL"
        return f"<Judgement {verdict}: {self.dx!r}, {self.dscale!r}, {self.dbias!r}>"
