"""batchnormgrad.torch.BatchNorm1d/2d against torch.nn's: the same forward and running statistics
bit for bit, a backward that is exactly batchnormgrad.grad on channel-last arrays and close to
torch's own, and convert() keeping a model's state.

Run: PYTHONPATH=build/release/python /usr/bin/python3 -m pytest -q tests/python/
"""

import itertools

import pytest
import torch

import batchnormgrad
from batchnormgrad.torch import BatchNorm1d, BatchNorm2d, convert

U32 = 2.0 ** -24  # unit roundoff of binary32

# (our class, torch's class, input shape): every layout the two classes take.
LAYOUTS = [
    (BatchNorm1d, torch.nn.BatchNorm1d, (24, 6)),
    (BatchNorm1d, torch.nn.BatchNorm1d, (8, 6, 5)),
    (BatchNorm2d, torch.nn.BatchNorm2d, (4, 6, 5, 3)),
]
LAYOUT_IDS = ["1d-NC", "1d-NCL", "2d-NCHW"]


def make_pair(torch_cls, channels, affine=True, momentum=0.1, track_running_stats=True,
              seed=0):
    """torch's module with non-trivial parameters and statistics, and ours converted from it."""
    theirs = torch_cls(channels, affine=affine, momentum=momentum,
                       track_running_stats=track_running_stats)
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        if affine:
            theirs.weight.copy_(torch.randn(channels, generator=generator))
            theirs.bias.copy_(torch.randn(channels, generator=generator))
        if track_running_stats:
            theirs.running_mean.copy_(torch.randn(channels, generator=generator))
            theirs.running_var.copy_(torch.rand(channels, generator=generator) + 0.5)
    return theirs, convert(theirs)


def random_input(shape, seed, offset=3.0):
    """Data off-centre (the mean matters) with a spread per channel."""
    generator = torch.Generator().manual_seed(seed)
    spread = torch.rand(shape[1], generator=generator) * 4 + 0.25
    view = (1, shape[1]) + (1,) * (len(shape) - 2)
    return offset + spread.view(view) * torch.randn(shape, generator=generator)


def channel_last(tensor):
    """(N, C, *spatial) -> (N, *spatial, C) float32 numpy, written out per rank."""
    if tensor.dim() == 2:
        return tensor.detach().numpy().copy()
    if tensor.dim() == 3:
        return tensor.detach().permute(0, 2, 1).contiguous().numpy()
    return tensor.detach().permute(0, 2, 3, 1).contiguous().numpy()


def channel_first(array, like):
    """The inverse of channel_last, checked against the expected shape."""
    tensor = torch.from_numpy(array)
    if like.dim() == 3:
        tensor = tensor.permute(0, 2, 1)
    elif like.dim() == 4:
        tensor = tensor.permute(0, 3, 1, 2)
    assert tensor.shape == like.shape
    return tensor


def backward(module, x, dy):
    """(dx, dweight, dbias) of module(x) for the incoming gradient dy (None where absent)."""
    x = x.detach().clone().requires_grad_(True)
    module.zero_grad(set_to_none=True)
    module(x).backward(dy)
    weight_grad = None if module.weight is None else module.weight.grad
    bias_grad = None if module.bias is None else module.bias.grad
    return x.grad, weight_grad, bias_grad


def magnitude(x, dy, mean, invstd, scale, train):
    """SPEC §5's M per output (the formula with every term by its absolute value), in float64:
    (dx's M, dscale's M, dbias's M), dx's in the layout of x."""
    x, dy = x.double(), dy.double()
    channels = x.shape[1]
    view = (1, channels) + (1,) * (x.dim() - 2)
    reduce_dims = [d for d in range(x.dim()) if d != 1]
    m = x.numel() // channels
    xhat = (x - mean.double().view(view)) * invstd.double().view(view)
    sum_abs_dy = dy.abs().sum(reduce_dims)
    sum_abs_dy_xhat = (dy * xhat).abs().sum(reduce_dims)
    coefficient = (scale.double() * invstd.double()).abs().view(view)
    if train:
        dx_m = coefficient / m * (m * dy.abs() + sum_abs_dy.view(view)
                                  + xhat.abs() * sum_abs_dy_xhat.view(view))
    else:
        dx_m = coefficient * dy.abs()
    return dx_m, sum_abs_dy_xhat, sum_abs_dy


@pytest.mark.parametrize("ours_cls,torch_cls,shape", LAYOUTS, ids=LAYOUT_IDS)
@pytest.mark.parametrize("affine,momentum,track", [
    (True, 0.1, True), (False, 0.1, True), (True, None, True), (True, 0.1, False)],
    ids=["affine", "no-affine", "momentum-None", "no-running-stats"])
def test_forward_and_running_statistics_are_torchs(ours_cls, torch_cls, shape, affine, momentum,
                                                  track):
    theirs, ours = make_pair(torch_cls, shape[1], affine, momentum, track)
    assert type(ours) is ours_cls
    for step in range(3):
        x = random_input(shape, seed=step)
        assert torch.equal(ours(x), theirs(x)), f"training step {step}"
        for name, buffer in theirs.named_buffers():
            assert torch.equal(dict(ours.named_buffers())[name], buffer), f"{name}, step {step}"
    theirs.eval()
    ours.eval()
    x = random_input(shape, seed=10)
    assert torch.equal(ours(x), theirs(x))
    for name, buffer in theirs.named_buffers():
        assert torch.equal(dict(ours.named_buffers())[name], buffer), f"{name} after eval"


def test_buffers_kept_but_no_longer_tracked_are_not_updated():
    """track_running_stats switched off after construction: the buffers stay, training uses
    batch statistics and leaves them alone, eval uses them (torch's documented behaviour)."""
    theirs, ours = make_pair(torch.nn.BatchNorm2d, 6)
    theirs.track_running_stats = ours.track_running_stats = False
    x = random_input((4, 6, 5, 3), seed=13)
    assert torch.equal(ours(x), theirs(x))
    assert torch.equal(ours.running_mean, theirs.running_mean)
    assert torch.equal(ours.num_batches_tracked, theirs.num_batches_tracked)
    theirs.eval()
    ours.eval()
    assert torch.equal(ours(x), theirs(x))


@pytest.mark.parametrize("torch_cls,bad_input", [
    (torch.nn.BatchNorm1d, torch.zeros(1, 3)),      # one value per channel in training
    (torch.nn.BatchNorm2d, torch.zeros(2, 3, 4))],  # not 4-D
    ids=["batch-of-one", "wrong-rank"])
def test_refuses_what_torch_refuses(torch_cls, bad_input):
    theirs, ours = make_pair(torch_cls, 3)
    with pytest.raises(ValueError) as theirs_error:
        theirs(bad_input)
    with pytest.raises(ValueError) as ours_error:
        ours(bad_input)
    assert str(ours_error.value) == str(theirs_error.value)


@pytest.mark.parametrize("ours_cls,torch_cls,shape", LAYOUTS, ids=LAYOUT_IDS)
@pytest.mark.parametrize("mode,affine", list(itertools.product(["train", "eval"], [True, False])))
def test_backward_is_the_kernel_on_channel_last_arrays(ours_cls, torch_cls, shape, mode,
                                                        affine):
    theirs, ours = make_pair(torch_cls, shape[1], affine=affine)
    getattr(ours, mode)()
    x = random_input(shape, seed=1)
    dy = torch.randn(shape, generator=torch.Generator().manual_seed(2))
    running_mean, running_var = ours.running_mean.clone(), ours.running_var.clone()
    dx, dweight, dbias = backward(ours, x, dy)

    channels = shape[1]
    weight = ours.weight.detach() if affine else torch.ones(channels)
    if mode == "train":
        # The statistics torch's forward saves for its backward.
        _, mean, invstd = torch.native_batch_norm(x, None, None, None, None, True, 0.0,
                                                  ours.eps)
    else:
        mean = running_mean
        invstd = (1.0 / torch.sqrt(running_var.double() + ours.eps)).float()
    expected = batchnormgrad.grad(channel_last(x), channel_last(dy), mean.numpy(),
                                  invstd.numpy(), weight.numpy(), train=(mode == "train"),
                                  target="mt7004")
    assert torch.equal(dx, channel_first(expected[0], x))
    if affine:
        assert torch.equal(dweight, torch.from_numpy(expected[1]))
        assert torch.equal(dbias, torch.from_numpy(expected[2]))
    else:
        assert dweight is None and dbias is None


@pytest.mark.parametrize("ours_cls,torch_cls,shape", LAYOUTS, ids=LAYOUT_IDS)
@pytest.mark.parametrize("mode", ["train", "eval"])
def test_backward_is_close_to_torchs(ours_cls, torch_cls, shape, mode):
    theirs, ours = make_pair(torch_cls, shape[1])
    getattr(theirs, mode)()
    getattr(ours, mode)()
    x = random_input(shape, seed=3)
    dy = torch.randn(shape, generator=torch.Generator().manual_seed(4))
    if mode == "train":
        _, mean, invstd = torch.native_batch_norm(x, None, None, None, None, True, 0.0,
                                                  theirs.eps)
    else:
        mean = theirs.running_mean.clone()
        invstd = (1.0 / torch.sqrt(theirs.running_var.double() + theirs.eps)).float()
    magnitudes = magnitude(x, dy, mean, invstd, theirs.weight.detach(), mode == "train")
    m = x.numel() // shape[1]
    ours_grads = backward(ours, x, dy)
    theirs_grads = backward(theirs, x, dy)
    # Both sides evaluate the same formulas from the same saved statistics. Ours is within
    # 1 ulp (≤ 2u·|y*| ≤ 2u·M) + 2^-44·M of the exact value (the certificate). Torch's sums of
    # m float32 terms are, in any order, within γ(m-1)·Σ|terms| ≈ (m - 1)·u·Σ|terms| of exact
    # (Higham, Accuracy and Stability, §4.2): that is (m - 1)·u·M for dweight and dbias;
    # dx inherits these errors scaled by |scale·invstd|/m and |scale·invstd·xhat|/m, again
    # at most (m - 1)·u·M, plus a few roundings of its own. So every output lies within
    # (m + 8)·u·M of ours. Measured: at most 2·u·M.
    for name, ours_grad, theirs_grad, output_m in zip(("dx", "dweight", "dbias"), ours_grads,
                                                      theirs_grads, magnitudes):
        tolerance = (m + 8) * U32 * output_m
        difference = (ours_grad.double() - theirs_grad.double()).abs()
        assert torch.all(difference <= tolerance), (
            f"{name}: worst |ours - torch| / (u·M) = {(difference / (U32 * output_m)).max():.3g}"
            f", allowed m + 8 = {m + 8}")


def test_gradients_only_for_what_requires_them():
    theirs, ours = make_pair(torch.nn.BatchNorm2d, 5)
    x = random_input((4, 5, 3, 3), seed=5)
    dy = torch.randn(x.shape, generator=torch.Generator().manual_seed(6))
    full = backward(ours, x, dy)

    # Input without grad: weight and bias still get theirs, and the same bits.
    ours.zero_grad(set_to_none=True)
    ours(x).backward(dy)
    assert torch.equal(ours.weight.grad, full[1]) and torch.equal(ours.bias.grad, full[2])

    # Frozen parameters: only dx.
    ours.zero_grad(set_to_none=True)
    ours.requires_grad_(False)
    x_grad = x.clone().requires_grad_(True)
    ours(x_grad).backward(dy)
    assert torch.equal(x_grad.grad, full[0])
    assert ours.weight.grad is None and ours.bias.grad is None


def test_convert_keeps_the_state():
    model = torch.nn.Sequential(torch.nn.Conv2d(2, 4, 3), torch.nn.BatchNorm2d(4),
                                torch.nn.Flatten(), torch.nn.Linear(4 * 4 * 4, 3),
                                torch.nn.BatchNorm1d(3, momentum=None))
    for seed in range(2):
        model(random_input((8, 2, 6, 6), seed))
    model.eval()
    state = model.state_dict()

    copy = convert(model)
    assert type(model[1]) is torch.nn.BatchNorm2d, "convert() without inplace copies"
    assert (type(copy[1]), type(copy[4])) == (BatchNorm2d, BatchNorm1d)
    assert not copy.training and copy[4].momentum is None
    converted_state = copy.state_dict()
    assert list(converted_state) == list(state)
    assert all(torch.equal(converted_state[key], value) for key, value in state.items())

    weight = model[1].weight
    assert convert(model, inplace=True) is model
    assert type(model[1]) is BatchNorm2d and model[1].weight is weight


def test_nan_in_one_channel_stays_in_that_channel():
    """A NaN input makes its channel's mean NaN: torch gives NaN for that channel's dx and
    dweight, and so do we (the exact result does not exist there). dbias = Σ dy does not
    depend on x and stays finite on both sides. The other channels are untouched."""
    theirs, ours = make_pair(torch.nn.BatchNorm2d, 4)
    x = random_input((3, 4, 2, 2), seed=7)
    x[1, 2, 0, 1] = float("nan")
    dy = torch.randn(x.shape, generator=torch.Generator().manual_seed(8))
    for ours_grad, theirs_grad in zip(backward(ours, x, dy), backward(theirs, x, dy)):
        assert torch.equal(torch.isnan(ours_grad), torch.isnan(theirs_grad))
    dx, dweight, dbias = backward(ours, x, dy)
    assert torch.isnan(dx[:, 2]).all() and torch.isnan(dweight[2])
    assert torch.isfinite(dbias).all()
    clean = x.clone()
    clean[:, 2] = 0.0
    clean_dx, clean_dweight, _ = backward(ours, clean, dy)
    others = [0, 1, 3]
    assert torch.equal(dx[:, others], clean_dx[:, others])
    assert torch.equal(dweight[others], clean_dweight[others])


def test_channels_last_memory_format_input():
    """A channels_last tensor is channel-last in memory already; the backward is still the
    kernel on the channel-last arrays (with the statistics torch's forward saved from it,
    which may differ in the last bits from those of a contiguous input: another sum order)."""
    _, ours = make_pair(torch.nn.BatchNorm2d, 6)
    x = random_input((4, 6, 5, 3), seed=9).to(memory_format=torch.channels_last)
    dy = torch.randn(x.shape, generator=torch.Generator().manual_seed(10))
    dx, dweight, dbias = backward(ours, x, dy)
    _, mean, invstd = torch.native_batch_norm(x, None, None, None, None, True, 0.0, ours.eps)
    expected = batchnormgrad.grad(channel_last(x), channel_last(dy), mean.numpy(),
                                  invstd.numpy(), ours.weight.detach().numpy(), train=True)
    assert torch.equal(dx, channel_first(expected[0], x))
    assert torch.equal(dweight, torch.from_numpy(expected[1]))
    assert torch.equal(dbias, torch.from_numpy(expected[2]))


@pytest.mark.parametrize("mode", ["train", "eval"])
def test_empty_batch_is_torchs(mode):
    """Empty input takes torch's own path (no kernel call exists for batch 0)."""
    theirs, ours = make_pair(torch.nn.BatchNorm2d, 3)
    getattr(theirs, mode)()
    getattr(ours, mode)()
    x = torch.zeros(0, 3, 2, 2)
    assert torch.equal(ours(x), theirs(x))
    for ours_grad, theirs_grad in zip(backward(ours, x, x), backward(theirs, x, x)):
        assert torch.equal(ours_grad, theirs_grad)
    assert torch.equal(ours.running_var, theirs.running_var)


def test_float64_falls_back_to_torchs_backward():
    """No kernel takes binary64: the module runs torch's own forward and backward."""
    theirs, ours = make_pair(torch.nn.BatchNorm1d, 4)
    theirs.double()
    ours.double()
    x = random_input((16, 4), seed=11).double()
    dy = torch.randn(x.shape, generator=torch.Generator().manual_seed(12), dtype=torch.float64)
    for ours_grad, theirs_grad in zip(backward(ours, x, dy), backward(theirs, x, dy)):
        assert torch.equal(ours_grad, theirs_grad)
    assert torch.equal(ours.running_var, theirs.running_var)
