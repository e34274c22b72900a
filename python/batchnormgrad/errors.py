"""The exceptions of batchnormgrad.

Every error the package raises is a ``batchnormgrad.Error``. Those of a call the
C library refuses are named after its status (``BNG_ERR_SHAPE`` ->
``ShapeError``, ...) and carry it as ``.status``; the rest say what the Python
layer found before any call. When any is raised, no output has been written.
"""


class Error(Exception):
    """Base of every batchnormgrad error. ``status`` is the C status, or None."""

    status = None


class NullError(Error, ValueError):
    """BNG_ERR_NULL (-1): a pointer the call needs is null."""

    status = -1


class ShapeError(Error, ValueError):
    """BNG_ERR_SHAPE (-2): shapes do not make a call (batch or channel < 1, a
    size that overflows, arrays of different shapes)."""

    status = -2


class FlagError(Error, ValueError):
    """BNG_ERR_FLAG (-3): is_train is not 0 or 1."""

    status = -3


class CoreMaskError(Error, ValueError):
    """BNG_ERR_CORE_MASK (-4): no core set, or a core the target does not have."""

    status = -4


class OverlapError(Error, ValueError):
    """BNG_ERR_OVERLAP (-5): an output overlaps an input or another output
    (dx may be x or dy exactly: in place)."""

    status = -5


class AlignError(Error, ValueError):
    """BNG_ERR_ALIGN (-6): an array is not aligned to its element type."""

    status = -6


class DTypeError(Error, TypeError):
    """The dtypes name no type combination of SPEC §1 (float32 throughout: fp;
    float16 throughout: hp; float16 data with float32 statistics: mp)."""


class LayoutError(Error, ValueError):
    """An ``out`` array the kernel cannot write in place: not C-contiguous or
    read-only."""


class TargetError(Error, ValueError):
    """No such target, or the target has no kernel for these dtypes."""


class AlphaError(Error, ValueError):
    """An alpha that is not a finite non-negative number."""


class ReferencePathError(Error, ValueError):
    """A reference path other than "tiered" or "exact"."""


class LibraryError(Error, OSError):
    """The kernel library cannot be found or loaded."""


class OutputError(Error, OSError):
    """A report directory that cannot be written."""


_BY_STATUS = {cls.status: cls for cls in
              (NullError, ShapeError, FlagError, CoreMaskError, OverlapError, AlignError)}


def error_for_status(status, message):
    """The exception for a status the C library returned."""
    cls = _BY_STATUS.get(status, Error)
    error = cls(f"{message} (status {status})")
    error.status = status
    return error
