"""batchnormgrad: the backward pass of batch normalization, from Python.

Three functions on numpy arrays, channel-last of any rank (x and dy of shape
(..., C), batch being the product of the leading dimensions; mean, invar and
scale of shape (C,)). The dtypes pick the kernel: float32 throughout is fp,
float16 throughout hp, float16 x/dy with float32 statistics mp.

- grad: the shipped C library's kernel (the same bits as the C ABI);
- reference: the exact results, rounded once (SPEC §5);
- judge: outputs from anywhere judged against the exact results, as
  ``bngcert check`` judges them, with the report it would write.

batchnormgrad.torch has drop-in BatchNorm1d/2d for PyTorch and audit().
docs/python.md is the guide.
"""

import os

from . import _arrays, _core, _paths
from ._judgement import Judgement, OutputJudgement
from .errors import (AlignError, AlphaError, CoreMaskError, DTypeError, Error, FlagError,
                     LayoutError, LibraryError, NullError, OutputError, OverlapError,
                     ReferencePathError, ShapeError, TargetError, error_for_status)

__all__ = ["grad", "reference", "judge", "targets", "declared_alpha", "Judgement",
           "OutputJudgement", "Error", "NullError", "ShapeError", "FlagError", "CoreMaskError",
           "OverlapError", "AlignError", "DTypeError", "LayoutError", "TargetError",
           "AlphaError", "LibraryError", "OutputError", "ReferencePathError"]

ALL_CORES = 0xFF

# The libraries this package was built or installed with, unless BNG_LIB_<TARGET> names another.
for _target, _path in _paths.LIBRARIES.items():
    if not os.environ.get(f"BNG_LIB_{_target.upper()}"):
        _core.use_library(_target, _path)


def targets():
    """The targets of the registry (optimized/include/bng/optimized/targets.inc), by name."""
    return list(_core.targets())


def declared_alpha(target, combo):
    """The α a target's kernel declares (SPEC §5), e.g. declared_alpha('mt7004', 'fp')."""
    return _core.declared_alpha(target, combo)


def grad(x, dy, mean, invar, scale, *, train=True, target="mt7004", core_mask=None, out=None):
    """(dx, dscale, dbias) of one batch-norm backward call, by the target's kernel.

    invar is 1/sqrt(var + eps). train=True uses the batch statistics' full
    gradient, False the inference form dx = scale·invar·dy. core_mask spreads the
    work over those cores of the target (None: all eight); the bits do not
    depend on it. out=(dx, dscale, dbias) writes into C-contiguous arrays of the
    right dtypes and shapes; dx may be x or dy itself (in place). The GIL is
    released during the call. Raises a batchnormgrad.Error and writes nothing
    when the arguments make no valid call.
    """
    call, (x, dy, mean, invar, scale) = _arrays.describe_call(x, dy, mean, invar, scale, train)
    mask = ALL_CORES if core_mask is None else _arrays.core_mask(core_mask)
    dx, dscale, dbias = _arrays.outputs(call, out)
    status, message = _core.grad(target, call.combo, call.batch, call.channel, call.is_train,
                                 mask, x, dy, mean, invar, scale, dx, dscale, dbias)
    if status != 0:
        raise error_for_status(status, message)
    return dx, dscale, dbias


def reference(x, dy, mean, invar, scale, *, train=True, path="tiered"):
    """(dx, dscale, dbias), the exact results correctly rounded into the call's dtypes.

    Where an input an output depends on is NaN or ±Inf there is no real result:
    NaN there. ``path``: "tiered" (default: fast, the exact path only where its
    rounding test cannot decide) or "exact" (BigInt for every output); the same
    results bit for bit (docs/reference.md).
    """
    call, (x, dy, mean, invar, scale) = _arrays.describe_call(x, dy, mean, invar, scale, train)
    dx, dscale, dbias = _arrays.outputs(call, None)
    _core.reference(call.combo, call.batch, call.channel, call.is_train, path, x, dy, mean, invar,
                    scale, dx, dscale, dbias)
    return dx, dscale, dbias


def judge(x, dy, mean, invar, scale, dx, dscale, dbias, *, train=True, target="mt7004",
          alpha=None, path="tiered"):
    """Judges (dx, dscale, dbias) of the call (x, dy, mean, invar, scale) against the exact results.

    As ``bngcert check`` judges a dump: at the target kernel's declared α, or at
    ``alpha`` for an investigation (then not a release verdict). Returns a
    Judgement: .passed, per output .dx/.dscale/.dbias, .report, .write_report(dir).
    ``path`` chooses the reference as in reference() (bngcert's --reference).
    """
    call, inputs = _arrays.describe_call(x, dy, mean, invar, scale, train)
    outputs = _arrays.judged_outputs(call, dx, dscale, dbias)
    if alpha is not None:
        alpha = float(alpha)
    core = _core.judge(target, call.combo, call.batch, call.channel, call.is_train, alpha, path,
                       list(call.data_shape), *inputs, *outputs)
    return Judgement(core, call)
