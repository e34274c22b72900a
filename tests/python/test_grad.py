"""batchnormgrad.grad: the C library's bits, from numpy, and nothing on bad input."""

import ctypes
import threading
import time

import numpy as np
import pytest

import batchnormgrad as bng
from batchnormgrad import _paths
from conftest import random_call

COMBOS = {"fp": (np.float32, np.float32), "hp": (np.float16, np.float16),
          "mp": (np.float16, np.float32)}


def c_library_call(target, combo, x, dy, mean, invar, scale, train):
    """The same call through the C ABI directly (ctypes, the _p params form), as a C
    program makes it: an independent path to the library's bits."""
    lib = ctypes.CDLL(_paths.LIBRARIES[target], mode=ctypes.RTLD_LOCAL)
    x, dy = np.ascontiguousarray(x), np.ascontiguousarray(dy)
    channel = x.shape[-1]
    dx = np.empty_like(x)
    dscale = np.empty(channel, mean.dtype)
    dbias = np.empty(channel, mean.dtype)
    params = (ctypes.c_longlong * 12)(
        mean.ctypes.data, invar.ctypes.data, scale.ctypes.data, dbias.ctypes.data,
        dscale.ctypes.data, x.size // channel, channel, int(train), 0, 0, 0, 0)
    entry = getattr(lib, f"{combo}_batch_norm_grad_p")
    entry.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                      ctypes.POINTER(ctypes.c_longlong)]
    status = entry(x.ctypes.data, dy.ctypes.data, dx.ctypes.data, params)
    assert status == 0
    return dx, dscale, dbias


def bits(a):
    return a.view(np.uint16 if a.dtype == np.float16 else np.uint32)


@pytest.mark.parametrize("combo", ["fp", "hp", "mp"])
@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("shape", [(1,), (7, 3), (5, 4, 3, 17), (300, 64)])
def test_grad_is_the_c_library_bit_for_bit(rng, combo, train, shape):
    data, stats = COMBOS[combo]
    call = random_call(rng, shape, data, stats)
    ours = bng.grad(*call, train=train)
    theirs = c_library_call("mt7004", combo, *call, train)
    for got, want in zip(ours, theirs):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(bits(got), bits(want))


def test_ft78ne_fp_and_every_core_mask_give_the_same_bits(rng):
    call = random_call(rng, (40, 33))
    want = bng.grad(*call, target="ft78ne", core_mask=1)
    for mask in (0x1, 0x5, 0x80, 0xFF, None):
        got = bng.grad(*call, target="ft78ne", core_mask=mask)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(bits(g), bits(w))
    mt = bng.grad(*call, target="mt7004")
    np.testing.assert_array_equal(bits(mt[0]), bits(c_library_call("mt7004", "fp", *call,
                                                                    True)[0]))


def test_non_contiguous_input_is_copied_and_gives_the_same_bits(rng):
    x, dy, mean, invar, scale = random_call(rng, (30, 16))
    wide = np.zeros((30, 32), np.float32)
    wide[:, ::2] = x
    strided = wide[:, ::2]
    assert not strided.flags.c_contiguous
    got = bng.grad(strided, dy, mean, invar, scale)
    want = bng.grad(x, dy, mean, invar, scale)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(bits(g), bits(w))


def test_out_arrays_are_written_in_place_and_returned(rng):
    call = random_call(rng, (20, 8))
    out = (np.empty((20, 8), np.float32), np.empty(8, np.float32), np.empty(8, np.float32))
    got = bng.grad(*call, out=out)
    assert all(g is o for g, o in zip(got, out))
    want = bng.grad(*call)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(bits(g), bits(w))


def test_dx_may_be_x_itself(rng):
    x, dy, mean, invar, scale = random_call(rng, (20, 8))
    want = bng.grad(x, dy, mean, invar, scale)
    dscale, dbias = np.empty(8, np.float32), np.empty(8, np.float32)
    bng.grad(x, dy, mean, invar, scale, out=(x, dscale, dbias))
    np.testing.assert_array_equal(bits(x), bits(want[0]))


# ---- bad input: the error named after what is wrong, and no output written ---------------

def sentinel_outputs(shape, data=np.float32, stats=np.float32):
    return (np.full(shape, 7, data), np.full(shape[-1], 7, stats), np.full(shape[-1], 7, stats))


def assert_untouched(out):
    for o in out:
        assert np.all(o == 7)


@pytest.mark.parametrize("change, error", [
    (lambda c: (c[0].astype(np.float64),) + c[1:], bng.DTypeError),
    (lambda c: (c[0], c[1].astype(np.float16)) + c[2:], bng.DTypeError),
    (lambda c: c[:2] + (c[2].astype(np.float16),) + c[3:], bng.DTypeError),
    (lambda c: (c[0].astype(np.int32),) + c[1:], bng.DTypeError),
    (lambda c: (c[0], c[1][:-1]) + c[2:], bng.ShapeError),
    (lambda c: c[:2] + (c[2][:-1],) + c[3:], bng.ShapeError),
    (lambda c: c[:4] + (c[4].reshape(1, -1),), bng.ShapeError),
    (lambda c: (c[0][:0], c[1][:0]) + c[2:], bng.ShapeError),
    (lambda c: (np.float32(1), np.float32(1)) + c[2:], bng.ShapeError),
])
def test_bad_dtypes_and_shapes_raise_and_write_nothing(rng, change, error):
    call = change(random_call(rng, (6, 5)))
    out = sentinel_outputs((6, 5))
    with pytest.raises(error):
        bng.grad(*call, out=out)
    assert_untouched(out)
    assert issubclass(error, bng.Error)


@pytest.mark.parametrize("make_out, error", [
    (lambda o: (np.full((5, 6), 7, np.float32).T,) + o[1:], bng.LayoutError),  # not C-contiguous
    (lambda o: (o[0], o[1].astype(np.float64), o[2]), bng.DTypeError),
    (lambda o: (o[0].reshape(5, 6),) + o[1:], bng.ShapeError),
    (lambda o: o[:2], bng.LayoutError),
    (lambda o: (o[0].tolist(),) + o[1:], bng.LayoutError),
])
def test_bad_out_arrays_raise_and_write_nothing(rng, make_out, error):
    call = random_call(rng, (6, 5))
    out = make_out(sentinel_outputs((6, 5)))
    with pytest.raises(error):
        bng.grad(*call, out=out)
    for o in out:
        if isinstance(o, np.ndarray):
            assert np.all(o == 7)


def test_read_only_out_is_refused(rng):
    call = random_call(rng, (6, 5))
    out = sentinel_outputs((6, 5))
    out[0].flags.writeable = False
    with pytest.raises(bng.LayoutError):
        bng.grad(*call, out=out)
    assert_untouched(out)


def test_library_statuses_become_their_errors(rng):
    call = random_call(rng, (6, 5))
    out = sentinel_outputs((6, 5))
    for mask in (0, 0x100, -1, 1.5, True):
        with pytest.raises(bng.CoreMaskError):
            bng.grad(*call, core_mask=mask, out=out)
    with pytest.raises(bng.FlagError):
        bng.grad(*call, train=2, out=out)
    # dscale over the first row of x: an output overlapping an input.
    x = call[0]
    overlapping = (out[0], x[0], out[2])
    with pytest.raises(bng.OverlapError) as raised:
        bng.grad(*call, out=overlapping)
    assert raised.value.status == -5
    assert_untouched(out)


def test_misaligned_input_is_the_library_align_error(rng):
    x, dy, mean, invar, scale = random_call(rng, (6, 5))
    raw = np.zeros(x.nbytes + 4, np.uint8)
    misaligned = raw[2:2 + x.nbytes].view(np.float32).reshape(x.shape)
    misaligned[...] = x
    assert misaligned.flags.c_contiguous and not misaligned.flags.aligned
    out = sentinel_outputs((6, 5))
    with pytest.raises(bng.AlignError):
        bng.grad(misaligned, dy, mean, invar, scale, out=out)
    assert_untouched(out)


def test_targets_and_kernels_they_lack(rng):
    # The C++ registry and the library files CMake generated from it name the same targets.
    assert set(bng.targets()) == set(_paths.LIBRARIES)
    half = random_call(rng, (6, 5), np.float16, np.float16)
    with pytest.raises(bng.TargetError, match="ft78ne has no hp kernel"):
        bng.grad(*half, target="ft78ne")
    with pytest.raises(bng.TargetError, match="no target is called"):
        bng.grad(*random_call(rng, (6, 5)), target="gpu")


# ---- NaN and Inf ---------------------------------------------------------------------------

def test_nan_and_inf_stay_in_their_channel(rng):
    x, dy, mean, invar, scale = random_call(rng, (50, 6))
    x[3, 1] = np.nan
    dy[7, 4] = np.inf
    dx, dscale, dbias = bng.grad(x, dy, mean, invar, scale)
    clean = [0, 2, 3, 5]
    want = bng.reference(x, dy, mean, invar, scale)
    assert np.all(np.isnan(dx[:, 1])) and np.isnan(dscale[1])
    assert not np.isfinite(dbias[4])
    assert np.all(np.isfinite(dx[:, clean]))
    judged = bng.judge(x, dy, mean, invar, scale, dx, dscale, dbias)
    assert judged.passed, judged
    np.testing.assert_array_equal(np.isnan(want[0][:, clean]), False)


# ---- threads -------------------------------------------------------------------------------

def test_threads_calling_at_once_get_their_own_results(rng):
    calls = [random_call(rng, (64 + 8 * i, 24)) for i in range(8)]
    want = [bng.grad(*c) for c in calls]
    results = [None] * 32
    errors = []

    def work(slot):
        try:
            for _ in range(5):
                results[slot] = bng.grad(*calls[slot % 8], core_mask=1 << (slot % 8))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for slot, got in enumerate(results):
        for g, w in zip(got, want[slot % 8]):
            np.testing.assert_array_equal(bits(g), bits(w))


def longest_main_thread_stall(work):
    """The longest time the main thread could not run Python while `work` ran in another
    thread: about the length of one C call if the call held the GIL, small if it did not."""
    worker = threading.Thread(target=work)
    worker.start()
    last, longest = time.perf_counter(), 0.0
    while worker.is_alive():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    worker.join()
    return longest


def test_the_gil_is_released_during_the_kernel(rng):
    x = rng.standard_normal((1 << 23, 4)).astype(np.float32)
    stats = (np.zeros(4, np.float32), np.ones(4, np.float32), np.ones(4, np.float32))
    attempts = []
    # A held GIL stalls the main thread for a whole call on every attempt; a busy machine
    # can stall it for a while once. So: the best of three attempts.
    for _ in range(3):
        start = time.perf_counter()
        bng.grad(x, x, *stats, core_mask=1)
        one_call = time.perf_counter() - start
        stall = longest_main_thread_stall(
            lambda: [bng.grad(x, x, *stats, core_mask=1) for _ in range(3)])
        attempts.append((stall, one_call))
        if stall < one_call / 2:
            return
    pytest.fail(f"the main thread stalled about a call's length each time: {attempts}")
