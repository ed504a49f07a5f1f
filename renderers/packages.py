"""What the QTI renderers (qti12, qti3) share of their zips: a content package written the same
bytes each time, and one package of a whole bank merged from every quiz's (`combine`).

A merged package holds each entry of every part once: an entry two parts hold (an image two quizzes
show, named by its content) must be the same bytes, or the parts collide and the merge is refused.
Its manifest is the first part's (its metadata, given a new identifier) with the resources of every
part, each once: a resource whose type and files an earlier part already lists is left out, and a
dependency on it made one on the earlier resource; an image whose identifier (its content's hash)
an earlier part gives an image of another name is given a new identifier (`<identifier>-2`).
"""

from __future__ import annotations

import copy
import io
import zipfile
from collections.abc import Mapping, Sequence

from lxml import etree

from quizbank.errors import RendererError

MANIFEST = "imsmanifest.xml"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can hold: the same bytes every build
_DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>\n'


def write_zip(files: Mapping[str, bytes], *, manifest_first: bool = False) -> bytes:
    """The files in a zip that is the same bytes for the same files: sorted by name (the
    manifest first, if asked), fixed times and permissions, deflated."""
    names = sorted(files, key=lambda name: (not (manifest_first and name == MANIFEST), name))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in names:
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    return out.getvalue()


def read_zip(data: bytes) -> dict[str, bytes]:
    """A zip's entries by name."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def merge_packages(parts: Sequence[bytes], identifier: str, renderer: str) -> dict[str, bytes]:
    """The files of one package holding every part's (each a package's zip), with one manifest;
    `identifier` is the merged manifest's. Raises RendererError when two parts hold different
    files at one path, or resources other than images under one identifier."""
    files: dict[str, bytes] = {}
    manifests = []
    for part in parts:
        for name, data in read_zip(part).items():
            if name == MANIFEST:
                manifests.append(etree.fromstring(data))
            elif files.setdefault(name, data) != data:
                raise RendererError(f"renderer {renderer!r}: two quizzes hold different {name}")
    if not manifests:
        return {}
    files[MANIFEST] = _merged_manifest(manifests, identifier, renderer)
    return files


def _merged_manifest(manifests: list[etree._Element], identifier: str, renderer: str) -> bytes:
    merged = copy.deepcopy(manifests[0])
    merged.set("identifier", identifier)
    namespace = etree.QName(merged).namespace
    resources = merged.find(f"{{{namespace}}}resources")
    if resources is None:
        raise RendererError(f"renderer {renderer!r}: a package's manifest has no resources")
    indent, end = resources.text, resources[-1].tail if len(resources) else None
    for old in list(resources):
        resources.remove(old)
    taken: set[str] = set()
    by_content: dict[tuple[str, ...], str] = {}  # a resource's identifier by its type and files
    for manifest in manifests:
        renamed: dict[str, str] = {}  # in this manifest: a resource left out or renamed
        added = []
        for resource in manifest.iterfind(f"{{{namespace}}}resources/{{{namespace}}}resource"):
            ident = resource.get("identifier", "")
            content = (
                resource.get("type", ""),
                resource.get("href", ""),
                *(f.get("href", "") for f in resource.iterfind(f"{{{namespace}}}file")),
            )
            if content in by_content:  # listed by an earlier part
                renamed[ident] = by_content[content]
                continue
            if ident in taken:  # the same content under other names (webcontent only)
                if resource.get("type") != "webcontent":
                    raise RendererError(f"renderer {renderer!r}: two quizzes have {ident!r}")
                renamed[ident] = _unused(ident, taken)
            new = copy.deepcopy(resource)
            new.set("identifier", renamed.get(ident, ident))
            taken.add(by_content.setdefault(content, new.get("identifier", "")))
            added.append(new)
        for new in added:
            for dependency in new.iterfind(f"{{{namespace}}}dependency"):
                ref = dependency.get("identifierref", "")
                dependency.set("identifierref", renamed.get(ref, ref))
            resources.append(new)
    for new in resources:  # laid out as the first manifest's resources are
        new.tail = indent
    if len(resources):
        resources[-1].tail = end
    return _DECLARATION + etree.tostring(merged, encoding="UTF-8", xml_declaration=False) + b"\n"


def _unused(ident: str, taken: set[str]) -> str:
    """`ident-2`, or the first of `ident-3`, `ident-4`… that no resource has."""
    number = 2
    while f"{ident}-{number}" in taken:
        number += 1
    return f"{ident}-{number}"
