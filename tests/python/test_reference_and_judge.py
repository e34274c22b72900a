"""batchnormgrad.reference is the exact result rounded once; batchnormgrad.judge is
`bngcert check`."""

import json
import subprocess
from fractions import Fraction

import numpy as np
import pytest

import batchnormgrad as bng
from conftest import random_call

FORMATS = {np.dtype(np.float32): (24, -126, 128), np.dtype(np.float16): (11, -14, 16)}


def round_to_format(value, dtype):
    """An exact rational rounded to nearest, ties to even, into binary32 or binary16
    (written here from the definition, independently of the project's rounding code)."""
    precision, emin, emax = FORMATS[np.dtype(dtype)]
    if value == 0:
        return dtype(0.0)
    sign, magnitude = (-1 if value < 0 else 1), abs(value)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    quantum = Fraction(2) ** (max(exponent, emin) - precision + 1)
    units, remainder = divmod(magnitude, quantum)
    if remainder * 2 > quantum or (remainder * 2 == quantum and units % 2 == 1):
        units += 1
    rounded = units * quantum
    if rounded >= Fraction(2) ** emax:
        return dtype(sign * np.inf)
    return dtype(sign * float(rounded))


def exact_outputs(x, dy, mean, invar, scale, train):
    """SPEC §1 in exact rational arithmetic."""
    rows, channel = x.reshape(-1, x.shape[-1]), x.shape[-1]
    dyr = dy.reshape(rows.shape)
    m = rows.shape[0]
    dx = np.empty(rows.shape, x.dtype)
    dscale = np.empty(channel, mean.dtype)
    dbias = np.empty(channel, mean.dtype)
    for c in range(channel):
        mu, iv, sc = Fraction(float(mean[c])), Fraction(float(invar[c])), Fraction(float(scale[c]))
        xhat = [(Fraction(float(v)) - mu) * iv for v in rows[:, c]]
        g = [Fraction(float(v)) for v in dyr[:, c]]
        db = sum(g)
        ds = sum(gi * xi for gi, xi in zip(g, xhat))
        dbias[c] = round_to_format(db, mean.dtype.type)
        dscale[c] = round_to_format(ds, mean.dtype.type)
        for n in range(m):
            value = (sc * iv / m * (m * g[n] - db - xhat[n] * ds)) if train else sc * iv * g[n]
            dx[n, c] = round_to_format(value, x.dtype.type)
    return dx.reshape(x.shape), dscale, dbias


@pytest.mark.parametrize("data, stats", [(np.float32, np.float32), (np.float16, np.float16),
                                         (np.float16, np.float32)])
@pytest.mark.parametrize("train", [True, False])
def test_reference_is_the_exact_result_rounded_once(rng, data, stats, train):
    for shape in [(1, 1), (9, 3), (2, 3, 4)]:
        call = random_call(rng, shape, data, stats)
        got = bng.reference(*call, train=train)
        want = exact_outputs(*call, train)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("train", [True, False])
def test_both_reference_paths_agree_and_say_which_judged(rng, train):
    call = random_call(rng, (33, 5))
    tiered = bng.reference(*call, train=train)
    exact = bng.reference(*call, train=train, path="exact")
    for t, e in zip(tiered, exact):
        np.testing.assert_array_equal(t.view(np.uint8), e.view(np.uint8))
    outputs = bng.grad(*call, train=train)
    reports = {path: bng.judge(*call, *outputs, train=train, path=path).report
               for path in ("tiered", "exact")}
    for path, report in reports.items():
        assert report["run"]["reference"]["path"] == path
        assert report["run"]["reference"]["exact_fallbacks"] >= 0
    assert reports["exact"]["run"]["reference"]["exact_fallbacks"] == 0
    assert reports["tiered"]["kernels"] == reports["exact"]["kernels"]
    assert reports["tiered"]["verdict"] == reports["exact"]["verdict"]
    with pytest.raises(bng.ReferencePathError):
        bng.reference(*call, path="fast")
    with pytest.raises(bng.ReferencePathError):
        bng.judge(*call, *outputs, path="fast")


def test_reference_is_nan_where_an_input_is_not_finite(rng):
    x, dy, mean, invar, scale = random_call(rng, (8, 3))
    x[2, 0] = np.nan
    dy[4, 2] = -np.inf
    dx, dscale, dbias = bng.reference(x, dy, mean, invar, scale)
    assert np.all(np.isnan(dx[:, 0])) and np.isnan(dscale[0]) and np.isfinite(dbias[0])
    assert np.isnan(dbias[2]) and np.all(np.isfinite(dx[:, 1]))


# ---- judge: the same verdict and figures as bngcert check on the same arrays --------------

def check_with_bngcert(bngcert, tmp_path, call, outputs, train, target):
    dump = tmp_path / "dump"
    dump.mkdir()
    names = ["x", "dy", "mean", "invar", "scale", "dx", "dscale", "dbias"]
    for name, array in zip(names, list(call) + list(outputs)):
        np.save(dump / f"{name}.npy", array)
    (dump / "params.json").write_text(json.dumps({"is_train": int(train), "target": target}))
    done = subprocess.run([bngcert, "check", "--dir", str(dump), "--out", str(tmp_path / "cli")],
                          capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads((tmp_path / "cli" / "report.json").read_text())


def comparable(report):
    """What both faces must agree on: the verdict and every figure of every output."""
    kernel = report["kernels"][0]
    outputs = {}
    for name, out in kernel["outputs"].items():
        outputs[name] = dict(out)
        # Where the reproducer went: only a written report has one.
        outputs[name]["worst"] = {k: v for k, v in out["worst"].items() if k != "reproducer"}
    return {"verdict": report["verdict"], "kernel": kernel["name"], "alpha": kernel["alpha"],
            "outputs": outputs}


@pytest.mark.parametrize("data, stats, target", [(np.float32, np.float32, "ft78ne"),
                                                 (np.float16, np.float16, "mt7004"),
                                                 (np.float16, np.float32, "mt7004")])
@pytest.mark.parametrize("spoil", [False, True])
def test_judge_agrees_with_bngcert_check(rng, tmp_path, bngcert, data, stats, target, spoil):
    call = random_call(rng, (3, 40, 7), data, stats)
    dx, dscale, dbias = bng.grad(*call, target=target)
    if spoil:  # one output far off, one NaN where the result is finite
        dx = dx.copy()
        dx[1, 5, 2] = dx[1, 5, 2] * 2 + 1
        dscale = dscale.copy()
        dscale[4] = np.nan
    judged = bng.judge(*call, dx, dscale, dbias, target=target)
    exit_code, report = check_with_bngcert(bngcert, tmp_path, call, (dx, dscale, dbias), True,
                                           target)
    assert comparable(judged.report) == comparable(report)
    assert judged.passed == (exit_code == 0) == (not spoil)
    if spoil:
        assert list(judged.dx.failing) == [(1 * 40 + 5) * 7 + 2]
        assert list(judged.dscale.failing) == [4] and judged.dscale.nonfinite_where_finite == 1
        assert judged.dx.nonfinite_where_finite == 0


def test_write_report_writes_what_check_writes(rng, tmp_path, bngcert):
    call = random_call(rng, (30, 5))
    outputs = bng.grad(*call)
    judged = bng.judge(*call, *outputs)
    judged.write_report(tmp_path / "py")
    _, report = check_with_bngcert(bngcert, tmp_path, call, outputs, True, "mt7004")
    written = json.loads((tmp_path / "py" / "report.json").read_text())
    assert comparable(written) == comparable(report)
    for name in ["report.md", "report.html", "certificate.json", "certificate.md"]:
        assert (tmp_path / "py" / name).stat().st_size > 0
    verified = subprocess.run([bngcert, "verify", str(tmp_path / "py" / "certificate.json")],
                              capture_output=True, text=True, check=False)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_judge_figures(rng):
    call = random_call(rng, (64, 8))
    judged = bng.judge(*call, *bng.reference(*call))
    assert judged.passed
    for out in (judged.dx, judged.dscale, judged.dbias):
        assert out.correctly_rounded_share == 1.0 and out.max_ulp_error <= 0.5
        assert out.failing.size == 0 and 0 <= out.max_bound_use <= 1
        assert out.metrics["cosine_similarity"] == pytest.approx(1.0)


def test_judge_at_another_alpha_is_no_release_verdict(rng):
    call = random_call(rng, (16, 4))
    judged = bng.judge(*call, *bng.grad(*call), alpha=2.0**-20)
    assert judged.report["verdict"]["is_release_verdict"] is False
    with pytest.raises(bng.AlphaError):
        bng.judge(*call, *bng.grad(*call), alpha=-1.0)
    with pytest.raises(bng.AlphaError):
        bng.judge(*call, *bng.grad(*call), alpha=float("nan"))


def test_judge_refuses_outputs_of_another_shape_or_dtype(rng):
    call = random_call(rng, (16, 4))
    dx, dscale, dbias = bng.grad(*call)
    with pytest.raises(bng.ShapeError):
        bng.judge(*call, dx[:-1], dscale, dbias)
    with pytest.raises(bng.DTypeError):
        bng.judge(*call, dx.astype(np.float64), dscale, dbias)
    with pytest.raises(bng.OutputError):
        bng.judge(*call, dx, dscale, dbias).write_report("/proc/no-such-place")
