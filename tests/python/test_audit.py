"""batchnormgrad.torch.audit and ``python3 -m batchnormgrad audit``: one report folder per
batch-norm layer with its verdict, a summary listing every layer, TorchScript models, and the
CLI's exit statuses and one-line errors.

The main models: the digits network of python/examples/digits.py on real digits, whose float32
backward in PyTorch is not within 1 ulp everywhere (FAIL), and one-layer models on data chosen
so that every step of PyTorch's backward is exact (PASS): a verdict that is not a constant.
"""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import batchnormgrad
from batchnormgrad.__main__ import main
from batchnormgrad.torch import AuditError, audit

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python" / "examples"))
import digits  # noqa: E402  (the example lives outside any package)

DIGITS_LAYERS = ["1", "4", "9"]  # Sequential indices of BatchNorm2d, BatchNorm2d, BatchNorm1d


@pytest.fixture(scope="module")
def digits_batch():
    train_x, train_y, _, _ = digits.load_split()
    return train_x[:64], train_y[:64]


def digits_model():
    torch.manual_seed(0)
    return digits.build_model(use_ours=False)


class ExactStep(torch.nn.Module):
    """BatchNorm1d with eps = 0 on channels of ±1 (mean 0, variance 1: invstd = 1 exactly)
    and an MSE loss against dyadic targets over 8 elements (dy = (y - t)/4): every operation
    of PyTorch's backward is exact, so every output is the correctly rounded result."""

    def __init__(self):
        super().__init__()
        self.norm = torch.nn.BatchNorm1d(2, eps=0.0)

    def forward(self, x):
        return self.norm(x)


EXACT_INPUTS = torch.tensor([[-1.0, 1.0], [-1.0, -1.0], [1.0, 1.0], [1.0, -1.0]])
EXACT_TARGETS = torch.tensor([[0.5, -2.0], [0.25, 1.0], [-1.0, 0.75], [3.0, 0.0]])


def scripted(model):
    """The TorchScript model torch.jit.load gives for ``model``."""
    buffer = io.BytesIO()
    torch.jit.save(torch.jit.script(model), buffer)
    buffer.seek(0)
    return torch.jit.load(buffer)


def test_audit_writes_a_report_per_layer_and_a_summary(tmp_path, digits_batch):
    model = digits_model()
    before = {name: tensor.clone() for name, tensor in model.state_dict().items()}
    out = tmp_path / "audit"
    layers = audit(model, *digits_batch, torch.nn.functional.cross_entropy, out=out)

    assert [layer["layer"] for layer in layers] == DIGITS_LAYERS
    assert [layer["shape"] for layer in layers] == [[64, 16, 8, 8], [64, 32, 8, 8], [64, 64]]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["schema"] == "batchnormgrad-audit"
    assert [layer["layer"] for layer in summary["layers"]] == DIGITS_LAYERS
    assert summary["unseen_batchnorm_modules"] == []
    for layer in layers:
        report = json.loads((out / layer["report"] / "report.json").read_text())
        assert report["verdict"]["pass"] is layer["passed"]
        assert (out / layer["report"] / "certificate.json").is_file()
        kernel_outputs = report["kernels"][0]["outputs"]
        for name, use in layer["max_bound_use"].items():
            assert kernel_outputs[name]["stats"]["max_bound_use"] == pytest.approx(use)
    # PyTorch's float32 backward of a 64-image step is beyond 1 ulp + 2^-44·M somewhere.
    assert not summary["passed"] and not all(layer["passed"] for layer in layers)
    assert "[9](9/report.md)" in (out / "summary.md").read_text()

    # The caller's model is as it was: no running-statistics update, no gradients.
    after = model.state_dict()
    assert all(torch.equal(after[name], tensor) for name, tensor in before.items())
    assert all(parameter.grad is None for parameter in model.parameters())


def test_an_exact_step_passes(tmp_path):
    layers = audit(ExactStep(), EXACT_INPUTS, EXACT_TARGETS, torch.nn.functional.mse_loss,
                   out=tmp_path / "exact")
    assert [(layer["layer"], layer["passed"]) for layer in layers] == [("norm", True)]
    assert layers[0]["worst_bound_use"] == 0.0
    assert layers[0]["dx_correctly_rounded_share"] == 1.0


def test_audit_sees_every_layer_of_a_warmed_torchscript_model(tmp_path, digits_batch):
    model = scripted(digits_model())
    for _ in range(3):  # the profiling executor's runs, after which it fuses batch norm
        model(digits_batch[0])
    layers = audit(model, *digits_batch, torch.nn.functional.cross_entropy,
                   out=tmp_path / "scripted")
    assert [layer["layer"] for layer in layers] == DIGITS_LAYERS
    eager = audit(digits_model(), *digits_batch, torch.nn.functional.cross_entropy,
                  out=tmp_path / "eager")
    assert [layer["max_bound_use"] for layer in layers] == [
        layer["max_bound_use"] for layer in eager]


class Naming(torch.nn.Module):
    """One module called twice, one that cannot be recognised (no weight, no running
    statistics), one never called."""

    def __init__(self):
        super().__init__()
        self.shared = torch.nn.BatchNorm1d(2)
        self.bare = torch.nn.BatchNorm1d(2, affine=False, track_running_stats=False)
        self.unused = torch.nn.BatchNorm1d(2)

    def forward(self, x):
        return self.bare(self.shared(self.shared(x) * 2.0))


def test_layer_names_and_unseen_modules(tmp_path):
    out = tmp_path / "naming"
    layers = audit(Naming(), EXACT_INPUTS, EXACT_TARGETS, torch.nn.functional.mse_loss, out=out)
    assert [layer["layer"] for layer in layers] == ["shared", "shared_call2", "batchnorm2"]
    assert [layer["judged_outputs"] for layer in layers] == [
        ["dx", "dscale", "dbias"], ["dx", "dscale", "dbias"], ["dx"]]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["unseen_batchnorm_modules"] == ["unused"]
    assert sorted(path.name for path in out.iterdir() if path.is_dir()) == [
        "batchnorm2", "shared", "shared_call2"]


class FrozenStatistics(torch.nn.Module):
    """A model whose train() keeps its batch norm in eval mode (frozen statistics, as detection
    models do): torch's backward then normalises with the running statistics. Running mean 0,
    variance 4 and eps 0 make invstd = 1/2, so that this backward too is exact."""

    def __init__(self):
        super().__init__()
        self.norm = torch.nn.BatchNorm1d(2, eps=0.0)
        self.norm.running_var.fill_(4.0)

    def train(self, mode=True):
        super().train(mode)
        self.norm.eval()
        return self

    def forward(self, x):
        return self.norm(x * 3.0)


def test_a_layer_in_eval_mode_is_judged_as_inference(tmp_path):
    layers = audit(FrozenStatistics(), EXACT_INPUTS, EXACT_TARGETS,
                   torch.nn.functional.mse_loss, out=tmp_path / "frozen")
    assert [(layer["layer"], layer["train"], layer["passed"]) for layer in layers] == [
        ("norm", False, True)]
    report = json.loads((tmp_path / "frozen" / "norm" / "report.json").read_text())
    assert report["run"]["mode"] == "inference"


@pytest.fixture
def legacy_executor():
    """TorchScript's legacy executor for the test (torch._C: no public switch exists)."""
    previous = torch._C._jit_set_profiling_executor(False)
    yield
    torch._C._jit_set_profiling_executor(previous)


def test_audit_sees_every_layer_under_the_legacy_executor(tmp_path, digits_batch,
                                                          legacy_executor):
    """The legacy executor fuses batch norm into a differentiable graph on the first call."""
    layers = audit(scripted(digits_model()), *digits_batch, torch.nn.functional.cross_entropy,
                   out=tmp_path / "legacy")
    assert [layer["layer"] for layer in layers] == DIGITS_LAYERS


def test_audit_refuses_a_model_without_batch_norm_and_a_used_folder(tmp_path, digits_batch):
    with pytest.raises(AuditError, match="no batch-norm layer"):
        audit(torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(64, 10)),
              *digits_batch, torch.nn.functional.cross_entropy, out=tmp_path / "none")
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "notes.txt").write_text("mine")
    with pytest.raises(AuditError, match="not an empty directory"):
        audit(digits_model(), *digits_batch, torch.nn.functional.cross_entropy,
              out=tmp_path / "used")
    assert issubclass(AuditError, batchnormgrad.Error)


# --- the command line -----------------------------------------------------------------------

def save_model(model, path):
    torch.jit.save(torch.jit.script(model), str(path))
    return path


def run_cli(capsys, *args):
    status = main(["audit", *map(str, args)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_cli_exit_status_is_the_verdict(tmp_path, capsys, digits_batch):
    exact_model = save_model(ExactStep(), tmp_path / "exact.pt")
    exact_batch = tmp_path / "exact-batch.pt"
    torch.save({"inputs": EXACT_INPUTS, "targets": EXACT_TARGETS}, exact_batch)
    status, out, err = run_cli(capsys, "--model", exact_model, "--batch", exact_batch,
                               "--out", tmp_path / "pass", "--loss", "mse")
    assert (status, err) == (0, "")
    assert out.startswith("PASS norm:")
    assert json.loads((tmp_path / "pass" / "summary.json").read_text())["passed"] is True

    digits_file = save_model(digits_model(), tmp_path / "digits.pt")
    batch = tmp_path / "batch.pt"
    torch.save(digits_batch, batch)
    status, out, err = run_cli(capsys, "--model", digits_file, "--batch", batch,
                               "--out", tmp_path / "fail")
    assert (status, err) == (1, "")
    summary = json.loads((tmp_path / "fail" / "summary.json").read_text())
    assert [layer["layer"] for layer in summary["layers"]] == DIGITS_LAYERS
    assert all((tmp_path / "fail" / name / "report.json").is_file() for name in DIGITS_LAYERS)


@pytest.mark.parametrize("case,message", [
    ("missing model", "absent.pt: no such file (the TorchScript model)"),
    ("model not TorchScript", "batch.pt: not a readable TorchScript model"),
    ("missing batch", "absent.pt: no such file (the batch)"),
    ("batch not a tuple", "found a Tensor"),
    ("batch of three", "found a tuple of 3 items"),
    ("batch of wrong dict", "found a dict with keys ['x', 'y']"),
    ("batch with pickled object", "batch.pt: not a readable torch.save file of tensors"),
    ("batch the model cannot take", "the model or the loss does not run on these inputs")])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys, case, message):
    model = save_model(ExactStep(), tmp_path / "model.pt")
    batch = tmp_path / "batch.pt"
    torch.save((EXACT_INPUTS, EXACT_TARGETS), batch)
    if case == "missing model":
        model = tmp_path / "absent.pt"
    elif case == "model not TorchScript":
        model = batch
    elif case == "missing batch":
        batch = tmp_path / "absent.pt"
    elif case == "batch not a tuple":
        torch.save(EXACT_INPUTS, batch)
    elif case == "batch of three":
        torch.save((EXACT_INPUTS, EXACT_TARGETS, EXACT_TARGETS), batch)
    elif case == "batch of wrong dict":
        torch.save({"x": EXACT_INPUTS, "y": EXACT_TARGETS}, batch)
    elif case == "batch with pickled object":
        torch.save((EXACT_INPUTS, Path("/")), batch)  # weights_only refuses the object
    elif case == "batch the model cannot take":
        torch.save((torch.zeros(4, 3), EXACT_TARGETS), batch)  # 3 channels, the layer has 2
    status, out, err = run_cli(capsys, "--model", model, "--batch", batch,
                               "--out", tmp_path / "out", "--loss", "mse")
    assert status == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err
    assert out == ""


def test_cli_as_a_module_never_shows_a_traceback(tmp_path):
    batch = tmp_path / "batch.pt"
    torch.save([EXACT_INPUTS], batch)
    model = save_model(ExactStep(), tmp_path / "model.pt")
    completed = subprocess.run(
        [sys.executable, "-m", "batchnormgrad", "audit", "--model", str(model), "--batch",
         str(batch), "--out", str(tmp_path / "out")],
        capture_output=True, text=True, check=False)
    assert completed.returncode == 2
    assert completed.stderr == (f"error: {batch}: expected a tuple (inputs, targets) or a dict "
                                "with keys 'inputs' and 'targets', found a list of 1 item\n")
