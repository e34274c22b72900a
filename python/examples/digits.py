"""Trains a small convolutional network on scikit-learn's handwritten digits twice: once with
torch.nn's BatchNorm layers, once with batchnormgrad.torch's (the same forward, our kernel's
backward), from the same seed, initial weights and data order.

    PYTHONPATH=build/release/python /usr/bin/python3 python/examples/digits.py \
        [--epochs 8] [--seed 0] [--plot docs/images/digits-loss.png] [--json digits.json]

The data set ships with scikit-learn (sklearn.datasets.load_digits: 1,797 8×8 images, no
download). Prints the loss per epoch and the final test accuracy of both runs, plots the two
loss curves and optionally writes the numbers as JSON. tests/python/test_digits.py calls
train(); docs/python.md shows the result.
"""

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from batchnormgrad.torch import convert

# The split is fixed whatever the training seed: 20 % of the images, stratified by digit.
TEST_SHARE = 0.2
SPLIT_SEED = 0
BATCH_SIZE = 64
LEARNING_RATE = 1e-3
DEFAULT_PLOT = Path(__file__).resolve().parents[2] / "docs" / "images" / "digits-loss.png"


def load_split():
    """(train images, train labels, test images, test labels) as tensors, images (N, 1, 8, 8)
    scaled from 0..16 to 0..1."""
    digits = load_digits()
    images = digits.images.astype(np.float32) / 16.0
    train_x, test_x, train_y, test_y = train_test_split(
        images, digits.target, test_size=TEST_SHARE, random_state=SPLIT_SEED,
        stratify=digits.target)
    as_tensors = (lambda x, y: (torch.from_numpy(x).unsqueeze(1), torch.from_numpy(y).long()))
    return (*as_tensors(train_x, train_y), *as_tensors(test_x, test_y))


def build_model(use_ours):
    """conv-BN2d-ReLU ×2, max-pool, linear-BN1d-ReLU, linear. Built with torch.nn's layers
    (the same initial weights for a given torch seed); convert() then swaps in ours."""
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
        torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.BatchNorm2d(32), torch.nn.ReLU(),
        torch.nn.MaxPool2d(2), torch.nn.Flatten(),
        torch.nn.Linear(32 * 4 * 4, 64), torch.nn.BatchNorm1d(64), torch.nn.ReLU(),
        torch.nn.Linear(64, 10))
    return convert(model, inplace=True) if use_ours else model


def accuracy(model, images, labels):
    model.eval()
    with torch.no_grad():
        return (model(images).argmax(dim=1) == labels).float().mean().item()


def train(use_ours, epochs, seed):
    """Trains from ``seed`` (initial weights and batch order) with Adam; returns
    {"losses": mean training loss per epoch, "test_accuracy": share of the test images
    classified right, "seconds": training time}."""
    train_x, train_y, test_x, test_y = load_split()
    torch.manual_seed(seed)
    model = build_model(use_ours)
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
    order = torch.Generator().manual_seed(seed)
    losses = []
    start = time.perf_counter()
    for _ in range(epochs):
        model.train()
        total, batches = 0.0, 0
        for batch in torch.randperm(len(train_x), generator=order).split(BATCH_SIZE):
            # A last batch of one image has no batch statistics (BatchNorm1d refuses it).
            if len(batch) < 2:
                continue
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(train_x[batch]), train_y[batch])
            loss.backward()
            optimizer.step()
            total += loss.item()
            batches += 1
        losses.append(total / batches)
    seconds = time.perf_counter() - start
    return {"losses": losses, "test_accuracy": accuracy(model, test_x, test_y),
            "seconds": seconds}


def relative_difference(results):
    """Per epoch, |our loss / torch.nn's loss - 1|."""
    pairs = zip(results["batchnormgrad.torch"]["losses"], results["torch.nn"]["losses"])
    return [abs(ours / theirs - 1) for ours, theirs in pairs]


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    figure, (curves, drift) = plt.subplots(2, 1, figsize=(6, 5.4), sharex=True,
                                           gridspec_kw={"height_ratios": [2, 1]})
    for label, style in (("torch.nn", "-o"), ("batchnormgrad.torch", "--x")):
        losses = results[label]["losses"]
        accuracy_percent = 100 * results[label]["test_accuracy"]
        curves.plot(range(1, len(losses) + 1), losses, style,
                    label=f"{label} (test accuracy {accuracy_percent:.1f} %)")
    curves.set_ylabel("mean training loss")
    curves.set_yscale("log")
    curves.set_title("Digits, same seed and data order: torch's backward vs ours")
    curves.legend()
    # The curves lie on each other; their relative distance shows how far they drift.
    difference = relative_difference(results)
    drift.semilogy(range(1, len(difference) + 1), difference, "-s", color="grey")
    drift.set_xlabel("epoch")
    drift.set_ylabel("|ours / torch.nn − 1|")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1,
                        help="torch threads (default 1: small tensors gain nothing from more)")
    parser.add_argument("--plot", type=Path, default=DEFAULT_PLOT, help="PNG of the loss curves")
    parser.add_argument("--json", type=Path, help="write the numbers here")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    results = {}
    for label, use_ours in (("torch.nn", False), ("batchnormgrad.torch", True)):
        result = train(use_ours, args.epochs, args.seed)
        results[label] = result
        print(f"{label}: " + ", ".join(f"epoch {epoch} loss {loss:.4f}"
                                       for epoch, loss in enumerate(result["losses"], 1)))
        print(f"{label}: test accuracy {100 * result['test_accuracy']:.2f} % "
              f"({result['seconds']:.1f} s)")
    print(f"largest relative difference of an epoch's loss: "
          f"{max(relative_difference(results)):.2e}")
    plot(results, args.plot)
    print(f"plot: {args.plot}")
    if args.json:
        settings = {"epochs": args.epochs, "seed": args.seed, "threads": args.threads,
                    "batch_size": BATCH_SIZE, "learning_rate": LEARNING_RATE,
                    "test_share": TEST_SHARE}
        args.json.write_text(json.dumps({"settings": settings, "results": results}, indent=2)
                             + "\n")
        print(f"json: {args.json}")


if __name__ == "__main__":
    main()
