"""The layering ARCHITECTURE.md states, enforced: every module is in a layer, imports only from
its own layer and those below (imports inside functions and under TYPE_CHECKING too), the core
never imports a renderer, and no modules import each other around a loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from conftest import REPO

RENDERERS = "quizbank_renderers"
# Layer by module (without the `quizbank.` prefix); a package's modules take its layer.
LAYERS: dict[str, int] = {
    **dict.fromkeys(
        [
            "quizbank",
            "errors",
            "diagnostics",
            "paths",
            "locales",
            "scripts",
            "parallel",
            "scramble",
            "formula",
            "maths",
            "images",
            "yamlvalues",
            "sourcefile",
            "yamlcompose",
            "yamlconstruct",
            "yamlsyntax",
            "yamlsource",
        ],
        1,
    ),
    **dict.fromkeys(
        [
            "markup",
            "model",
            "gaps",
            "grading",
            "i18n",
            "messages",
            "schema",
            "variables",
            "bank",
            "output",
        ],
        2,
    ),
    **dict.fromkeys(
        [
            "rules",
            "variable_rules",
            "section_rules",
            "loader",
            "crosslang",
            "freshness",
            "placeholders",
            "schemaline",
        ],
        3,
    ),
    **dict.fromkeys(["project", "renderer", "registry", "losses", "cache"], 4),
    **dict.fromkeys(
        [
            "build",
            "serve",
            "status",
            "translated",
            "scaffold",
            "importer",
            "commands",
            "cli",
            "__main__",
        ],
        5,
    ),
}
HIGHEST_FOR_RENDERERS = 4


def modules() -> dict[str, Path]:
    """Every module of the core and of the built-in renderers, by its dotted name."""
    found = {}
    for folder, package in ((REPO / "quizbank", "quizbank"), (REPO / "renderers", RENDERERS)):
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that a module imports, anywhere in it."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return (found & known) - {name}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def layer(name: str) -> int | None:
    """A core module's layer (that of its top package under quizbank/)."""
    parts = name.split(".")
    return LAYERS.get(parts[1] if len(parts) > 1 else parts[0])


def cycles(edges: dict[str, set[str]]) -> Iterator[list[str]]:
    """Each set of modules that import each other around a loop (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(node: str) -> Iterator[list[str]]:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                yield from visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                yield sorted(component)

    for node in sorted(edges):
        if node not in index:
            yield from visit(node)


def test_every_core_module_is_in_a_layer() -> None:
    unplaced = [
        name
        for name in graph()
        if name.startswith("quizbank") and not name.startswith(RENDERERS) and layer(name) is None
    ]
    assert unplaced == [], "place each in a layer of ARCHITECTURE.md and of LAYERS here"


def test_imports_go_only_downward() -> None:
    upward = []
    for name, imported in graph().items():
        for other in sorted(imported):
            if other.startswith(RENDERERS):
                if not name.startswith(RENDERERS):
                    upward.append(f"{name} imports the renderer {other}")
                continue
            theirs = layer(other)
            assert theirs is not None, other
            mine = HIGHEST_FOR_RENDERERS if name.startswith(RENDERERS) else layer(name)
            if mine is not None and theirs > mine:
                upward.append(f"{name} (layer {mine}) imports {other} (layer {theirs})")
    assert upward == []


def test_no_modules_import_each_other() -> None:
    assert list(cycles(graph())) == []


def test_the_cycle_finder_finds_a_loop() -> None:
    assert list(cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})) == [["a", "b", "c"]]


def test_the_map_names_every_layer_s_modules() -> None:
    text = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = [name for name in LAYERS if name != "quizbank" and f"`{name}`" not in text]
    assert missing == []
