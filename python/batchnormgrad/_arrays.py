"""Checking a call's numpy arguments before anything reaches the kernel.

One place for the rules the Python face adds to the C library's: which dtypes
name which type combination, which shapes make a call (channel-last, any rank:
batch is the product of the leading dimensions), and which ``out`` arrays the
kernel can write. Inputs that are not C-contiguous are copied once; C-contiguous
ones are passed on as they are (the library checks their alignment).
"""

import math
import numbers
from dataclasses import dataclass

import numpy as np

from .errors import CoreMaskError, DTypeError, FlagError, LayoutError, ShapeError

# (data dtype, statistics dtype) -> SPEC §1's type combination.
_COMBOS = {
    (np.dtype(np.float32), np.dtype(np.float32)): "fp",
    (np.dtype(np.float16), np.dtype(np.float16)): "hp",
    (np.dtype(np.float16), np.dtype(np.float32)): "mp",
}
_COMBO_HELP = ("float32 throughout (fp), float16 throughout (hp), or float16 x/dy with "
               "float32 mean/invar/scale (mp)")


@dataclass(frozen=True)
class Call:
    """One call as the kernel sees it."""

    combo: str
    batch: int
    channel: int
    is_train: int
    data_shape: tuple
    data_dtype: np.dtype
    stats_dtype: np.dtype


def _array(value, name):
    array = np.asarray(value)
    if array.dtype not in (np.dtype(np.float16), np.dtype(np.float32)):
        raise DTypeError(f"{name} has dtype {array.dtype}: {_COMBO_HELP}")
    return array


def _flag(train):
    if isinstance(train, (bool, np.bool_)) or train in (0, 1):
        return int(bool(train))
    raise FlagError(f"train={train!r}: must be True or False")


def describe_call(x, dy, mean, invar, scale, train):
    """(Call, the five inputs as C-contiguous arrays), or the error that says what is wrong."""
    x, dy = _array(x, "x"), _array(dy, "dy")
    mean, invar, scale = _array(mean, "mean"), _array(invar, "invar"), _array(scale, "scale")
    if dy.dtype != x.dtype:
        raise DTypeError(f"dy has dtype {dy.dtype} but x has {x.dtype}: x and dy share one dtype")
    for name, stat in (("invar", invar), ("scale", scale)):
        if stat.dtype != mean.dtype:
            raise DTypeError(f"{name} has dtype {stat.dtype} but mean has {mean.dtype}: "
                             "mean, invar and scale share one dtype")
    combo = _COMBOS.get((x.dtype, mean.dtype))
    if combo is None:
        raise DTypeError(f"x of {x.dtype} with statistics of {mean.dtype}: {_COMBO_HELP}")
    if x.ndim < 1:
        raise ShapeError("x is a scalar: it must be channel-last, shape (..., channel)")
    if dy.shape != x.shape:
        raise ShapeError(f"dy has shape {dy.shape} but x has {x.shape}")
    channel = x.shape[-1]
    for name, stat in (("mean", mean), ("invar", invar), ("scale", scale)):
        if stat.shape != (channel,):
            raise ShapeError(f"{name} has shape {stat.shape}: x's last dimension makes it "
                             f"({channel},)")
    batch = math.prod(x.shape[:-1])
    if batch < 1 or channel < 1:
        raise ShapeError(f"x has shape {x.shape}: batch (the product of the leading dimensions) "
                         "and channel must be at least 1")
    call = Call(combo, batch, channel, _flag(train), x.shape, x.dtype, mean.dtype)
    inputs = tuple(np.ascontiguousarray(a) for a in (x, dy, mean, invar, scale))
    return call, inputs


def _output_array(value, name, dtype, shape):
    if not isinstance(value, np.ndarray):
        raise LayoutError(f"out {name} is a {type(value).__name__}, not a numpy array")
    if value.dtype != dtype:
        raise DTypeError(f"out {name} has dtype {value.dtype}: the call's {name} is {dtype}")
    if value.shape != shape:
        raise ShapeError(f"out {name} has shape {value.shape}: the call's {name} is {shape}")
    if not value.flags.c_contiguous:
        raise LayoutError(f"out {name} is not C-contiguous: the kernel writes it in place")
    if not value.flags.writeable:
        raise LayoutError(f"out {name} is read-only")
    return value


def outputs(call, out):
    """(dx, dscale, dbias): the caller's ``out`` arrays, checked, or new ones."""
    shapes = {"dx": (call.data_shape, call.data_dtype),
              "dscale": ((call.channel,), call.stats_dtype),
              "dbias": ((call.channel,), call.stats_dtype)}
    if out is None:
        return tuple(np.empty(shape, dtype) for shape, dtype in shapes.values())
    if not isinstance(out, (tuple, list)) or len(out) != 3:
        raise LayoutError("out must be a tuple (dx, dscale, dbias) of numpy arrays")
    return tuple(_output_array(value, name, dtype, shape)
                 for value, (name, (shape, dtype)) in zip(out, shapes.items()))


def judged_outputs(call, dx, dscale, dbias):
    """A kernel's outputs to judge, in the call's dtypes and shapes, C-contiguous."""
    shapes = {"dx": (dx, call.data_shape, call.data_dtype),
              "dscale": (dscale, (call.channel,), call.stats_dtype),
              "dbias": (dbias, (call.channel,), call.stats_dtype)}
    arrays = []
    for name, (value, shape, dtype) in shapes.items():
        array = np.asarray(value)
        if array.dtype != dtype:
            raise DTypeError(f"{name} has dtype {array.dtype}: the call's {name} is {dtype}")
        if array.shape != shape:
            raise ShapeError(f"{name} has shape {array.shape}: the call's {name} is {shape}")
        arrays.append(np.ascontiguousarray(array))
    return tuple(arrays)


def core_mask(mask):
    """The core mask as the C call takes it (the library checks which bits are valid)."""
    if isinstance(mask, bool) or not isinstance(mask, numbers.Integral) or \
            not 0 <= int(mask) < 2**32:
        raise CoreMaskError(f"core_mask={mask!r}: a bit mask of cores, e.g. 0xFF for all eight")
    return int(mask)
