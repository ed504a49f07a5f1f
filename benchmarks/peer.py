"""text2qti, the peer a cold `quizbank validate` of one file is compared with: installed with
pip into a venv of the benchmark's work folder, and a 10-question quiz in its format."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from measuring import child_env

TEXT2QTI = "text2qti==0.8.0"
# A 10-question quiz in text2qti's format, with the kinds of question it shares with quizbank.
TEXT2QTI_QUIZ = """\
Quiz title: Checkpoint sharding and resumable training
Quiz description: Practise checkpoint metadata, training-state recovery and resume validation.

Title: Why shard
1.  Why are large model checkpoints split into **shards**?
... Splitting keeps each file a manageable size and lets shards load in parallel.
a)  To make the model train faster on small inputs
... Sharding changes how state is stored, not how fast the model trains.
b)  To compress the weights with `gzip`
... Shards are not compressed.
*c) Because one checkpoint may be too large for one file or machine
... Right: each shard stays a manageable size.
d)  Because `torch.save` cannot write more than one tensor
... It writes a whole state dict.

Title: Resume state
2.  Which of these belong in a resumable checkpoint?
... Everything training changes must be saved to continue exactly.
[*] The optimizer state
[*] The RNG state of every rank
[ ] A screenshot of the dashboard
[*] The data loader's position

Title: Memory-mapped files
3.  `safetensors` files can be memory-mapped.
... The format stores raw tensors after a JSON header.
*a) True
b)  False

Title: Adam's beta
4.  What is Adam's default first-moment coefficient, *beta1*?
... PyTorch's Adam uses `betas=(0.9, 0.999)`.
=   0.9 +- 0.005

Title: Checkpoint size
Points: 2
5.  A model has 7 billion parameters in 4-byte floats and Adam keeps two more values per
    parameter. How many GB does a full checkpoint take?
... Weights and two moments: 7 x 4 x 3 = 84 GB.
=   84 +- 0.5

Title: Format name
6.  Which file format stores raw tensors after a JSON header?
... Safetensors stores a JSON header, then the raw tensor bytes.
*   safetensors
*   safe tensors

Title: Load default
7.  What does `torch.load(path)` do by default since PyTorch 2.6?
... It loads only tensors and plain containers unless told otherwise.
a)  It runs any pickled code
... Not any more: `weights_only=True` is the default.
*b) It loads weights only
c)  It refuses every file

Title: Atomic save
8.  Which steps make a checkpoint save atomic?
... Write to a temporary file in the same folder, then rename it.
[*] Write to a temporary file in the final folder
[*] Call `fsync` on it
[*] Rename it with `os.replace()`
[ ] Delete the previous checkpoint first

Title: Index file
9.  Which file maps each tensor name to the shard that holds it?
... The index's `weight_map` does.
*   model.safetensors.index.json
*   index.json

Title: Weights only
Points: 3
10. Explain why a weights-only package cannot resume training exactly.
... A full-mark answer names the optimizer and RNG state.
____
"""


@dataclass
class Text2qti:
    """text2qti in a venv of its own in the work folder, and the 10-question quiz it converts."""

    folder: Path
    version: str = ""
    problem: str = ""  # why it could not be installed or run: then it is not measured

    @property
    def quiz(self) -> Path:
        return self.folder / "quiz.txt"

    def command(self) -> list[str]:
        return [str(self.folder / "venv" / "bin" / "text2qti"), str(self.quiz)]

    def env(self) -> dict[str, str]:
        """Its config file (~/.text2qti.bespon, written on its first run) goes to its folder."""
        return {**child_env(), "HOME": str(self.folder)}


def install_text2qti(work: Path) -> Text2qti:
    """Make a venv, pip install text2qti into it, write the quiz and convert it once."""
    tool = Text2qti(work / "text2qti")
    tool.folder.mkdir()
    tool.quiz.write_text(TEXT2QTI_QUIZ, encoding="utf-8")
    venv = tool.folder / "venv"
    for step, env in (
        ([sys.executable, "-m", "venv", str(venv)], None),
        ([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", TEXT2QTI], None),
        (tool.command(), tool.env()),
    ):
        proc = subprocess.run(step, capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            last = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [str(proc.returncode)]
            tool.problem = f"`{' '.join(step)}` failed: {last[0]}"
            return tool
    version = [*tool.command()[:1], "--version"]
    tool.version = subprocess.run(version, capture_output=True, text=True).stdout.strip()
    return tool
