#!/usr/bin/env python3
"""A seeded mutation fuzzer for `quizbank validate` and `quizbank build`, with a formula stage
and a stage of hostile files for `quizbank import`.

The bundled quizzes (content/<lang>/*.yaml and the valid fixtures in tests/fixtures/html/ and
tests/fixtures/types/, which has every question type) are the seeds. Each mutant is one of them
changed by a few random mutations (bytes, lines, YAML tokens, hostile shapes and file names),
written into a temporary bank as content/<lang>/<id>.yaml beside its unchanged translation, and
checked by `quizbank validate` in a child process, once with the
JSON report and once with the text report. A mutant fails when a run

- prints a traceback, exits with a code other than 0 or 1, or is killed by a signal;
- runs past the timeout or past the memory bound (peak RSS from os.wait4);
- prints JSON that does not parse or does not have the report's shape;
- exits 1 with no error diagnostic, exits 0 with one, or a diagnostic lacks a path or a
  line/column >= 1;
- prints a raw C0 control character other than a newline (ESC above all), DEL or a bidi override
  in the text report, or a control character inside a JSON string;
- and when the two reports disagree (exit code, number of diagnostics).

Every mutant is then built, `quizbank build` in every format (what validate accepts, every
renderer must render; `--build-format pdf` builds a format that a plain build leaves out): the
build fails on a traceback, a signal, an exit code other than 0 or 1,
the time or memory bound, or an exit code other than validate's. About a third of the mutants are
changed within the types instead of byte by byte (scripts/fuzz_values.py: huge, tiny and negative
numbers, the most options, gaps and questions, the longest texts, formulas), so that most of them
validate and are rendered.

More stages: fuzzed formulas through the formula check, each within a second
(scripts/fuzz_formulas.py); fuzzed calculated-question formulas read and evaluated with random
values, each within a second (scripts/fuzz_calculated.py); and hostile Moodle XML and GIFT
files of 100 KB to 1 MB (tests/import_hostile.py) through `quizbank import`, each within the
time and memory bound.

Mutant N of seed S is made by random.Random(f"{S}:{N}") alone, so `--seed S --only N` replays it.

    python scripts/fuzz.py --seed 1 --count 500            # subprocesses: python -m quizbank
    python scripts/fuzz.py --seed 1 --count 2000 --fork    # forked children call cli.main
    python scripts/fuzz.py --seed 1 --only 37 --keep out/  # replay one mutant, save its bank
    python scripts/fuzz.py --seed 1 --count 500 --minimize # shrink one mutant per distinct failure
    python scripts/fuzz.py --count 300 --build-format pdf  # build the mutants into paper exams
    python scripts/fuzz.py --count 0 --formulas 10000 --import-sizes 100000,1000000
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import dataclasses
import importlib.util
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "scripts"), str(REPO / "tests")]
from fuzz_calculated import check_calculated  # noqa: E402
from fuzz_formulas import FormulaOutcome, check_formulas  # noqa: E402
from fuzz_values import typed_mutant  # noqa: E402

SEED_ROOTS = (
    REPO / "content",
    REPO / "tests" / "fixtures" / "html",
    REPO / "tests" / "fixtures" / "types",
)

# ---------------------------------------------------------------------------------------------
# Seeds and mutants


@dataclass(frozen=True)
class SeedQuiz:
    """One quiz of the bundled content: its id and its file in every language."""

    name: str  # where it came from, for reports: content/checkpoint-sharding
    quiz_id: str
    files: dict[str, bytes]  # lang -> bytes
    # The other files of its content folder (images, bank.yaml), by path inside it.
    extras: dict[bytes, bytes] = field(default_factory=dict)


def load_seeds(roots: Iterable[Path] = SEED_ROOTS) -> list[SeedQuiz]:
    """Every quiz under the roots that exists in two languages or more."""
    seeds: list[SeedQuiz] = []
    for root in roots:
        by_id: dict[str, dict[str, bytes]] = {}
        quiz_files: set[Path] = set()
        for lang_dir in sorted(p for p in root.iterdir() if p.is_dir()):
            for path in sorted(lang_dir.glob("*.yaml")):
                by_id.setdefault(path.stem, {})[lang_dir.name] = path.read_bytes()
                quiz_files.add(path)
        extras = {
            os.fsencode(path.relative_to(root).as_posix()): path.read_bytes()
            for path in sorted(root.rglob("*"))
            if path.is_file() and path not in quiz_files
        }
        for quiz_id, files in sorted(by_id.items()):
            name = f"{root.relative_to(REPO).as_posix()}/{quiz_id}"
            seeds.append(SeedQuiz(name, quiz_id, files, extras))
    if not seeds:
        raise SystemExit("fuzz: no seed quiz found")
    return seeds


@dataclass
class Mutant:
    """A bank of files (relative paths as bytes, since a name may not be UTF-8) and the path
    given to `quizbank validate`."""

    seed: int
    index: int
    origin: str
    files: dict[bytes, bytes]
    target: bytes
    mutated: bytes  # the path of the mutated file
    ops: list[str] = field(default_factory=list)

    def describe(self) -> str:
        return f"seed {self.seed} mutant {self.index} ({self.origin}): " + "; ".join(self.ops)

    def replay_command(self) -> str:
        return f"python scripts/fuzz.py --seed {self.seed} --only {self.index} --keep fuzz-out"


CONTROL_BYTES = [b"\x00", b"\x07", b"\x0b", b"\x1b", b"\x7f", b"\x08", b"\x0c", b"\r", b"\t"]
ODD_BYTES = [
    b"\xff",  # never valid UTF-8
    b"\xc3\x28",  # a bad continuation
    b"\x80",  # a lone continuation byte
    b"\xed\xa0\x80",  # an encoded surrogate
    b"\xf8\x88\x80\x80\x80",  # a five-byte form
    b"\xef\xbf\xbe",  # U+FFFE
    b"\xef\xbf\xbf",  # U+FFFF
    b"\xe2\x80\xae",  # U+202E RIGHT-TO-LEFT OVERRIDE
    b"\xe2\x81\xa6",  # U+2066 LEFT-TO-RIGHT ISOLATE
    b"\xe2\x80\xa8",  # U+2028 LINE SEPARATOR
    b"\xef\xbb\xbf",  # a byte-order mark in the middle
    b"\xc2\x85",  # NEL
    b"\xc2\x9b",  # CSI (C1)
    b"\x1b[2J",
    b"\x1b]0;title\x07",
    b"\r\n",
]
TOKENS = [
    "#",
    ": ",
    "*",
    "*a",
    "&a ",
    "!!int ",
    "!!float abc",
    "!!bool yes",
    "? ",
    "- ",
    "{",
    "[",
    "}",
    "]",
    '"',
    "'",
    "|",
    ">",
    "!!str ",
    "!!python/object:os.system ",
    "!!binary ",
    "!local ",
    "!<tag:yaml.org,2002:str> ",
    "%",
    "@",
    "`",
    ",",
    "\t",
    "---\n",
    "...\n",
]
HUGE_INT = "9" * 5000
SPECIAL_VALUES = [
    "!!float abc",
    "!!int abc",
    "!!int 1.5",
    "!!bool yes",
    "!!null x",
    "!!float 1e5000",
    "!!int",
    "!!timestamp 2001-12-14",
    "!!set {a}",
    "!!omap [a: 1]",
    "!!binary aGk=",
    HUGE_INT,
    "-" + HUGE_INT,
    "0x" + "f" * 20000,
    "0o" + "7" * 6000,
    f"{HUGE_INT}.5",
    f"1e{HUGE_INT}",
    "1e999999",
    ".nan",
    "-.inf",
    ".inf",
    "0x",
    "0o",
    "0o8",
    "0b101",
    "1_000",
    "+",
    "-",
    "~",
    "null",
    "true",
    "false",
    "yes",
    "[]",
    "{}",
    '""',
    '" "',
    "-0",
    "0",
    "-1",
    "1.5",
    "1e-400",
    "2001-12-14",
    "12:30:00",
    "[a, [b]]",
    "{a: b}",
    "*a",
    "&a x",
    "'unterminated",
    '"\\q"',
    '"\\e[2J"',
    '"\\u202eevil"',
    '"\\ud800"',
    '"\\x00"',
    '"\\uFFFE"',
    '"a\\nb"',
    '"\\N\\L\\P"',
    '"\\x9b31m"',
    '"\\t"',
    "x" * 100_000,
    "<<: {a: 1}",
]
HOSTILE_KEYS = [
    '"\\e[2J"',
    '"a\\nb"',
    '"\\u202eid"',
    '"\\x00"',
    '"\\ud800"',
    '"\\x7f"',
    "true",
    "1",
    "null",
    "~",
    "1.5",
    ".nan",
    "0x10",
    HUGE_INT,
    "[a]",
    "{a: 1}",
    "<<",
    '"\\x9b"',
    '"id\\t"',
]
HOSTILE_NAMES = [
    "\x1b[2Jquiz",
    "a\nb",
    "\u202equiz",
    "quiz\x07",
    "qu iz",
    "quiz\r",
    "x" * 200,
    "\ufeffquiz",
    "Quiz",
    "quiz.yaml",
    "-quiz",
    "quiz\u2028",
    "\x9bquiz",
]
HOSTILE_BYTE_NAMES = [b"\xffquiz", b"qu\xc3\x28iz"]
HOSTILE_LANGS = ["\x1b[31m", "EN", "en-", "e\nn", "x" * 100, "zz"]

_KEY_LINE = re.compile(rb"^( *)(- )?([A-Za-z_][A-Za-z_0-9]*):( ?)(.*?)(\r?)$")


def _pos(rng: random.Random, data: bytes) -> int:
    return rng.randint(0, len(data))


def _key_lines(data: bytes) -> list[tuple[int, int, int, re.Match[bytes]]]:
    """(line index, line start offset, line end offset, match) of every `key: value` line."""
    found = []
    offset = 0
    for number, line in enumerate(data.split(b"\n")):
        match = _KEY_LINE.match(line)
        if match:
            found.append((number, offset, offset + len(line), match))
        offset += len(line) + 1
    return found


def _pick_key_line(rng: random.Random, data: bytes) -> tuple[int, int, int, re.Match[bytes]] | None:
    lines = _key_lines(data)
    return rng.choice(lines) if lines else None


def _indent_of(match: re.Match[bytes]) -> bytes:
    return match.group(1) + (b"  " if match.group(2) else b"")


# -- byte mutations


def m_flip(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    if not data:
        return b"\x00", "flip: empty -> NUL"
    at = rng.randrange(len(data))
    bit = 1 << rng.randrange(8)
    return data[:at] + bytes([data[at] ^ bit]) + data[at + 1 :], f"flip bit {bit:#x} at byte {at}"


def m_insert_byte(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    at = _pos(rng, data)
    what = rng.choice(CONTROL_BYTES + ODD_BYTES)
    return data[:at] + what + data[at:], f"insert {what!r} at byte {at}"


def m_insert_in_value(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    picked = _pick_key_line(rng, data)
    if picked is None:
        return m_insert_byte(rng, data)
    number, _, end, match = picked
    what = rng.choice(CONTROL_BYTES + ODD_BYTES)
    at = rng.randint(end - len(match.group(5)) - len(match.group(6)), end - len(match.group(6)))
    return data[:at] + what + data[at:], f"insert {what!r} in the value on line {number + 1}"


def m_delete(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    if not data:
        return data, "delete: empty"
    at = rng.randrange(len(data))
    size = rng.choice([1, 1, 2, 3, 8, 16, 64])
    return data[:at] + data[at + size :], f"delete {size} bytes at {at}"


def m_reencode(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    text = data.decode("utf-8", "surrogateescape")
    codec = rng.choice(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "cp1252"])
    try:
        return text.encode(codec, "surrogateescape"), f"re-encode as {codec}"
    except UnicodeEncodeError:
        return text.encode(codec, "replace"), f"re-encode as {codec} (lossy)"


# -- line mutations


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def m_lines(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    op = rng.choice(["duplicate", "delete", "swap", "indent", "truncate", "truncate-bytes", "move"])
    if op == "duplicate":
        lines.insert(i, lines[i])
    elif op == "delete":
        del lines[i]
    elif op == "swap":
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        op = f"swap with line {j + 1}"
    elif op == "indent":
        step = rng.choice([-2, -1, 1, 2])
        if step > 0:
            lines[i] = b" " * step + lines[i]
        else:
            lines[i] = lines[i][min(-step, len(lines[i]) - len(lines[i].lstrip(b" "))) :]
        op = f"re-indent by {step:+d}"
    elif op == "truncate":
        lines = lines[:i]
    elif op == "truncate-bytes":
        cut = _pos(rng, data)
        return data[:cut], f"truncate at byte {cut}"
    else:
        line = lines.pop(i)
        j = rng.randint(0, len(lines))
        lines.insert(j, line)
        op = f"move to line {j + 1}"
    return b"\n".join(lines), f"line {i + 1}: {op}"


# -- YAML-aware mutations


def m_token(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    token = rng.choice(TOKENS).encode()
    picked = _pick_key_line(rng, data)
    if picked is None or rng.random() < 0.3:
        at = _pos(rng, data)
        return data[:at] + token + data[at:], f"insert {token.decode()!r} at byte {at}"
    number, _, end, match = picked
    at = end - len(match.group(5)) - len(match.group(6))
    return data[:at] + token + data[
        at:
    ], f"insert {token.decode()!r} before the value on line {number + 1}"


def m_value(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    picked = _pick_key_line(rng, data)
    if picked is None:
        return m_token(rng, data)
    number, _, end, match = picked
    value = rng.choice(SPECIAL_VALUES)
    start = end - len(match.group(5)) - len(match.group(6))
    if not match.group(4):
        value = " " + value
    shown = value if len(value) < 40 else f"{value[:12]}...({len(value)} chars)"
    return (
        data[:start] + value.encode() + data[end - len(match.group(6)) :],
        f"line {number + 1}: {match.group(3).decode()} = {shown!r}",
    )


def m_key_typo(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    picked = _pick_key_line(rng, data)
    if picked is None:
        return m_token(rng, data)
    number, start, _, match = picked
    key = match.group(3).decode()
    i = rng.randrange(len(key))
    how = rng.choice(["drop", "double", "swap", "upper", "letter"])
    if how == "drop" and len(key) > 1:
        typo = key[:i] + key[i + 1 :]
    elif how == "double":
        typo = key[:i] + key[i] + key[i:]
    elif how == "swap" and i + 1 < len(key):
        typo = key[:i] + key[i + 1] + key[i] + key[i + 2 :]
    elif how == "upper":
        typo = key.upper()
    else:
        typo = key[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz") + key[i + 1 :]
    at = start + match.start(3)
    return (
        data[:at] + typo.encode() + data[at + len(key) :],
        f"line {number + 1}: key {key!r} -> {typo!r}",
    )


def m_sibling_key(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    picked = _pick_key_line(rng, data)
    if picked is None:
        return m_token(rng, data)
    number, start, _, match = picked
    key = rng.choice(HOSTILE_KEYS)
    value = rng.choice(["1", "x", '"\\e[2J"', "[a]", "{}", ""])
    line = _indent_of(match) + f"{key}: {value}\n".encode()
    if rng.random() < 0.3:  # a complex key
        key = rng.choice(["[a, b]", "{a: 1}", '"\\e]0;x\\a"', "- a"])
        line = _indent_of(match) + f"? {key}\n".encode() + _indent_of(match) + b": x\n"
    shown = key if len(key) < 40 else f"{key[:12]}...({len(key)} chars)"
    # After the line, so that `- id:` keeps its dash.
    end = data.find(b"\n", start)
    at = len(data) if end < 0 else end + 1
    return data[:at] + line + data[at:], f"after line {number + 1}: key {shown!r}: {value!r}"


def m_anchor(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    lines = _key_lines(data)
    if len(lines) < 2:
        return m_token(rng, data)
    first, second = sorted(rng.sample(lines, 2), key=lambda item: item[0])
    out = bytearray(data)
    # Alias first (later offset), so that the anchor's offset stays valid.
    n2, _, end2, match2 = second
    start2 = end2 - len(match2.group(5)) - len(match2.group(6))
    out[start2 : end2 - len(match2.group(6))] = b"*a" if match2.group(4) else b" *a"
    n1, _, end1, match1 = first
    start1 = end1 - len(match1.group(5)) - len(match1.group(6))
    out[start1:start1] = b"&a " if match1.group(4) else b" &a "
    return bytes(out), f"anchor &a on line {n1 + 1}, alias *a on line {n2 + 1}"


# -- hostile shapes


def m_deep(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    picked = _pick_key_line(rng, data)
    depth = rng.choice([31, 32, 33, 34, 100, 1000, 10_000, 100_000])
    style = rng.choice(["flow-list", "flow-map", "block-map", "block-list"])
    if style in ("block-map", "block-list"):
        depth = min(depth, 3000)
    if style == "flow-list":
        value = "[" * depth + "]" * depth
    elif style == "flow-map":
        value = "{a: " * depth + "1" + "}" * depth
    else:
        value = ""
    if picked is None:
        return value.encode(), f"the file is {style} nesting {depth} deep"
    number, _, end, match = picked
    indent = _indent_of(match)
    if style == "flow-list" or style == "flow-map":
        body = b" " + value.encode()
    elif style == "block-map":
        body = b"".join(b"\n" + indent + b"  " * (k + 1) + b"a:" for k in range(depth)) + b" 1"
    else:
        body = b"".join(b"\n" + indent + b"  " * (k + 1) + b"-" for k in range(depth)) + b" 1"
    vstart = end - len(match.group(5)) - len(match.group(6))
    vstart -= len(match.group(4))
    return (
        data[:vstart] + body + data[end - len(match.group(6)) :],
        f"line {number + 1}: {match.group(3).decode()} = {style} nesting {depth} deep",
    )


def m_flat_list(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    picked = _pick_key_line(rng, data)
    size = rng.choice([1000, 50_000, 200_000])
    item = rng.choice(["a", "x", "1", "checkpointing", "{id: a, text: t}", "[]"])
    value = b"[" + b", ".join([item.encode()] * size) + b"]"
    if picked is None:
        return value, f"the file is a list of {size} {item!r}"
    number, _, end, match = picked
    start = end - len(match.group(5)) - len(match.group(6)) - len(match.group(4))
    return (
        data[:start] + b" " + value + data[end - len(match.group(6)) :],
        f"line {number + 1}: {match.group(3).decode()} = list of {size} {item!r}",
    )


def m_long(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    how = rng.choice(["line", "comments", "keys", "blank"])
    size = rng.choice([10_000, 1_000_000])
    if how == "line":
        picked = _pick_key_line(rng, data)
        if picked:
            _, _, end, match = picked
            at = end - len(match.group(6))
            return data[:at] + b"y" * size + data[at:], f"a value {size} characters longer"
        return data + b"y" * size, f"{size} characters appended"
    if how == "comments":
        lines = min(size, 200_000)
        return data + b"# c\n" * lines, f"{lines} comment lines appended"
    if how == "keys":
        keys = min(size, 100_000)
        return data + b"".join(b"k%d: v\n" % k for k in range(keys)), f"{keys} keys appended"
    return data + b"\n" * size, f"{size} blank lines appended"


def m_whole(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    what = rng.choice(
        [
            b"",
            b"\xef\xbb\xbf",
            b"   \n\n",
            b"# only a comment\n",
            b"---\n",
            b"...\n",
            b"~\n",
            b"- a\n",
            b"'text'\n",
            b"1\n",
            b"!!binary aGk=\n",
            b"--- !!map\n",
            b"%YAML 1.1\n---\n",
            b"%YAML 2.0\n---\n",
            b"%TAG ! tag:x,2000:\n---\n",
            b"\x00",
            b"\x1b[2J",
        ]
    )
    how = rng.choice(["replace", "prepend", "append"])
    if how == "replace":
        return what, f"the file is {what!r}"
    if how == "prepend":
        return what + data, f"{what!r} prepended"
    return data + b"\n" + what + data[
        : rng.randrange(1, 200)
    ], f"{what!r} and a second document appended"


def m_huge_file(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    size = 16 * 1024 * 1024 + rng.choice([-64, 0, 1, 4096])
    pad = max(0, size - len(data))
    return data + b"#" + b"x" * max(0, pad - 2) + b"\n", f"padded to {size} bytes with a comment"


ByteOp = Callable[[random.Random, bytes], tuple[bytes, str]]
BYTE_OPS: list[tuple[float, ByteOp]] = [
    (6, m_flip),
    (10, m_insert_byte),
    (10, m_insert_in_value),
    (5, m_delete),
    (1.5, m_reencode),
    (12, m_lines),
    (12, m_token),
    (14, m_value),
    (6, m_key_typo),
    (7, m_sibling_key),
    (2, m_anchor),
    (3, m_deep),
    (1.5, m_flat_list),
    (1.5, m_long),
    (2, m_whole),
    (0.1, m_huge_file),
]


# The share of mutants changed within the types (scripts/fuzz_values.py) rather than bytes.
TYPED_SHARE = 0.35


def make_mutant(seeds: list[SeedQuiz], seed: int, index: int) -> Mutant:
    """Mutant `index` of `seed`: a function of the two numbers (and the seed files) alone."""
    rng = random.Random(f"{seed}:{index}")
    quiz = rng.choice(seeds)
    langs = sorted(quiz.files)
    lang = rng.choice(langs)
    data = quiz.files[lang]
    ops: list[str] = [f"mutate {lang}/{quiz.quiz_id}.yaml"]
    count = 1
    while count < 6 and rng.random() < 0.45:
        count += 1
    typed = rng.random() < TYPED_SHARE
    if typed:  # values within the types, and now and then one byte mutation on top
        data, typed_ops = typed_mutant(rng, data, lang)
        ops += typed_ops
        count = 1 if rng.random() < 0.1 else 0
        langs = [lang]  # alone: a translation that no longer matches would stop the build
    weights = [w for w, _ in BYTE_OPS]
    functions = [f for _, f in BYTE_OPS]
    for _ in range(count):
        op = rng.choices(functions, weights)[0]
        if op is m_huge_file and count > 1:
            op = m_lines  # one 16 MiB file per mutant is enough
        data, desc = op(rng, data)
        ops.append(desc)
    stem = quiz.quiz_id.encode()
    lang_dirs = {lang_name: lang_name.encode() for lang_name in langs}
    roll = rng.random()
    if roll < 0.06:
        name = rng.choice(HOSTILE_NAMES)
        stem = os.fsencode(name)
        ops.append(f"file name {name!r}.yaml (in every language)")
    elif roll < 0.075:
        stem = rng.choice(HOSTILE_BYTE_NAMES)
        ops.append(f"file name {stem!r}.yaml (in every language)")
    elif roll < 0.09:
        odd = rng.choice(HOSTILE_LANGS)
        lang_dirs[lang] = os.fsencode(odd)
        ops.append(f"language folder {odd!r} instead of {lang!r}")
    suffix = b".yaml"
    if rng.random() < 0.01:  # an author's other habits; found by neither discovery nor schema
        suffix = rng.choice([b".yml", b".YAML", b".yaml~", b"", b".yaml.bak"])
        ops.append(f"files named {suffix.decode() or 'without a suffix'!r} in every language")
    files: dict[bytes, bytes] = {b"content/" + rel: data for rel, data in quiz.extras.items()}
    for other in langs:
        path = b"content/" + lang_dirs[other] + b"/" + stem + suffix
        files[path] = data if other == lang else quiz.files[other]
    mutated = b"content/" + lang_dirs[lang] + b"/" + stem + suffix
    target = rng.choice([mutated, mutated, b"content"])
    if target == b"content":
        ops.append("validate content/")
    return Mutant(seed, index, quiz.name, files, target, mutated, ops)


# ---------------------------------------------------------------------------------------------
# Running quizbank validate in a child process


@dataclass
class RunResult:
    fmt: str
    code: int | None  # the exit code, None when killed by a signal
    signal: int | None
    stdout: bytes
    stderr: bytes
    seconds: float
    maxrss_kb: int
    timed_out: bool = False
    over_memory: bool = False


def report_options() -> dict[str, list[str]]:
    """The arguments for a JSON and a text report, as `validate --help` names the option now."""
    help_text = subprocess.run(
        [sys.executable, "-m", "quizbank", "validate", "--help"],
        capture_output=True,
        text=True,
        env=child_env(),
        cwd=REPO,
        check=False,
    ).stdout
    if "--output-format" in help_text:
        return {"json": ["--output-format", "json"], "text": ["--output-format", "text"]}
    return {"json": ["--format", "json"], "text": []}


def child_env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("FORCE_COLOR", "CLICOLOR_FORCE", "PY_COLORS", "TTY_COMPATIBLE", "COLUMNS")
        and not k.startswith("PYTEST")
    }
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    env["PYTHONHASHSEED"] = "0"
    return env


@dataclass
class _Job:
    key: tuple[int, str]
    cwd: str
    argv: list[bytes]
    out: str
    err: str
    pid: int = 0
    started: float = 0.0
    timed_out: bool = False
    over_memory: bool = False


class Runner:
    """Runs up to `jobs` children at once from this one thread (no threads: fork stays safe).

    In subprocess mode a child execs `python -m quizbank validate ...`; in fork mode it calls
    quizbank.cli.main in the forked copy of this process, which has imported quizbank already.
    Each child runs in its own session (its workers are killed with it), writes its output to
    files, and is reaped with os.wait4 for its peak resident set.
    """

    def __init__(self, jobs: int, timeout: float, max_rss_mb: int, fork: bool) -> None:
        self.jobs = max(1, jobs)
        self.timeout = timeout
        self.max_rss_kb = max_rss_mb * 1024
        self.fork = fork
        self.env = child_env()
        self.env_bytes = {k.encode(): v.encode() for k, v in self.env.items()}
        if fork:
            import quizbank.cli  # noqa: F401  (imported once, inherited by every child)
            from quizbank.registry import discover_renderers

            discover_renderers()  # the renderers too, which every build imports

    def run(self, jobs: Iterable[_Job]) -> Iterator[tuple[_Job, RunResult]]:
        pending = iter(jobs)
        running: dict[int, _Job] = {}
        exhausted = False
        last_rss = 0.0
        while running or not exhausted:
            while not exhausted and len(running) < self.jobs:
                job = next(pending, None)
                if job is None:
                    exhausted = True
                    break
                self._start(job)
                running[job.pid] = job
            now = time.monotonic()
            check_rss = now - last_rss > 0.05
            if check_rss:
                last_rss = now
            finished = False
            for pid, job in list(running.items()):
                wpid, status, usage = os.wait4(pid, os.WNOHANG)
                if wpid:
                    finished = True
                    del running[pid]
                    _kill_group(pid)
                    yield job, self._result(job, status, usage)
                    continue
                if now - job.started > self.timeout and not job.timed_out:
                    job.timed_out = True
                    _kill_group(pid)
                elif check_rss and not job.over_memory and _rss_kb(pid) > self.max_rss_kb:
                    job.over_memory = True
                    _kill_group(pid)
            if not finished:
                time.sleep(0.003)

    def _start(self, job: _Job) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        job.started = time.monotonic()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 127
            try:
                os.setsid()
                os.chdir(job.cwd)
                null = os.open(os.devnull, os.O_RDONLY)
                os.dup2(null, 0)
                out = os.open(job.out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                err = os.open(job.err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                os.dup2(out, 1)
                os.dup2(err, 2)
                # A backstop: the parent kills the child at the bound, polling its RSS.
                limit = max(4 * self.max_rss_kb * 1024, self.max_rss_kb * 1024 + 2**31)
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
                resource.setrlimit(resource.RLIMIT_FSIZE, (2**28, 2**28))
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                if self.fork:
                    code = _fork_main(job.argv)
                else:
                    os.execve(sys.executable, job.argv, self.env_bytes)
            except BaseException:
                try:
                    traceback.print_exc()
                    sys.stderr.flush()
                except BaseException:
                    pass
            os._exit(code)
        job.pid = pid

    def _result(self, job: _Job, status: int, usage: resource.struct_rusage) -> RunResult:
        seconds = time.monotonic() - job.started
        code = os.waitstatus_to_exitcode(status)
        # A child that died before it opened its files (it is killed with its whole session
        # when it ends) has no output: judged as such, not a crash of the campaign.
        stdout = Path(job.out).read_bytes() if os.path.exists(job.out) else b""
        stderr = Path(job.err).read_bytes() if os.path.exists(job.err) else b"(no output)"
        return RunResult(
            job.key[1],
            code if code >= 0 else None,
            -code if code < 0 else None,
            stdout,
            stderr,
            seconds,
            usage.ru_maxrss,
            job.timed_out,
            job.over_memory or usage.ru_maxrss > self.max_rss_kb,
        )


def _fork_main(argv: list[bytes]) -> int:
    """`python -m quizbank ARGS` in a forked child: fresh standard streams on fds 1 and 2."""
    from quizbank.cli import main

    encoding = sys.__stdout__.encoding if sys.__stdout__ else "utf-8"
    sys.stdout = open(1, "w", encoding=encoding, errors="strict", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding=encoding, errors="backslashreplace", closefd=False)  # noqa: SIM115
    args = [os.fsdecode(a) for a in argv[3:]]  # after python -m quizbank
    sys.argv = ["quizbank", *args]
    try:
        code: object = main(args)
    except SystemExit as exc:
        code = exc.code
    except BaseException:
        traceback.print_exc()
        code = 1
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    try:
        sys.stdout.flush()
    except BaseException:
        traceback.print_exc()
        code = 120
    sys.stderr.flush()
    return code


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


# ---------------------------------------------------------------------------------------------
# Judging the runs


@dataclass
class Failure:
    kind: str
    signature: str  # what makes two failures the same defect
    detail: str
    fmt: str


_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>\S+)')
_EXC = re.compile(r"^(?P<type>[A-Za-z_][\w.]*)(?::\s?(?P<message>.*))?$")
_DIAG = re.compile(
    r"^(?P<path>.+?):(?P<line>-?\d+):(?P<col>-?\d+): (?P<sev>error|warning): (?P<rest>.*)$"
)
_NO_QUIZ = re.compile(r"quizbank: error: no quiz file found in [^\n]*")
_SUMMARY = re.compile(r"^\d+ errors?, \d+ warnings? in \d+ files?$")
_C0 = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
_C0_JSON = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_BIDI = re.compile("[\u202a-\u202e\u2028\u2029]")
TRACEBACK = "Traceback (most recent call last)"
BUILD = "build"  # the run of `quizbank build`, beside the two report formats of validate


def traceback_signature(text: str) -> tuple[str, str]:
    """(`Type at innermost quizbank frame / innermost frame`, the exception line)."""
    block = text[text.rfind(TRACEBACK) :].splitlines()
    frames = [m for m in map(_FRAME.match, text.splitlines()) if m]
    exc_line = ""
    for line in reversed(block):
        if (
            line
            and not line.startswith(" ")
            and _EXC.match(line)
            and not line.startswith(TRACEBACK)
        ):
            exc_line = line
            break
    exc_type = exc_line.split(":", 1)[0] or "?"

    def where(match: re.Match[str]) -> str:
        path = match["file"]
        short = path.split("/site-packages/")[-1] if "/site-packages/" in path else path
        short = short.split(str(REPO) + "/")[-1]
        return f"{short}:{match['func']}"

    ours = [f for f in frames if "/quizbank/" in f["file"] or "quizbank_renderers" in f["file"]]
    place = where(ours[-1]) if ours else where(frames[-1]) if frames else "?"
    return f"{exc_type} at {place}", exc_line


def _normalized(message: str) -> str:
    message = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", message)
    return re.sub(r"\d+", "N", message)[:100]


def crashed(run: RunResult, fmt: str, codes: tuple[int, ...] = (0, 1)) -> Failure | None:
    """How a run failed as any command can: a bound, a traceback, a signal, an odd exit code."""
    out = run.stdout.decode("utf-8", "replace")
    err = run.stderr.decode("utf-8", "replace")
    if run.timed_out:
        return Failure("timeout", "timeout", f"killed after {run.seconds:.1f} s", fmt)
    if run.over_memory:
        return Failure("memory", "memory", f"peak RSS {run.maxrss_kb // 1024} MB", fmt)
    if TRACEBACK in out or TRACEBACK in err:
        signature, exc_line = traceback_signature(err if TRACEBACK in err else out)
        return Failure("traceback", signature, exc_line[:300], fmt)
    if run.code is None:
        name = signal.Signals(run.signal or 0).name if run.signal else "?"
        return Failure("signal", f"killed by {name}", err[-300:], fmt)
    if run.code not in codes:
        return Failure("exit-code", f"exit {run.code}", f"exit {run.code}: {err[-300:]}", fmt)
    return None


def judge(mutant: Mutant, results: dict[str, RunResult]) -> list[Failure]:
    failures: list[Failure] = []
    counts: dict[str, tuple[int | None, int]] = {}
    for fmt, run in results.items():
        out = run.stdout.decode("utf-8", "replace")
        err = run.stderr.decode("utf-8", "replace")
        if crash := crashed(run, fmt):
            failures.append(crash)
            continue
        if fmt == BUILD:
            continue
        diagnostics: list[tuple[str, int, int, str]] = []  # path, line, column, severity
        if fmt == "json":
            try:
                payload = json.loads(out)
                for d in payload["diagnostics"]:
                    diagnostics.append((d["path"], d["line"], d["column"], d["severity"]))
                    for name in ("path", "field", "message"):
                        if not isinstance(d[name], str):
                            raise TypeError(f"{name} is {d[name]!r}")
                        if _C0_JSON.search(d[name]) or _BIDI.search(d[name]):
                            bad = _C0_JSON.search(d[name]) or _BIDI.search(d[name])
                            assert bad is not None
                            failures.append(
                                Failure(
                                    "control-char",
                                    f"unescaped {bad.group()!r} in a JSON diagnostic's {name}",
                                    d[name][:200],
                                    fmt,
                                )
                            )
                for key in ("errors", "warnings", "files"):
                    if not isinstance(payload[key], int):
                        raise TypeError(f"{key} is {payload[key]!r}")
                if payload["errors"] != sum(1 for d in diagnostics if d[3] == "error"):
                    raise ValueError("`errors` is not the number of error diagnostics")
            except (ValueError, KeyError, TypeError) as exc:
                shown = out[:200] or f"(no output; stderr: {err[-300:]!r})"
                what = "empty" if not out.strip() else type(exc).__name__
                failures.append(Failure("bad-json", f"bad JSON ({what})", f"{exc}: {shown}", fmt))
        else:
            for line in out.splitlines():
                match = _DIAG.match(line)
                if match:
                    diagnostics.append(
                        (match["path"], int(match["line"]), int(match["col"]), match["sev"])
                    )
                elif not _SUMMARY.match(line):
                    failures.append(
                        Failure(
                            "bad-text-line", "a text line that is no diagnostic", line[:200], fmt
                        )
                    )
            for stream, text in (("stdout", out), ("stderr", err)):
                bad = _C0.search(text) or _BIDI.search(text)
                if bad:
                    at = bad.start()
                    failures.append(
                        Failure(
                            "control-char",
                            f"raw {bad.group()!r} on {stream}",
                            text[max(0, at - 80) : at + 40],
                            fmt,
                        )
                    )
        for path, line_no, col, severity in diagnostics:
            if (
                not path
                or not isinstance(line_no, int)
                or not isinstance(col, int)
                or line_no < 1
                or col < 1
            ):
                failures.append(
                    Failure(
                        "bad-diagnostic",
                        "a diagnostic without a path or a line/column >= 1",
                        f"{path!r}:{line_no}:{col}",
                        fmt,
                    )
                )
            if severity not in ("error", "warning"):
                failures.append(Failure("bad-diagnostic", f"severity {severity!r}", path, fmt))
        has_error = any(d[3] == "error" for d in diagnostics)
        bad_json = any(f.kind == "bad-json" and f.fmt == fmt for f in failures)
        # A run that finds no quiz file at all (every file renamed away from .yaml) is refused
        # as a whole, in one line naming the folder, before any file is checked.
        no_quiz = _NO_QUIZ.fullmatch(err.strip()) is not None
        if run.code == 1 and not has_error and not bad_json and not no_quiz:
            failures.append(
                Failure("no-diagnostic", "exit 1 with no error diagnostic", err[-300:], fmt)
            )
        if run.code == 0 and has_error:
            failures.append(Failure("exit-mismatch", "exit 0 with an error diagnostic", "", fmt))
        counts[fmt] = (run.code, len(diagnostics))
    built, checked = results.get(BUILD), results.get("json")
    if built and checked and not failures and built.code != checked.code:
        failures.append(
            Failure(
                "build-mismatch",
                f"validate exits {checked.code}, build {built.code}",
                (built.stdout + built.stderr).decode("utf-8", "replace")[-300:],
                BUILD,
            )
        )
    if "json" in counts and "text" in counts and counts["json"] != counts["text"]:
        failures.append(
            Failure(
                "format-mismatch",
                "the JSON and text reports disagree",
                f"json (exit, diagnostics) {counts['json']}, text {counts['text']}",
                "both",
            )
        )
    return failures


# ---------------------------------------------------------------------------------------------
# The campaign


@dataclass
class Outcome:
    mutant: Mutant
    results: dict[str, RunResult]
    failures: list[Failure]


def write_bank(mutant: Mutant, bank: Path) -> None:
    root = os.fsencode(bank)
    for rel, data in mutant.files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)


def fuzz(
    mutants: Iterable[Mutant],
    *,
    jobs: int,
    timeout: float,
    max_rss_mb: int,
    fork: bool,
    formats: tuple[str, ...] = ("json", "text", "build"),
    options: dict[str, list[str]] | None = None,
    on_outcome: Callable[[Outcome], None] | None = None,
    build_formats: tuple[str, ...] = (),
) -> list[Outcome]:
    """Run every mutant through validate in every report format, and through build (a plain
    build, or `-f` each of `build_formats`); return the outcomes in mutant order."""
    options = options or report_options()
    runner = Runner(jobs, timeout, max_rss_mb, fork)
    chosen = [arg for name in build_formats for arg in (b"-f", name.encode())]
    work = Path(tempfile.mkdtemp(prefix="quizbank-fuzz-"))
    waiting: dict[int, tuple[Mutant, dict[str, RunResult]]] = {}
    outcomes: list[Outcome] = []

    def job_stream() -> Iterator[_Job]:
        for mutant in mutants:
            place = work / str(mutant.index)
            bank = place / "bank"
            write_bank(mutant, bank)
            waiting[mutant.index] = (mutant, {})
            for fmt in formats:
                argv = [os.fsencode(sys.executable), b"-m", b"quizbank"]
                if fmt == BUILD:  # every format, written into the bank's own folder
                    argv += [b"build", b"--no-cache", b"-j", b"1", b"-o", b"out", *chosen]
                    argv.append(mutant.target)
                else:
                    argv += [b"validate", *(a.encode() for a in options[fmt]), mutant.target]
                yield _Job(
                    (mutant.index, fmt),
                    str(bank),
                    argv,
                    str(place / f"{fmt}.out"),
                    str(place / f"{fmt}.err"),
                )

    try:
        for job, result in runner.run(job_stream()):
            index, fmt = job.key
            mutant, results = waiting[index]
            results[fmt] = result
            if len(results) == len(formats):
                del waiting[index]
                outcome = Outcome(mutant, results, judge(mutant, results))
                if not outcome.failures:
                    # Kept for the counts only: without its files and outputs, which held this
                    # process to gigabytes over 10,000 mutants, and in fork mode every child
                    # starts with this process's size (its peak RSS would count it).
                    outcome = Outcome(
                        dataclasses.replace(mutant, files={}),
                        {
                            f: dataclasses.replace(r, stdout=b"", stderr=b"")
                            for f, r in results.items()
                        },
                        [],
                    )
                outcomes.append(outcome)
                shutil.rmtree(work / str(index), ignore_errors=True)
                if on_outcome:
                    on_outcome(outcome)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    outcomes.sort(key=lambda o: o.mutant.index)
    return outcomes


def _without_output(result: RunResult) -> RunResult:
    return dataclasses.replace(result, stdout=b"", stderr=b"")


def keep(outcome: Outcome, directory: Path) -> Path:
    """Save a failing mutant's bank, outputs and a replay note under `directory`."""
    mutant = outcome.mutant
    place = directory / f"seed{mutant.seed}-{mutant.index}-{outcome.failures[0].kind}"
    shutil.rmtree(place, ignore_errors=True)
    write_bank(mutant, place / "bank")
    for fmt, run in outcome.results.items():
        (place / f"{fmt}.stdout").write_bytes(run.stdout)
        (place / f"{fmt}.stderr").write_bytes(run.stderr)
    (place / "repro.json").write_text(
        json.dumps(
            {
                "seed": mutant.seed,
                "index": mutant.index,
                "origin": mutant.origin,
                "ops": mutant.ops,
                "replay": mutant.replay_command(),
                "command": f"cd bank && python -m quizbank validate --output-format json "
                f"{mutant.target!r}",
                "target_b64": base64.b64encode(mutant.target).decode(),
                "failures": [f.__dict__ for f in outcome.failures],
                "exit": {fmt: run.code for fmt, run in outcome.results.items()},
            },
            indent=2,
            ensure_ascii=True,
        )
        + "\n"
    )
    return place


def signatures(outcomes: Iterable[Outcome]) -> dict[tuple[str, str], list[tuple[Outcome, Failure]]]:
    found: dict[tuple[str, str], list[tuple[Outcome, Failure]]] = {}
    for outcome in outcomes:
        seen: set[tuple[str, str]] = set()
        for failure in outcome.failures:
            key = (failure.kind, failure.signature)
            if key not in seen:
                seen.add(key)
                found.setdefault(key, []).append((outcome, failure))
    return found


def summary(outcomes: list[Outcome], seconds: float) -> str:
    runs = sum(len(o.results) for o in outcomes)
    failing = [o for o in outcomes if o.failures]
    lines = [
        f"{len(outcomes)} mutants, {runs} runs in {seconds:.1f} s; {len(failing)} mutants failed"
    ]
    built = sum(1 for o in outcomes if BUILD in o.results and o.results[BUILD].code == 0)
    if built:
        lines.append(f"  {built} mutants validated and were built in every format")
    kinds = Counter(k for o in failing for k in {f.kind for f in o.failures})
    for kind, count in kinds.most_common():
        lines.append(f"  {kind}: {count} mutants")
    groups = signatures(outcomes)
    if groups:
        lines.append(f"{len(groups)} distinct failures:")
        for (kind, signature), items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            outcome, failure = items[0]
            lines.append(f"  [{kind}] {signature}: {len(items)} mutants")
            lines.append(f"      e.g. {failure.detail[:160]!r}")
            lines.append(f"      {outcome.mutant.describe()[:300]}")
            lines.append(f"      replay: {outcome.mutant.replay_command()}")
    if outcomes:
        slow = max(outcomes, key=lambda o: max(r.seconds for r in o.results.values()))
        big = max(outcomes, key=lambda o: max(r.maxrss_kb for r in o.results.values()))
        lines.append(
            f"slowest: {max(r.seconds for r in slow.results.values()):.2f} s, "
            f"{slow.mutant.describe()[:200]}"
        )
        lines.append(
            f"largest RSS: {max(r.maxrss_kb for r in big.results.values()) / 1024:.0f} MB, "
            f"{big.mutant.describe()[:200]}"
        )
    return "\n".join(lines)


def failure_report(outcomes: list[Outcome], limit: int = 12) -> str:
    """The distinct failures with a way to replay each, for an assertion message."""
    parts = []
    for (kind, signature), items in signatures(outcomes).items():
        outcome, failure = items[0]
        mutated = outcome.mutant.files.get(outcome.mutant.mutated, b"")
        parts.append(
            f"[{kind}] {signature} ({len(items)} mutants; {failure.fmt}): "
            f"{failure.detail[:200]!r}\n"
            f"    {outcome.mutant.describe()[:400]}\n"
            f"    replay: {outcome.mutant.replay_command()}\n"
            f"    mutated file {outcome.mutant.mutated!r}, {len(mutated)} bytes"
        )
        if len(parts) >= limit:
            break
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------------
# Shrinking a failing mutant


def minimize(
    outcome: Outcome,
    key: tuple[str, str],
    *,
    timeout: float,
    max_rss_mb: int,
    fork: bool,
    options: dict[str, list[str]],
    budget: int = 300,
    build_formats: tuple[str, ...] = (),
) -> bytes:
    """Delta debugging on the mutated file's lines, then on its bytes, keeping failure `key`."""
    mutant = outcome.mutant
    fmt_needed = {f.fmt for f in outcome.failures if (f.kind, f.signature) == key}
    formats = ("json", "text") if "both" in fmt_needed else tuple(sorted(fmt_needed))
    if BUILD in formats:  # judged against validate's exit code
        formats = tuple(sorted({*formats, "json"}))
    tries = 0

    def still_fails(candidate: bytes) -> bool:
        nonlocal tries
        tries += 1
        files = dict(mutant.files)
        files[mutant.mutated] = candidate
        probe = Mutant(
            mutant.seed, mutant.index, mutant.origin, files, mutant.target, mutant.mutated
        )
        got = fuzz(
            [probe],
            jobs=2,
            timeout=timeout,
            max_rss_mb=max_rss_mb,
            fork=fork,
            formats=formats,
            options=options,
            build_formats=build_formats,
        )[0]
        return any((f.kind, f.signature) == key for f in got.failures)

    data = mutant.files[mutant.mutated]
    for unit in ("lines", "bytes"):
        parts = data.split(b"\n") if unit == "lines" else [bytes([b]) for b in data]
        if unit == "bytes" and len(parts) > 2000:
            continue
        join = b"\n".join if unit == "lines" else b"".join
        chunks = 2
        while len(parts) >= 2 and tries < budget:
            size = max(1, len(parts) // chunks)
            reduced = False
            for start in range(0, len(parts), size):
                candidate = parts[:start] + parts[start + size :]
                if tries >= budget:
                    break
                if still_fails(join(candidate)):
                    parts = candidate
                    chunks = max(chunks - 1, 2)
                    reduced = True
                    break
            if not reduced:
                if size == 1:
                    break
                chunks = min(len(parts), chunks * 2)
        data = join(parts)
    return data


# ---------------------------------------------------------------------------------------------
# Hostile files for `quizbank import`


@dataclass
class ImportOutcome:
    name: str
    size: int
    result: RunResult
    failure: Failure | None


def hostile_imports(sizes: Iterable[int]) -> list[tuple[str, str, bytes]]:
    """(shape, file name, bytes) of every hostile import shape at each size
    (tests/import_hostile.py), with Moodle's own spelling of an unclosed gap beside them."""
    import import_hostile as hostile

    def shortanswer_never_closed(size: int) -> tuple[str, bytes]:
        text = "{1:SHORTANSWER:=a" * max(1, size // 17)
        return "cloze-shortanswer.xml", hostile.moodle_question("cloze", text)

    shapes = {**hostile.HOSTILE_IMPORTS, "cloze SHORTANSWER never closed": shortanswer_never_closed}
    return [(name, *build(size)) for size in sizes for name, build in shapes.items()]


def fuzz_imports(
    sizes: Iterable[int], *, jobs: int, timeout: float, max_rss_mb: int, fork: bool
) -> list[ImportOutcome]:
    """Each hostile file through `quizbank import`, under the time and memory bound."""
    runner = Runner(jobs, timeout, max_rss_mb, fork)
    work = Path(tempfile.mkdtemp(prefix="quizbank-fuzz-import-"))
    files = hostile_imports(sizes)
    jobs_list = []
    for index, (_name, file_name, data) in enumerate(files):
        place = work / str(index)
        place.mkdir()
        (place / file_name).write_bytes(data)
        argv = [os.fsencode(sys.executable), b"-m", b"quizbank", b"import", file_name.encode()]
        argv += [b"-o", b"content"]
        jobs_list.append(
            _Job((index, "import"), str(place), argv, str(place / "out"), str(place / "err"))
        )
    outcomes = []
    try:
        for job, result in runner.run(jobs_list):
            name, _file_name, data = files[job.key[0]]
            failure = crashed(result, "import", codes=(0, 1, 2))
            outcomes.append(ImportOutcome(name, len(data), result, failure))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return sorted(outcomes, key=lambda o: (o.size, o.name))


def import_summary(outcomes: list[ImportOutcome]) -> str:
    failed = [o for o in outcomes if o.failure]
    lines = [f"{len(outcomes)} hostile imports; {len(failed)} failed"]
    for outcome in outcomes:
        verdict = (
            f"FAIL [{outcome.failure.kind}] {outcome.failure.detail[:120]}"
            if outcome.failure
            else f"exit {outcome.result.code}"
        )
        lines.append(
            f"  {outcome.name}, {outcome.size:,} bytes: {outcome.result.seconds:.2f} s, "
            f"{outcome.result.maxrss_kb // 1024} MB, {verdict}"
        )
    return "\n".join(lines)


def formula_summary(outcomes: list[FormulaOutcome], seconds: float) -> str:
    failed = [o for o in outcomes if o.problem]
    slowest = max(outcomes, key=lambda o: o.seconds)
    lines = [
        f"{len(outcomes)} formulas in {seconds:.1f} s; {len(failed)} failed; slowest "
        f"{slowest.seconds:.3f} s ({slowest.tex[:60]!r})"
    ]
    lines += [f"  FAIL {o.tex[:100]!r}: {o.problem}" for o in failed[:20]]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=0, help="the campaign's seed (default 0)")
    parser.add_argument("--count", type=int, default=200, help="mutants to run (default 200)")
    parser.add_argument("--start", type=int, default=0, help="the first mutant's index")
    parser.add_argument("--only", type=int, action="append", help="run only mutant N (repeatable)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="children at once")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per run (default 10)")
    parser.add_argument("--max-rss-mb", type=int, default=1024, help="memory bound (default 1024)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="save failing mutants here")
    parser.add_argument(
        "--fork",
        action="store_true",
        help="call quizbank.cli.main in forked children instead of starting python -m quizbank",
    )
    parser.add_argument(
        "--minimize", action="store_true", help="shrink one mutant per distinct failure"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print every failing mutant")
    parser.add_argument(
        "--formulas", type=int, default=10_000, help="fuzzed formulas to check (default 10000)"
    )
    parser.add_argument(
        "--calculated",
        type=int,
        default=10_000,
        help="fuzzed calculated-question formulas to read and evaluate (default 10000)",
    )
    parser.add_argument(
        "--build-format",
        action="append",
        default=[],
        metavar="FORMAT",
        help="build the mutants in FORMAT alone (repeatable), such as pdf, which a plain build "
        "leaves out; default: a plain build, every format built by default",
    )
    parser.add_argument(
        "--import-sizes",
        default="100000,1000000",
        help="sizes in bytes of the hostile files for quizbank import, comma-separated, or none",
    )
    args = parser.parse_args(argv)
    failed = False
    if args.formulas:
        started = time.monotonic()
        formulas = list(check_formulas(args.seed, args.formulas))
        print(formula_summary(formulas, time.monotonic() - started), flush=True)
        failed = any(o.problem for o in formulas)
    if args.calculated:
        calculated = list(check_calculated(args.calculated, args.seed))
        wrong = [o for o in calculated if o.failure]
        for outcome in wrong[:20]:
            print(f"FAIL calculated {outcome.formula[:80]!r}: {outcome.failure}", flush=True)
        slowest = max(outcome.seconds for outcome in calculated)
        print(
            f"fuzz: {len(calculated)} calculated formulas; {len(wrong)} failed; slowest "
            f"{slowest:.3f} s",
            flush=True,
        )
        failed = failed or bool(wrong)
    if args.import_sizes != "none" and importlib.util.find_spec("import_hostile") is None:
        print("fuzz: no import stage: tests/import_hostile.py is not there", flush=True)
    elif args.import_sizes != "none":
        sizes = [int(size) for size in args.import_sizes.split(",")]
        imports = fuzz_imports(
            sizes,
            jobs=args.jobs,
            timeout=args.timeout,
            max_rss_mb=args.max_rss_mb,
            fork=args.fork,
        )
        print(import_summary(imports), flush=True)
        failed = failed or any(o.failure for o in imports)

    seeds = load_seeds()
    indexes = args.only or range(args.start, args.start + args.count)
    options = report_options()
    print(
        f"fuzz: seed {args.seed}, {len(indexes)} mutants of {len(seeds)} seed quizzes, "
        f"{args.jobs} jobs, {'fork' if args.fork else 'subprocess'} mode, "
        f"report option {options['json'][0]}",
        flush=True,
    )
    started = time.monotonic()
    done = 0

    def progress(outcome: Outcome) -> None:
        nonlocal done
        done += 1
        if outcome.failures and (args.verbose or args.only):
            for failure in outcome.failures:
                print(
                    f"FAIL {outcome.mutant.index} [{failure.kind}] {failure.signature} "
                    f"({failure.fmt}): {failure.detail[:200]!r}"
                )
            print(f"     {outcome.mutant.describe()[:400]}", flush=True)
        if args.keep and outcome.failures:
            keep(outcome, args.keep)
        if done % 100 == 0:
            print(f"fuzz: {done} mutants, {time.monotonic() - started:.0f} s", flush=True)

    outcomes = fuzz(
        (make_mutant(seeds, args.seed, i) for i in indexes),
        jobs=args.jobs,
        timeout=args.timeout,
        max_rss_mb=args.max_rss_mb,
        fork=args.fork,
        options=options,
        on_outcome=progress,
        build_formats=tuple(args.build_format),
    )
    print(summary(outcomes, time.monotonic() - started))
    if args.minimize:
        for key, items in signatures(outcomes).items():
            outcome = min(
                items, key=lambda item: len(item[0].mutant.files[item[0].mutant.mutated])
            )[0]
            small = minimize(
                outcome,
                key,
                timeout=args.timeout,
                max_rss_mb=args.max_rss_mb,
                fork=args.fork,
                options=options,
                build_formats=tuple(args.build_format),
            )
            print(
                f"\n[{key[0]}] {key[1]}: minimal {outcome.mutant.mutated!r} "
                f"(from mutant {outcome.mutant.index}), {len(small)} bytes:"
            )
            print(repr(small[:2000]))
            if args.keep:
                place = args.keep / "minimal"
                place.mkdir(parents=True, exist_ok=True)
                name = re.sub(r"[^A-Za-z0-9]+", "-", f"{key[0]}-{key[1]}")[:80]
                (place / f"{name}.yaml").write_bytes(small)
    return 1 if failed or any(o.failures for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
