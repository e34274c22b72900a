"""batchnormgrad.torch: PyTorch's batch normalization with our backward, and an audit of PyTorch's.

Two things for PyTorch users (CPU, eager mode), built on the package's grad() and judge():

- BatchNorm1d and BatchNorm2d: drop-in subclasses of torch.nn.BatchNorm1d/2d. The forward pass
  is torch's own (torch.native_batch_norm: the same outputs, the same running-statistics
  updates); the backward pass runs the mt7004 fp kernel (batchnormgrad.grad) on channel-last
  copies of the saved input and the incoming gradient. convert(model) swaps them in for
  torch's.
- audit(model, inputs, targets, loss_fn, out=DIR): one real training step of the model, with
  every batch-norm backward that PyTorch itself computes judged against the exact reference
  (batchnormgrad.judge), one report folder per layer and a summary. ``python3 -m batchnormgrad
  audit`` (audit_cli.py) runs it on a TorchScript file.

Only this module and the audit command import torch: the rest of the package needs numpy
alone. docs/python.md is the guide.
"""

import copy
import io
import json
import math
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.autograd.function import once_differentiable

from . import Error, grad, judge, reference

__all__ = ["BatchNorm1d", "BatchNorm2d", "convert", "audit", "AuditError"]

# The kernel every backward here runs, and the target audit() judges PyTorch against.
TARGET = "mt7004"


class AuditError(Error):
    """The audit could not run: the model or the loss fails on the inputs, no batch-norm layer
    in the step's autograd graph, a layer in a dtype without a kernel format, or an output
    folder that is not empty."""


def _channel_last(tensor):
    """(N, C, *spatial) -> a C-contiguous float32 numpy array (N, *spatial, C).

    (N, C) is channel-last already. A channels_last tensor permutes to a contiguous one, so
    it is not copied.
    """
    tensor = tensor.detach()
    if tensor.dim() > 2:
        tensor = tensor.permute(0, *range(2, tensor.dim()), 1)
    return tensor.contiguous().numpy()


def _channel_first(array):
    """The inverse of _channel_last: (N, *spatial, C) numpy -> a (N, C, *spatial) tensor view."""
    tensor = torch.from_numpy(array)
    if tensor.dim() > 2:
        tensor = tensor.permute(0, tensor.dim() - 1, *range(1, tensor.dim() - 1))
    return tensor


def _running_invstd(running_var, eps):
    """1/sqrt(running_var + eps) as PyTorch's CPU backward computes it in inference: in binary64
    (eps is a double there), rounded once to float32. Measured on torch 1.13: a float32
    evaluation differs in the last bit for about a quarter of the channels."""
    return (1.0 / torch.sqrt(running_var.double() + eps)).float()


class _BatchNormFunction(torch.autograd.Function):
    """torch.native_batch_norm forward; backward by batchnormgrad.grad (mt7004 fp kernel)."""

    @staticmethod
    def forward(ctx, input, weight, bias, running_mean, running_var, use_batch_stats, momentum,
                eps):
        output, save_mean, save_invstd = torch.native_batch_norm(
            input, weight, bias, running_mean, running_var, use_batch_stats, momentum, eps)
        if use_batch_stats:
            mean, invstd = save_mean, save_invstd
        else:
            # Copies: the buffers may be updated in place (a later training forward) before
            # this graph's backward runs.
            mean, invstd = running_mean.clone(), _running_invstd(running_var, eps)
        ctx.use_batch_stats = use_batch_stats
        ctx.save_for_backward(input, weight, mean, invstd)
        return output

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        input, weight, mean, invstd = ctx.saved_tensors
        # Without affine parameters the layer's scale is 1.
        scale = weight.detach() if weight is not None else torch.ones(input.shape[1])
        dx, dscale, dbias = grad(_channel_last(input), _channel_last(grad_output), mean.numpy(),
                                 invstd.numpy(), scale.numpy(), train=ctx.use_batch_stats,
                                 target=TARGET)
        needs_dx, needs_dweight, needs_dbias = ctx.needs_input_grad[:3]
        return (_channel_first(dx) if needs_dx else None,
                torch.from_numpy(dscale) if needs_dweight else None,
                torch.from_numpy(dbias) if needs_dbias else None, None, None, None, None, None)


class _KernelBackward:
    """The forward of torch.nn.modules.batchnorm._BatchNorm (torch 1.13), with F.batch_norm
    replaced by _BatchNormFunction. Mixed in before torch's class, so that everything else
    (state_dict, running statistics, momentum, affine, track_running_stats, eval) is torch's.

    Falls back to torch's own forward and backward for input that is not float32 on the CPU:
    the fp kernel takes binary32 (SPEC §1), and the binary16 kernels would need float16 batch
    norm, which PyTorch's CPU forward does not run (torch 1.13: "batch_norm" not implemented
    for 'Half', with float16 or float32 parameters alike); float64 has no kernel format. Also
    for empty input: torch handles it before native_batch_norm (which divides by zero on it),
    and the C library has no call for batch 0.
    """

    def forward(self, input):
        parameters = [t for t in (self.weight, self.running_mean) if t is not None]
        if (input.dtype != torch.float32 or input.device.type != "cpu" or input.numel() == 0
                or any(t.dtype != torch.float32 for t in parameters)):
            return super().forward(input)
        self._check_input_dim(input)

        # Momentum None is a cumulative moving average: its factor is 1/(batches tracked).
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:
                momentum = 1.0 / float(self.num_batches_tracked)

        # Batch statistics in training, and in eval when there are no running buffers.
        use_batch_stats = self.training or (self.running_mean is None
                                            and self.running_var is None)
        # The buffers are passed only where torch passes them: updated in training when
        # tracked, read in eval.
        keep_buffers = not self.training or self.track_running_stats
        running_mean = self.running_mean if keep_buffers else None
        running_var = self.running_var if keep_buffers else None

        if use_batch_stats:
            F._verify_batch_size(input.size())
        return _BatchNormFunction.apply(input, self.weight, self.bias, running_mean,
                                        running_var, use_batch_stats, momentum, self.eps)


class BatchNorm1d(_KernelBackward, torch.nn.BatchNorm1d):
    """torch.nn.BatchNorm1d whose backward runs batchnormgrad's mt7004 fp kernel.

    Input (N, C) or (N, C, L), float32 on the CPU (otherwise torch's own backward, see
    _KernelBackward). The backward is not differentiable again (no double backward).
    """


class BatchNorm2d(_KernelBackward, torch.nn.BatchNorm2d):
    """torch.nn.BatchNorm2d whose backward runs batchnormgrad's mt7004 fp kernel.

    Input (N, C, H, W), float32 on the CPU (otherwise torch's own backward, see
    _KernelBackward). The backward is not differentiable again (no double backward).
    """


_OURS = {torch.nn.BatchNorm1d: BatchNorm1d, torch.nn.BatchNorm2d: BatchNorm2d}


def convert(model, *, inplace=False):
    """Every torch.nn.BatchNorm1d/2d in ``model`` (the model itself included) becomes ours.

    Returns the converted model: a deep copy, or ``model`` itself with ``inplace=True``. Each
    module keeps its parameters (the same Parameter objects, so an optimizer built on them
    still holds them), buffers, hooks and training mode: only its class changes, which is
    sound because ours add no state. Subclasses of torch's classes are left alone.
    """
    if not inplace:
        model = copy.deepcopy(model)
    for module in model.modules():
        ours = _OURS.get(type(module))
        if ours is not None:
            module.__class__ = ours
    return model


# --- audit -----------------------------------------------------------------------------------

# The autograd node of torch's CPU batch norm (torch/csrc/autograd/generated): the one whose
# backward the audit judges.
_NODE_NAME = "NativeBatchNormBackward0"


class _Layer:
    """One batch-norm call found in the step's autograd graph, with what its backward got."""

    def __init__(self, node, name, module_index):
        self.name = name
        self.module_index = module_index
        self.train = node._saved_training
        # Saved tensors are freed by the backward pass: copy them first.
        self.input = node._saved_input.detach().clone()
        weight = node._saved_weight
        self.weight = None if weight is None else weight.detach().clone()
        if self.train:
            self.mean = node._saved_result1.detach().clone()
            self.invstd = node._saved_result2.detach().clone()
        else:
            # A layer left in eval mode inside a training model: torch's backward normalises
            # with the running statistics.
            self.mean = node._saved_running_mean.detach().clone()
            self.invstd = _running_invstd(node._saved_running_var.detach(), node._saved_eps)
        self.grads = None
        node.register_hook(self._record)

    def _record(self, grad_inputs, grad_outputs):
        # Clones: autograd may accumulate into these buffers after the hook.
        self.grads = ([None if g is None else g.detach().clone() for g in grad_inputs],
                      grad_outputs[0].detach().clone())


def _batchnorm_nodes(loss):
    """Every _NODE_NAME node reachable from loss.grad_fn, the first-run layer first."""
    found, seen, stack = [], set(), [loss.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if node.name() == _NODE_NAME:
            found.append(node)
        stack.extend(next_node for next_node, _ in node.next_functions)
    # Depth-first from the loss meets the last layer first.
    return found[::-1]


def _is_batchnorm_module(module):
    if isinstance(module, torch.jit.ScriptModule):
        return getattr(module, "original_name", "").startswith("BatchNorm")
    return isinstance(module, torch.nn.modules.batchnorm._BatchNorm)


def _name_layers(nodes, model):
    """(one _Layer per node, the batch-norm modules no node belongs to).

    A node is named after the module whose weight (or, without affine parameters, running
    mean) it saved: the same storage; the model itself, when it is the layer, is "model". A
    module with neither (affine=False, track_running_stats=False) cannot be recognised: its
    calls are named batchnorm<k>, k counting the step's batch-norm calls from 0.
    """
    by_storage = {}
    for index, (name, module) in enumerate(model.named_modules()):
        if not _is_batchnorm_module(module):
            continue
        for tensor in (module.weight, module.running_mean):
            if tensor is not None:
                by_storage[tensor.data_ptr()] = (name or "model", index)
    layers, used = [], set()
    for k, node in enumerate(nodes):
        key = None
        for saved in ("_saved_weight", "_saved_running_mean"):
            tensor = getattr(node, saved)
            if tensor is not None and tensor.numel() > 0 and tensor.data_ptr() in by_storage:
                key = tensor.data_ptr()
                break
        name, index = by_storage.get(key, (f"batchnorm{k}", math.inf))
        unique, call = name, 1
        while unique in used:  # a module called more than once in the step
            call += 1
            unique = f"{name}_call{call}"
        used.add(unique)
        layers.append(_Layer(node, unique, index))
    module_indices = dict(by_storage.values())
    unseen = sorted(set(module_indices) - {layer.name for layer in layers},
                    key=module_indices.get)
    # Module order, the natural reading order; a module's calls in call order, unrecognised
    # layers last.
    return sorted(layers, key=lambda layer: layer.module_index), unseen


def _fresh_copy(model):
    """A copy to run the step on, so that the caller's model (running statistics, .grad,
    training flags) is untouched.

    A ScriptModule goes through torch.jit.save/load: a deep copy would share the compiled
    methods and their executors, which after a few calls have fused batch norm into a
    differentiable graph whose backward shows no _NODE_NAME node (measured on torch 1.13:
    from the second call of a conv-BN-ReLU model on).
    """
    if isinstance(model, torch.jit.ScriptModule):
        buffer = io.BytesIO()
        torch.jit.save(model, buffer)
        buffer.seek(0)
        return torch.jit.load(buffer)
    return copy.deepcopy(model)


def _with_grad(inputs):
    """Floating-point inputs made to require grad, so that a batch norm applied directly to
    them has its dx computed too (autograd skips gradients nobody asked for)."""
    def prepare(tensor):
        if isinstance(tensor, torch.Tensor) and tensor.is_floating_point():
            return tensor.detach().clone().requires_grad_(True)
        return tensor
    if isinstance(inputs, (tuple, list)):
        return tuple(prepare(t) for t in inputs)
    return (prepare(inputs),)


def _json_number(value):
    """report.json's convention (docs/report-format.md): non-finite numbers as strings."""
    value = float(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def _judge_layer(layer, directory, path):
    """Judges torch's (dx, dweight, dbias) of one layer; writes its report into directory."""
    if layer.input.dtype != torch.float32:
        raise AuditError(f"layer {layer.name}: {layer.input.dtype}; the audit judges float32 "
                         "batch norm (the fp kernel format) only")
    if layer.grads is None:
        raise AuditError(f"layer {layer.name}: the backward pass did not reach it")
    (dx, dweight, dbias), dy = layer.grads
    channels = layer.input.shape[1]
    x_np, dy_np = _channel_last(layer.input), _channel_last(dy)
    mean, invstd = layer.mean.numpy(), layer.invstd.numpy()
    scale = (layer.weight if layer.weight is not None else torch.ones(channels)).numpy()
    judged = ["dx", "dscale", "dbias"]
    if dweight is None:
        # No affine parameters: torch computes no dweight/dbias. The exact results stand in
        # for them so that the judgement is dx's alone; the summary says which were judged.
        _, dweight_np, dbias_np = reference(x_np, dy_np, mean, invstd, scale, train=layer.train,
                                            path=path)
        judged = ["dx"]
    else:
        dweight_np, dbias_np = dweight.numpy(), dbias.numpy()
    judgement = judge(x_np, dy_np, mean, invstd, scale, _channel_last(dx), dweight_np, dbias_np,
                      train=layer.train, target=TARGET, path=path)
    judgement.write_report(directory)
    outputs = {name: getattr(judgement, name) for name in ("dx", "dscale", "dbias")}
    return {
        "layer": layer.name,
        "report": directory.name,
        "shape": list(layer.input.shape),
        "channels": channels,
        "train": layer.train,
        "judged_outputs": judged,
        "passed": all(outputs[name].fails == 0 and outputs[name].nonfinite_where_finite == 0
                      for name in judged),
        "worst_bound_use": max(outputs[name].max_bound_use for name in judged),
        "max_bound_use": {name: outputs[name].max_bound_use for name in judged},
        "failing": {name: int(outputs[name].fails) for name in judged},
        "nonfinite_where_finite": {name: int(outputs[name].nonfinite_where_finite)
                                   for name in judged},
        "dx_correctly_rounded_share": outputs["dx"].correctly_rounded_share,
        "dx_max_ulp_error": outputs["dx"].max_ulp_error,
    }


def _json_layer(layer):
    """A layer's summary entry with its floating-point figures in report.json's convention."""
    entry = dict(layer)
    for key in ("worst_bound_use", "dx_correctly_rounded_share", "dx_max_ulp_error"):
        entry[key] = _json_number(layer[key])
    entry["max_bound_use"] = {name: _json_number(use)
                              for name, use in layer["max_bound_use"].items()}
    return entry


def _write_summary(out, layers, unseen):
    passed = all(layer["passed"] for layer in layers)
    summary = {
        "schema": "batchnormgrad-audit", "schema_version": 1, "target": TARGET,
        "passed": passed,
        "layers": [_json_layer(layer) for layer in layers],
        "unseen_batchnorm_modules": unseen,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")

    lines = [f"# Audit of PyTorch's batch-norm backward ({TARGET} fp bound)", "",
             f"Verdict: **{'PASS' if passed else 'FAIL'}** over {len(layers)} layers. "
             "Bound use ≤ 1 passes; each layer's report is in its folder.", "",
             "| layer | input shape | mode | judged | verdict | worst bound use | dx max ULP "
             "| dx correctly rounded | non-finite where finite |",
             "|---|---|---|---|---|---|---|---|---|"]
    for layer in layers:
        nonfinite = ", ".join(f"{k} {v}" for k, v in layer["nonfinite_where_finite"].items())
        lines.append(
            f"| [{layer['layer']}]({layer['report']}/report.md) | {tuple(layer['shape'])} "
            f"| {'training' if layer['train'] else 'inference'} "
            f"| {', '.join(layer['judged_outputs'])} | {'PASS' if layer['passed'] else 'FAIL'} "
            f"| {layer['worst_bound_use']:.3g} | {layer['dx_max_ulp_error']:.3g} "
            f"| {100 * layer['dx_correctly_rounded_share']:.1f} % | {nonfinite} |")
    if unseen:
        lines += ["", "Batch-norm modules with no NativeBatchNormBackward0 in this step (unused "
                  "by the forward, or not torch's batch norm): " + ", ".join(unseen)]
    (out / "summary.md").write_text("\n".join(lines) + "\n")


def audit(model, inputs, targets, loss_fn, out, *, path="tiered"):
    """Judges PyTorch's own batch-norm backward in one real training step of ``model``.

    On a copy of the model (the caller's is left as it was): train mode, forward on
    ``inputs`` (a tensor, or a tuple of tensors passed as separate arguments), ``loss_fn(output,
    targets)``, backward; no optimizer step. Every batch-norm call of the step, found as a
    NativeBatchNormBackward0 node of the autograd graph, has its (dx, dweight, dbias) judged
    against the exact results at the mt7004 fp kernel's declared bound. Eager and TorchScript
    models alike (TorchScript runs unoptimised for the step, see _fresh_copy).

    Writes into ``out`` (created; must be empty if it exists) one report folder per layer (the
    module name with dots as underscores), summary.json and summary.md. Returns the summary's
    layers: dicts with layer, report, shape, channels, train, judged_outputs, passed,
    worst_bound_use, max_bound_use, failing, nonfinite_where_finite, dx_correctly_rounded_share
    and dx_max_ulp_error. ``path`` chooses the reference ("tiered" or "exact", as in reference()).
    """
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise AuditError(f"{out}: exists and is not an empty directory")

    model = _fresh_copy(model)
    model.train()
    # Unoptimised TorchScript keeps every operator's own autograd node. The legacy executor
    # (torch._C._jit_set_profiling_executor(False)) would otherwise fuse batch norm into a
    # differentiable graph on the very first call (measured on torch 1.13), the profiling
    # executor after its profiling run (see _fresh_copy).
    with torch.enable_grad(), torch.jit.optimized_execution(False):
        try:
            loss = loss_fn(model(*_with_grad(inputs)), targets)
        except Exception as error:  # whatever the model's or the loss's code raises
            message = (str(error).strip().splitlines() or [type(error).__name__])[0]
            raise AuditError(f"the model or the loss does not run on these inputs: "
                             f"{message}") from error
        if not (isinstance(loss, torch.Tensor) and loss.dim() == 0):
            raise AuditError("the loss is not a scalar tensor")
        layers, unseen = _name_layers(_batchnorm_nodes(loss), model)
        if not layers:
            raise AuditError("no batch-norm layer in the step's autograd graph "
                             f"(no {_NODE_NAME} node reachable from the loss)")
        loss.backward()

    out.mkdir(parents=True, exist_ok=True)
    results = [_judge_layer(layer, out / layer.name.replace(".", "_"), path) for layer in layers]
    _write_summary(out, results, unseen)
    return results
