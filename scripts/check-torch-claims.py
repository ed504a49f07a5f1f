#!/usr/bin/env python3
"""Check the PyTorch claims the bundled quizzes teach by running them.

Each claim names the question (content/en/<quiz>.yaml, by id) whose text it backs. Run it by hand
with a CPU build of torch, numpy, safetensors and huggingface_hub installed (torch is not a
dependency of quizbank or of its test suite):

    python -m venv /tmp/torchenv
    /tmp/torchenv/bin/pip install torch numpy safetensors huggingface_hub
    /tmp/torchenv/bin/python scripts/check-torch-claims.py

It prints each claim with OK or FAIL (and why) and exits 1 when a claim fails, 0 otherwise.
"""

from __future__ import annotations

import os
import pickle
import random
import sys
import tempfile
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.distributed.checkpoint as dcp
from huggingface_hub import split_torch_state_dict_into_shards
from safetensors.torch import save_file
from torch.distributed.checkpoint.api import CheckpointException
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict

Claim = Callable[[Path], None]
CLAIMS: list[tuple[str, Claim]] = []


def claim(text: str) -> Callable[[Claim], Claim]:
    """Register a check under the sentence it proves."""

    def register(check: Claim) -> Claim:
        CLAIMS.append((text, check))
        return check

    return register


def trained() -> tuple[torch.nn.Module, torch.optim.Optimizer, Any, torch.amp.GradScaler]:
    """A small model after two AdamW steps, with a cosine schedule and a GradScaler."""
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 3)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no CUDA: the scaler is disabled, its state_dict is not
        scaler = torch.amp.GradScaler("cpu")
    for _ in range(2):
        model(torch.randn(2, 4)).sum().backward()
        optimizer.step()
        optimizer.zero_grad()
        scheduler.step()
    return model, optimizer, scheduler, scaler


def save_and_load(tmp: Path, obj: object, **load_args: Any) -> Any:
    path = tmp / "ckpt.pt"
    torch.save(obj, path)
    return torch.load(path, **load_args)


def load_fails(tmp: Path, obj: object) -> str:
    """The message of the error torch.load's default raises for `obj`; fails when it loads."""
    try:
        save_and_load(tmp, obj)
    except pickle.UnpicklingError as error:
        return str(error)
    raise AssertionError("loaded with the default torch.load")


@claim("load-default: torch.load's default refuses a pickled nn.Module (weights_only=True)")
def _module_refused(tmp: Path) -> None:
    model, *_ = trained()
    assert "weights_only" in load_fails(tmp, model)


@claim(
    "load-default: a checkpoint of model, optimizer, scheduler and scaler state dicts, the step "
    "and the torch and Python RNG states loads with the default torch.load"
)
def _state_dicts_load(tmp: Path) -> None:
    model, optimizer, scheduler, scaler = trained()
    checkpoint = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "scaler": scaler.state_dict(),
        "step": 2,
        "torch_rng": torch.get_rng_state(),
        "python_rng": random.getstate(),
    }
    loaded = save_and_load(tmp, checkpoint)
    assert loaded["python_rng"] == random.getstate()
    assert torch.equal(loaded["torch_rng"], torch.get_rng_state())


@claim(
    "load-default d: an optimizer's param_groups hold tuples (betas), booleans and None, "
    "which weights_only=True allows"
)
def _param_groups(tmp: Path) -> None:
    _, optimizer, *_ = trained()
    group = optimizer.state_dict()["param_groups"][0]
    kinds = {type(value) for value in group.values()}
    assert {tuple, bool, type(None)} <= kinds, kinds
    assert save_and_load(tmp, optimizer.state_dict())["param_groups"][0] == group


@claim(
    "reseed-resume, preemptible-scheme, load-default: numpy.random.get_state() in a checkpoint "
    "makes the default torch.load fail (UnpicklingError naming numpy's _reconstruct)"
)
def _numpy_state_refused(tmp: Path) -> None:
    message = load_fails(tmp, {"numpy_rng": np.random.get_state()})
    assert "_reconstruct" in message, message
    assert "_reconstruct" in load_fails(tmp, {"numpy_rng": np.random.get_state(legacy=False)})


NUMPY_GLOBALS: list[Any] = [
    np._core.multiarray._reconstruct,
    np.ndarray,
    np.dtype,
    type(np.dtype(np.uint32)),
]


@claim(
    "reseed-resume, load-default: loaded inside torch.serialization.safe_globals([...]) (the "
    "globals the errors name), or after add_safe_globals([...]), NumPy's RNG state loads and "
    "restores the same random numbers"
)
def _numpy_state_safe_globals(tmp: Path) -> None:
    np.random.seed(7)
    np.random.random(5)
    saved = np.random.get_state()
    expected = np.random.random(3)
    with torch.serialization.safe_globals(NUMPY_GLOBALS):
        state = save_and_load(tmp, {"numpy_rng": saved})["numpy_rng"]
    np.random.set_state(state)
    assert np.array_equal(np.random.random(3), expected)
    torch.serialization.add_safe_globals(NUMPY_GLOBALS)  # for the rest of this process
    np.random.set_state(save_and_load(tmp, {"numpy_rng": saved})["numpy_rng"])
    assert np.array_equal(np.random.random(3), expected)


@claim(
    "reseed-resume: NumPy's RNG state saved as a list (or a tensor) loads with the default "
    "torch.load and restores the same random numbers"
)
def _numpy_state_as_list(tmp: Path) -> None:
    np.random.seed(7)
    np.random.random(5)
    legacy: Any = np.random.get_state()  # (name, keys, pos, has_gauss, cached_gaussian)
    name, keys, pos, has_gauss, cached = legacy
    expected = np.random.random(3)
    as_list = save_and_load(tmp, {"numpy_rng": [name, keys.tolist(), pos, has_gauss, cached]})
    as_tensor = save_and_load(tmp, {"keys": torch.from_numpy(keys.astype(np.int64))})
    for restored in (np.array(as_list["numpy_rng"][1]), as_tensor["keys"].numpy()):
        np.random.set_state((name, restored.astype(np.uint32), pos, has_gauss, cached))
        assert np.array_equal(np.random.random(3), expected)


@claim(
    "reseed-resume: torch.manual_seed(seed) again restarts the sequence instead of restoring "
    "it; torch.set_rng_state() restores it"
)
def _reseed(tmp: Path) -> None:
    torch.manual_seed(1)
    first = torch.rand(3)
    torch.rand(100)
    state = torch.get_rng_state()
    expected = torch.rand(3)
    torch.manual_seed(1)
    assert torch.equal(torch.rand(3), first) and not torch.equal(first, expected)
    torch.set_rng_state(state)
    assert torch.equal(torch.rand(3), expected)


@claim(
    "atomic-save: open ckpt.pt.tmp, torch.save into it, flush() and os.fsync(f.fileno()), "
    "os.replace() it to ckpt.pt, fsync the directory; the result loads"
)
def _atomic_save(tmp: Path) -> None:
    model, *_ = trained()
    final, temporary = tmp / "ckpt.pt", tmp / "ckpt.pt.tmp"
    with temporary.open("wb") as file:
        torch.save({"model": model.state_dict()}, file)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, final)
    directory = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    assert not temporary.exists()
    assert torch.equal(torch.load(final)["model"]["weight"], model.state_dict()["weight"])


def dcp_save(path: Path, state: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no process group: DCP warns and runs on one rank
        dcp.save(state, checkpoint_id=str(path))


def dcp_load(path: Path, state: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dcp.load(state, checkpoint_id=str(path))


def fresh() -> tuple[torch.nn.Module, torch.optim.Optimizer]:
    torch.manual_seed(5)
    model = torch.nn.Linear(4, 3)
    return model, torch.optim.AdamW(model.parameters(), lr=1e-3)


@claim("dcp-load: DCP's save writes .metadata and one .distcp file per rank (one rank here)")
def _dcp_files(tmp: Path) -> None:
    model, optimizer, *_ = trained()
    dcp_save(tmp / "dcp", {"model": model.state_dict(), "optim": optimizer.state_dict()})
    names = sorted(path.name for path in (tmp / "dcp").iterdir())
    assert names == [".metadata", "__0_0.distcp"], names


@claim(
    "dcp-load: loading into a freshly built optimizer's state_dict() raises nothing and "
    "restores no optimizer state"
)
def _dcp_fresh_optimizer(tmp: Path) -> None:
    model, optimizer, *_ = trained()
    dcp_save(tmp / "dcp", {"model": model.state_dict(), "optim": optimizer.state_dict()})
    new_model, new_optimizer = fresh()
    state = {"model": new_model.state_dict(), "optim": new_optimizer.state_dict()}
    assert state["optim"]["state"] == {}
    dcp_load(tmp / "dcp", state)
    new_optimizer.load_state_dict(state["optim"])
    assert new_optimizer.state_dict()["state"] == {}


@claim(
    "dcp-load: get_state_dict() at save and at load (it allocates the optimizer's state), "
    "then set_state_dict(), restores Adam's exp_avg"
)
def _dcp_get_set_state_dict(tmp: Path) -> None:
    model, optimizer, *_ = trained()
    model_state, optim_state = get_state_dict(model, optimizer)
    dcp_save(tmp / "dcp", {"model": model_state, "optim": optim_state})
    new_model, new_optimizer = fresh()
    model_state, optim_state = get_state_dict(new_model, new_optimizer)
    state = {"model": model_state, "optim": optim_state}
    dcp_load(tmp / "dcp", state)
    set_state_dict(
        new_model, new_optimizer, model_state_dict=state["model"], optim_state_dict=state["optim"]
    )
    old = optimizer.state_dict()["state"][0]["exp_avg"]
    assert torch.equal(new_optimizer.state_dict()["state"][0]["exp_avg"], old)
    assert torch.equal(new_model.weight, model.weight)


@claim(
    "dcp-load: a plain optimizer.state_dict() save read back through get_state_dict() fails "
    "(Missing key in checkpoint state_dict), so both sides use get_state_dict()"
)
def _dcp_mixed(tmp: Path) -> None:
    model, optimizer, *_ = trained()
    dcp_save(tmp / "dcp", {"model": model.state_dict(), "optim": optimizer.state_dict()})
    new_model, new_optimizer = fresh()
    model_state, optim_state = get_state_dict(new_model, new_optimizer)
    try:
        dcp_load(tmp / "dcp", {"model": model_state, "optim": optim_state})
    except CheckpointException as error:  # a BaseException carrying each rank's error
        assert "Missing key in checkpoint state_dict" in str(error), error
        return
    raise AssertionError("loaded")


@claim(
    "safetensors-optimizer: safetensors.torch.save_file(optimizer.state_dict()) is refused "
    "(it takes a flat dict of name to tensor)"
)
def _safetensors_optimizer(tmp: Path) -> None:
    _, optimizer, *_ = trained()
    try:
        save_file(optimizer.state_dict(), str(tmp / "optim.safetensors"))
    except ValueError as error:
        assert "`state`" in str(error), error
        return
    raise AssertionError("saved")


MB = 10**6


def shard_count(sizes_mb: list[float], limit_mb: int) -> int:
    """How many files huggingface_hub's splitter (what save_pretrained uses) writes."""
    state = {
        f"t{i}": torch.empty(int(size * MB), dtype=torch.uint8) for i, size in enumerate(sizes_mb)
    }
    split = split_torch_state_dict_into_shards(state, max_shard_size=limit_mb * MB)
    for tensors in split.filename_to_tensors.values():  # each tensor whole, in one file
        assert sum(state[name].nbytes for name in tensors) <= limit_mb * MB or len(tensors) == 1
    assert sorted(split.tensor_to_filename) == sorted(state)
    return len(split.filename_to_tensors)


@claim(
    "shard-count: 18 (scaled to MB) in shards of at most 5 made of tensors small next to 5 "
    "takes ceil(18/5) = 4 files; tensors are never split, so large ones can need more"
)
def _shard_count(tmp: Path) -> None:
    small = [0.25] * 72  # 18 MB in tensors of 0.25 MB
    assert shard_count(small, 5) == 4
    uneven = [0.4] * 45  # 18 MB in tensors of 0.4 MB: still 4
    assert shard_count(uneven, 5) == 4
    large = [3.0] * 6  # 18 MB in tensors of 3 MB: two never fit in 5, so 6 files
    assert shard_count(large, 5) == 6


@claim(
    "adam-checkpoint-size: AdamW keeps step, exp_avg and exp_avg_sq per parameter, the two "
    "moments in the parameter's fp32 (12 bytes per parameter with the weight)"
)
def _adam_state(tmp: Path) -> None:
    model, optimizer, *_ = trained()
    state = optimizer.state_dict()["state"][0]
    assert set(state) == {"step", "exp_avg", "exp_avg_sq"}
    weight = model.weight
    total = weight.nbytes + state["exp_avg"].nbytes + state["exp_avg_sq"].nbytes
    assert total == weight.numel() * 12


def main() -> int:
    failed = 0
    print(f"torch {torch.__version__}, numpy {np.__version__}")
    for text, check in CLAIMS:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                check(Path(tmp))
            except (Exception, CheckpointException) as error:  # a failed claim, whatever raised
                failed += 1
                print(f"FAIL {text}\n     {type(error).__name__}: {error}")
                traceback.print_exc(limit=2, file=sys.stderr)
            else:
                print(f"OK   {text}")
    print(f"{len(CLAIMS) - failed} of {len(CLAIMS)} claims hold")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
