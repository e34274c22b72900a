"""Shared fixtures of the Python face's tests (ctest -L python; docs/python.md).

ctest runs each file with PYTHONPATH at the build's python/ folder; BNG_BNGCERT
names the bngcert executable of the same build.
"""

import os

import numpy as np
import pytest


def random_call(rng, shape, data=np.float32, stats=np.float32, spread=1.0):
    """(x, dy, mean, invar, scale) of a plausible training call: statistics of x itself."""
    x = (rng.standard_normal(shape) * spread + rng.standard_normal(shape[-1])).astype(data)
    dy = rng.standard_normal(shape).astype(data)
    rows = x.astype(np.float64).reshape(-1, shape[-1])
    mean = rows.mean(axis=0).astype(stats)
    invar = (1.0 / np.sqrt(rows.var(axis=0) + 1e-5)).astype(stats)
    scale = rng.uniform(0.5, 2.0, shape[-1]).astype(stats)
    return x, dy, mean, invar, scale


@pytest.fixture
def rng():
    return np.random.default_rng(20261203)


@pytest.fixture
def bngcert():
    path = os.environ.get("BNG_BNGCERT")
    if not path:
        pytest.fail("BNG_BNGCERT is not set: run these tests through ctest (-L python)")
    return path
