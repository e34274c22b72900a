"""``python3 -m batchnormgrad audit``: batchnormgrad.torch.audit on files.

    python3 -m batchnormgrad audit --model MODEL.pt --batch BATCH.pt --out DIR [--loss LOSS]

MODEL.pt is a TorchScript file (torch.jit.save), BATCH.pt a torch.save'd tuple (inputs,
targets) or dict {"inputs": ..., "targets": ...}; inputs is a tensor or a tuple of tensors
(passed to the model as separate arguments). Exit status: 0 every batch-norm layer passes, 1
some layer fails, 2 the audit could not run (a file missing or unreadable, a malformed batch,
a model or loss that does not run on it, no batch-norm layer in the step, a non-empty DIR),
with a one-line message on stderr.

The batch file is read with torch.load(weights_only=True): tensors and plain containers only,
never arbitrary pickled objects, since a batch file may come from anywhere.
"""

import sys
from pathlib import Path

import torch
import torch.nn.functional as F

from . import Error
from .torch import audit

LOSSES = {"cross_entropy": F.cross_entropy, "mse": F.mse_loss}


class UsageError(Exception):
    """Input the audit cannot run on; its message is the one line the user sees."""


def add_parser(subcommands):
    """Registers ``audit`` on the dispatcher's subparsers."""
    parser = subcommands.add_parser(
        "audit", help="judge PyTorch's own batch-norm backward in one training step",
        description="One training step of a TorchScript model on one batch (no optimizer "
                    "step); every batch-norm backward PyTorch computes is judged against the "
                    "exact reference at the mt7004 fp bound. Writes one report folder per "
                    "layer, summary.json and summary.md into --out. Exit 0: all pass; 1: some "
                    "layer fails; 2: the audit could not run.")
    parser.add_argument("--model", required=True, type=Path, metavar="MODEL.pt",
                        help="TorchScript model (torch.jit.save)")
    parser.add_argument("--batch", required=True, type=Path, metavar="BATCH.pt",
                        help="torch.save'd (inputs, targets) or {'inputs':..., 'targets':...}")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR",
                        help="output folder (created; must be empty if it exists)")
    parser.add_argument("--loss", choices=sorted(LOSSES), default="cross_entropy",
                        help="loss of the step (default: cross_entropy)")
    parser.set_defaults(run=run)


def _first_line(error):
    """Torch's messages run over many lines (C++ traces); the user gets the first."""
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _readable(path, what):
    if not path.is_file():
        raise UsageError(f"{path}: {'no such file' if not path.exists() else 'not a file'} "
                         f"({what})")


def load_model(path):
    _readable(path, "the TorchScript model")
    try:
        return torch.jit.load(str(path), map_location="cpu")
    except Exception as error:  # torch raises RuntimeError, ValueError, ... by file content
        raise UsageError(f"{path}: not a readable TorchScript model: {_first_line(error)}")


def _is_inputs(value):
    return isinstance(value, torch.Tensor) or (
        isinstance(value, (tuple, list)) and value
        and all(isinstance(item, torch.Tensor) for item in value))


def load_batch(path):
    """(inputs, targets) from a batch file, or a UsageError saying what is wrong with it."""
    _readable(path, "the batch")
    try:
        batch = torch.load(str(path), map_location="cpu", weights_only=True)
    except Exception as error:  # unpickling errors, zip errors, ... by file content
        raise UsageError(f"{path}: not a readable torch.save file of tensors: "
                         f"{_first_line(error)}")
    if isinstance(batch, dict) and set(batch) == {"inputs", "targets"}:
        inputs, targets = batch["inputs"], batch["targets"]
    elif isinstance(batch, (tuple, list)) and len(batch) == 2:
        inputs, targets = batch
    else:
        found = f"a {type(batch).__name__}"
        if isinstance(batch, dict):
            found += f" with keys {sorted(map(str, batch))}"
        elif isinstance(batch, (tuple, list)):
            found += f" of {len(batch)} item{'s' if len(batch) != 1 else ''}"
        raise UsageError(f"{path}: expected a tuple (inputs, targets) or a dict with keys "
                         f"'inputs' and 'targets', found {found}")
    if not _is_inputs(inputs):
        raise UsageError(f"{path}: inputs must be a tensor or a tuple of tensors, found "
                         f"{type(inputs).__name__}")
    if not isinstance(targets, torch.Tensor):
        raise UsageError(f"{path}: targets must be a tensor, found {type(targets).__name__}")
    return inputs, targets


def run(args):
    try:
        model = load_model(args.model)
        inputs, targets = load_batch(args.batch)
        layers = audit(model, inputs, targets, LOSSES[args.loss], out=args.out)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except Error as error:  # the audit could not run: see batchnormgrad.torch.AuditError
        print(f"error: {_first_line(error)}", file=sys.stderr)
        return 2

    for layer in layers:
        verdict = "PASS" if layer["passed"] else "FAIL"
        print(f"{verdict} {layer['layer']}: shape {tuple(layer['shape'])}, worst bound use "
              f"{layer['worst_bound_use']:.3g}, dx max ULP {layer['dx_max_ulp_error']:.3g}, "
              f"dx correctly rounded {100 * layer['dx_correctly_rounded_share']:.1f} %")
    passed = all(layer["passed"] for layer in layers)
    print(f"{'PASS' if passed else 'FAIL'}: {sum(l['passed'] for l in layers)}/{len(layers)} "
          f"layers within the bound; {args.out / 'summary.md'}")
    return 0 if passed else 1
