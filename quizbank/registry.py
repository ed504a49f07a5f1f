"""Finding renderers through the `quizbank.renderers` entry points and configuring them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

from pydantic import ValidationError

from quizbank.errors import RendererError, UsageError
from quizbank.renderer import Renderer, RendererOptions

ENTRY_POINT_GROUP = "quizbank.renderers"


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

    def get(self, name: str) -> RendererEntry:
        try:
            return self.renderers[name]
        except KeyError:
            raise UsageError(
                f"unknown format {name!r}; the formats are {', '.join(sorted(self.renderers))}"
            ) from None


def discover_renderers(points: Iterable[EntryPoint] | None = None) -> Registry:
    """Load every renderer entry point; a broken plug-in becomes a warning, a clash an error."""
    found: dict[str, RendererEntry] = {}
    warnings: list[str] = []
    for point in points if points is not None else entry_points(group=ENTRY_POINT_GROUP):
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
        if point.name in found and found[point.name].distribution != dist:
            raise RendererError(
                f"the renderer name {point.name!r} is taken twice: by "
                f"{found[point.name].distribution} and by {dist}"
            )
        found[point.name] = RendererEntry(point.name, cls, dist, version)
    return Registry(dict(sorted(found.items())), tuple(warnings))


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
        for entry in targets:
            assigned[entry.name][option] = value
    return assigned
