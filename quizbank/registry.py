"""Finding renderers through the `quizbank.renderers` entry points and configuring them."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points

from pydantic import ValidationError

from quizbank.errors import UsageError
from quizbank.renderer import Renderer, RendererOptions

ENTRY_POINT_GROUP = "quizbank.renderers"
BUILTIN_DISTRIBUTION = "quizbank"


@dataclass(frozen=True)
class RendererEntry:
    """A renderer found through an entry point, and the distribution that provides it."""

    name: str
    cls: type[Renderer[RendererOptions]]
    distribution: str
    version: str

    @property
    def origin(self) -> str:
        return f"{self.distribution} {self.version}"


@dataclass(frozen=True)
class Registry:
    """The renderers found, by name, and the plug-ins that could not be loaded."""

    renderers: Mapping[str, RendererEntry]
    warnings: tuple[str, ...] = ()
    errors: Mapping[str, str] = field(default_factory=dict)  # a name claimed twice: why
    not_loaded: frozenset[str] = frozenset()  # installed, but not asked for: never imported

    @property
    def names(self) -> list[str]:
        """Every format installed, loaded or not."""
        return sorted({*self.renderers, *self.not_loaded})

    def get(self, name: str) -> RendererEntry:
        if name in self.renderers:
            return self.renderers[name]
        if name in self.errors:
            raise UsageError(self.errors[name])
        raise UsageError(f"unknown format {name!r}; the formats are {', '.join(self.names)}")


def discover_renderers(
    points: Iterable[EntryPoint] | None = None, wanted: Collection[str] = ()
) -> Registry:
    """Load the renderer entry points named in `wanted` (all of them if none is); a broken
    plug-in becomes a warning, a clash an error.

    A clash concerns its name only: a plug-in that claims a built-in's name is left out (the
    built-in keeps it); two plug-ins that claim one name are both left out. Every other
    renderer works as usual. A renderer not wanted is not imported: a one-format build does not
    pay for importing the others (nor hears of a broken plug-in it does not use).
    """
    found: dict[str, RendererEntry] = {}
    claims: dict[str, list[RendererEntry]] = {}
    warnings: list[str] = []
    not_loaded: set[str] = set()
    for point in points if points is not None else entry_points(group=ENTRY_POINT_GROUP):
        if wanted and point.name not in wanted:
            not_loaded.add(point.name)
            continue
        dist = point.dist.name if point.dist else "unknown distribution"
        version = point.dist.version if point.dist else "?"
        try:
            cls = point.load()
        except Exception as exc:  # a plug-in's import can fail in any way; report, go on
            warnings.append(
                f"renderer {point.name!r} from {dist} could not be loaded: "
                f"{type(exc).__name__}: {exc}"
            )
            continue
        if not (isinstance(cls, type) and issubclass(cls, Renderer)):
            warnings.append(
                f"renderer {point.name!r} from {dist} is not a quizbank Renderer ({point.value})"
            )
            continue
        entry = RendererEntry(point.name, cls, dist, version)
        same = claims.setdefault(point.name, [])
        if all(e.distribution != dist for e in same):
            same.append(entry)
    errors: dict[str, str] = {}
    for name, entries in claims.items():
        builtin = [e for e in entries if e.distribution == BUILTIN_DISTRIBUTION]
        if len(entries) == 1 or (builtin and len(entries) > 1):
            found[name] = (builtin or entries)[0]
        if len(entries) > 1:
            errors[name] = _clash_message(name, entries, builtin[0] if builtin else None)
    return Registry(
        dict(sorted(found.items())), tuple(warnings), errors, frozenset(not_loaded - set(found))
    )


def _clash_message(name: str, entries: list[RendererEntry], builtin: RendererEntry | None) -> str:
    """Why a renderer name claimed by several distributions is used as it is, or not at all."""
    dists = " and by ".join(e.distribution for e in entries)
    if builtin is not None:
        others = ", ".join(e.distribution for e in entries if e is not builtin)
        return (
            f"the renderer name {name!r} is taken twice: by {dists}; the built-in {name!r} "
            f"is used and {others}'s is ignored (rename its entry point)"
        )
    return (
        f"the renderer name {name!r} is taken twice: by {dists}; neither is used until one "
        "of them is renamed or uninstalled"
    )


def configure(entry: RendererEntry, raw: Mapping[str, str]) -> Renderer[RendererOptions]:
    """Build a renderer from string options, with errors that name the renderer and option."""
    try:
        options = entry.cls.Options.model_validate(dict(raw))
    except ValidationError as exc:
        messages = []
        for error in exc.errors(include_url=False):
            option = ".".join(str(part) for part in error["loc"])
            if error["type"] == "extra_forbidden":
                valid = ", ".join(entry.cls.Options.model_fields) or "none"
                messages.append(
                    f"renderer {entry.name!r} has no option {option!r} (its options: {valid})"
                )
            else:
                messages.append(f"renderer {entry.name!r} option {option!r}: {error['msg']}")
        raise UsageError("; ".join(messages)) from None
    return entry.cls(options)


def split_options(
    pairs: Iterable[str], formats: Iterable[RendererEntry]
) -> dict[str, dict[str, str]]:
    """Assign `-O KEY=VALUE` (or `FORMAT.KEY=VALUE`) to the chosen renderers that declare KEY."""
    chosen = list(formats)
    assigned: dict[str, dict[str, str]] = {entry.name: {} for entry in chosen}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"-O takes KEY=VALUE, got {pair!r}")
        target, dot, option = key.rpartition(".")
        targets = [
            e for e in chosen if (e.name == target if dot else option in e.cls.Options.model_fields)
        ]
        if not targets:
            known = sorted(
                f"{e.name}.{name}" for e in chosen for name in e.cls.Options.model_fields
            )
            raise UsageError(
                f"no chosen format has the option {key!r}; the options are "
                f"{', '.join(known) or 'none'}"
            )
        if not dot and len(targets) > 1:
            forms = " or ".join(f"-O {e.name}.{option}={value}" for e in targets)
            raise UsageError(
                f"-O {pair}: {_all_of([e.name for e in targets])} the option "
                f"{option!r}; say which one with {forms}"
            )
        for entry in targets:
            assigned[entry.name][option] = value
    return assigned


def _all_of(names: list[str]) -> str:
    """`html and moodle both have`, or `html, moodle and qti3 all have`."""
    if len(names) == 2:
        return f"{names[0]} and {names[1]} both have"
    return f"{', '.join(names[:-1])} and {names[-1]} all have"
