"""renderers/packages.py: a package's zip holds its files, the same bytes for the same files."""

from __future__ import annotations

import io
import random
import zipfile

import pytest
from quizbank_renderers.packages import MANIFEST, read_zip, write_zip

NAMES = ["a.xml", "items/q-1.xml", "images/shards-1a2b.svg", "images/ضلع-٣.png", "z/é.txt"]


def _files(seed: int) -> dict[str, bytes]:
    """Files of every kind a package holds: XML, repeated text, random bytes, empty, long."""
    rng = random.Random(seed)
    files: dict[str, bytes] = {}
    for name in rng.sample(NAMES, rng.randint(1, len(NAMES))):
        kind = rng.choice(("xml", "random", "empty", "long"))
        if kind == "xml":
            files[name] = b"<qti-item>" + b"<p>text</p>" * rng.randint(1, 50) + b"</qti-item>"
        elif kind == "random":
            files[name] = rng.randbytes(rng.randint(1, 5000))
        elif kind == "long":  # beyond zlib's window and its buffers
            files[name] = bytes(rng.choice(b"abcde <>") for _ in range(rng.randint(70_000, 90_000)))
        else:
            files[name] = b""
    if rng.random() < 0.5:
        files[MANIFEST] = b'<?xml version="1.0"?><manifest/>'
    return files


@pytest.mark.parametrize("seed", range(20))
def test_a_zip_holds_its_files_in_order_and_is_the_same_bytes_each_time(seed: int) -> None:
    files = _files(seed)
    for manifest_first in (False, True):
        written = write_zip(files, manifest_first=manifest_first)
        assert read_zip(written) == files
        assert zipfile.ZipFile(io.BytesIO(written)).testzip() is None
        shuffled = dict(random.Random(seed).sample(list(files.items()), len(files)))
        assert write_zip(shuffled, manifest_first=manifest_first) == written
        names = zipfile.ZipFile(io.BytesIO(written)).namelist()
        first = [MANIFEST] if manifest_first and MANIFEST in files else []
        assert names == first + sorted(set(files) - set(first))
