"""`quizbank build`: check every quiz, render it with every chosen renderer, write atomically.

Quizzes are processed one at a time (on every core when the bank is large), so memory holds one
quiz per worker. Files are staged inside the output folder and moved into place only when the
whole bank is free of errors. Unchanged quizzes are taken from the cache.

A build of part of the bank (some files, some languages, some formats) rewrites the index pages
for the whole bank and removes only the outputs of quizzes that no longer exist in the sources it
was given, in the formats and languages it was asked for.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Protocol

from quizbank.bank import bank_titles, read_bank
from quizbank.cache import CACHE_FILE, BuildCache, CachedQuiz, file_stamp, renderer_key
from quizbank.diagnostics import Diagnostic, Report
from quizbank.errors import QuizbankError, UsageError
from quizbank.i18n import has_catalog
from quizbank.images import MAX_IMAGE_BYTES, content_folder
from quizbank.losses import loss_diagnostics
from quizbank.model import LANGUAGE_CODE
from quizbank.output import OutputFolder, check_output_folder, safe_relative
from quizbank.parallel import PARALLEL_THRESHOLD, parallel_map, tuned_gc
from quizbank.project import Bank, QuizFiles, check_quiz, discover
from quizbank.registry import Registry, configure, split_options
from quizbank.renderer import (
    OutputFile,
    QuizSummary,
    QuizTranslations,
    Renderer,
    RendererOptions,
    quiz_summaries,
    rendered_quiz,
)


@dataclass(frozen=True)
class BuildRequest:
    """What the user asked for on the command line."""

    paths: Sequence[Path]
    out_dir: Path
    formats: Sequence[str] = ()
    languages: Sequence[str] = ()
    options: Sequence[str] = ()
    strict: bool = False
    use_cache: bool = True
    jobs: int = 0
    force: bool = False  # write into a non-empty folder quizbank did not create
    max_image_bytes: int = MAX_IMAGE_BYTES


class BuildProgress(Protocol):
    """What follows a build quiz by quiz (a progress bar on a terminal)."""

    def start(self, total: int) -> None:
        """The build has found `total` quizzes."""

    def advance(self) -> None:
        """One more quiz is checked and rendered."""


@dataclass(frozen=True)
class ActiveRenderer:
    """A configured renderer and the cache key of its output."""

    name: str
    renderer: Renderer[RendererOptions]
    key: str


@dataclass
class QuizOutcome:
    """What processing one quiz produced, small enough to pass between processes."""

    quiz_id: str
    source: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    summaries: list[QuizSummary] = field(default_factory=list)
    written: dict[str, list[PurePosixPath]] = field(default_factory=dict)
    reused: dict[str, list[str]] = field(default_factory=dict)  # as recorded in the cache
    sources: list[str] = field(default_factory=list)  # its files, as absolute paths
    images: list[str] = field(default_factory=list)  # the image files it uses, likewise
    losses: dict[str, list[Diagnostic]] = field(default_factory=dict)  # by renderer key


@dataclass
class BuildResult:
    """The outcome of a build, for the summary line."""

    report: Report
    written: int = 0
    reused: int = 0
    quizzes: int = 0
    languages: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)  # for the user, not about content
    # By language: the questions not translated yet, which that language's outputs leave out.
    untranslated: dict[str, int] = field(default_factory=dict)
    losses: dict[str, int] = field(default_factory=dict)  # by format: warnings of what it loses


@dataclass
class _Job:
    """Everything a worker needs; inherited by forked workers, never pickled."""

    bank_languages: list[str]
    languages: list[str]
    renderers: list[ActiveRenderer]
    strict: bool
    max_image_bytes: int
    out_dir: Path
    staging: OutputFolder
    cache: BuildCache
    sources: dict[str, str] = field(default_factory=dict)  # quiz id: hash of its sources
    current: QuizTranslations | None = None  # the quiz whose formats workers render
    bank_title: dict[str, str] = field(default_factory=dict)  # by language, for bank files
    accepted_losses: dict[str, list[str]] = field(default_factory=dict)  # bank.yaml, by format

    @property
    def settings(self) -> str:
        """What the outcome of checking a quiz depends on besides its files."""
        accepted = sorted(self.accepted_losses.items())
        return f"{self.strict}|{self.max_image_bytes}|{sorted(self.bank_title.items())}|{accepted}"


_JOB: _Job | None = None
# A big quiz up to this size has its files checked, then its formats rendered, side by side by
# forked workers: while checking, each holds a file's node tree (about 11 MB per MiB of YAML);
# while rendering, the quiz and one whole export (about 11 MB per MiB of source). A bigger one
# is checked by one worker, a file at a time, and rendered here, a format at a time.
SPLIT_MAX_BYTES = 8 << 20


def plan_renderers(
    registry: Registry, formats: Sequence[str], option_pairs: Sequence[str], languages: list[str]
) -> list[ActiveRenderer]:
    """Configure the chosen renderers (by default, all that build by default) with their `-O`
    options."""
    entries = [registry.get(name) for name in dict.fromkeys(formats)] or [
        entry for entry in registry.renderers.values() if entry.cls.builds_by_default
    ]
    if not entries:
        raise UsageError("no renderer is installed")
    options = split_options(option_pairs, entries)
    active = []
    for entry in entries:
        renderer = configure(entry, options[entry.name])
        options_json = json.dumps(renderer.options.model_dump(mode="json"), sort_keys=True)
        key = renderer_key(entry.name, entry.version, entry.cls.__module__, options_json, languages)
        active.append(ActiveRenderer(entry.name, renderer, key))
    return active


def choose_languages(bank: Bank, wanted: Sequence[str]) -> list[str]:
    """The languages to render: those asked for, each of which must be in the bank."""
    unknown = [lang for lang in wanted if lang not in bank.languages]
    if unknown:
        raise UsageError(
            f"no quiz is in {', '.join(map(repr, unknown))}; the languages are "
            f"{', '.join(bank.languages) or 'none'}"
        )
    return list(dict.fromkeys(wanted)) or list(bank.languages)


@tuned_gc()
def build(
    request: BuildRequest, registry: Registry, progress: BuildProgress | None = None
) -> BuildResult:
    """Check and render the bank; write the outputs only when there is no error."""
    started = time.perf_counter()
    bank = discover(request.paths)
    if progress:
        progress.start(len(bank.groups))
    languages = choose_languages(bank, request.languages)
    renderers = plan_renderers(registry, request.formats, request.options, languages)
    check_output_folder(request.out_dir, request.paths, marker=CACHE_FILE, force=request.force)
    result = BuildResult(Report(files=bank.file_count), languages=len(languages))
    result.warnings += [
        f"quizbank has no interface catalog for {lang} "
        f"(quizbank/locale/{lang.replace('-', '_')}/LC_MESSAGES/quizbank.mo): its pages show "
        "the interface in English"
        for lang in languages
        if not has_catalog(lang)
    ]
    jobs = _worker_count(request.jobs, result.warnings)
    folder = OutputFolder(request.out_dir)
    global _JOB
    try:
        folder.open()
        cache = BuildCache()
        if request.use_cache:
            cache = BuildCache.load(request.out_dir, registry.names)
            if cache.warning:
                result.warnings.append(cache.warning)
        _JOB = _Job(
            bank.languages,
            languages,
            renderers,
            request.strict,
            request.max_image_bytes,
            request.out_dir,
            folder,
            cache,
            bank_title=_bank_title(bank, renderers),
            accepted_losses=_accepted_losses(bank),
        )
        outcomes: list[QuizOutcome] = []
        for outcome in _process_all(bank.groups, jobs):
            outcomes.append(outcome)
            result.report.extend(outcome.diagnostics)
            if progress:
                progress.advance()
        if result.report.has_errors:
            return result
        _finish(_JOB, outcomes, result, request.paths)
    except KeyboardInterrupt:
        if folder.committed:
            raise BuildInterrupted("interrupted after the export was written in full") from None
        raise
    finally:
        _JOB = None
        folder.close()
    result.quizzes = len(outcomes)
    names = {active.key: active.name for active in renderers}
    for outcome in outcomes:
        for key, lost in outcome.losses.items():
            result.losses[names[key]] = result.losses.get(names[key], 0) + len(lost)
    for summary in (s for outcome in outcomes for s in outcome.summaries if s.untranslated):
        result.untranslated[summary.lang] = (
            result.untranslated.get(summary.lang, 0) + summary.untranslated
        )
    result.seconds = time.perf_counter() - started
    return result


class BuildInterrupted(QuizbankError):
    """Ctrl-C or SIGTERM came while the last files were being moved into place."""

    exit_code = 130


def _worker_count(asked: int, warnings: list[str]) -> int:
    """The workers to start: as asked, but no more than twice the cores."""
    cores = os.cpu_count() or 1
    if asked > 2 * cores:
        warnings.append(f"-j {asked} is more than twice the {cores} cores; using {2 * cores}")
        return 2 * cores
    return asked


def _process_all(groups: list[QuizFiles], jobs: int) -> Iterator[QuizOutcome]:
    """Quizzes none of whose outputs changed come from the cache here; the others are checked
    and rendered, on every core when there are enough of them to spread."""
    job = _JOB
    assert job is not None
    changed = []
    for group in groups:
        cached = job.cache.quizzes.get(group.quiz_id)
        try:
            source = job.cache.source_hash(
                group.files, cached.images if cached else (), job.bank_languages, job.settings
            )
        except OSError:  # unreadable, a dangling link, gone: checking will say so, located
            source = ""
        job.sources[group.quiz_id] = source
        if (outcome := _cached_outcome(job, group.quiz_id, source)) is not None:
            yield outcome
        else:
            changed.append(group)
    workers = jobs or os.cpu_count() or 1
    if workers > 1 and len(changed) < PARALLEL_THRESHOLD:
        yield from _one_by_one(changed, workers)
    else:
        yield from parallel_map(_process, changed, jobs)


def _one_by_one(groups: list[QuizFiles], workers: int) -> Iterator[QuizOutcome]:
    """Too few quizzes to spread over the cores: each one is checked here, and a big one has
    its formats rendered side by side by forked workers instead."""
    for group in groups:
        if not group.is_big:
            yield _process(group)
        elif group.source_bytes <= SPLIT_MAX_BYTES:
            yield _process(group, check_workers=workers, split=workers)
        else:
            yield _process(group, check_workers=1)


def _process(group: QuizFiles, check_workers: int = 0, split: int = 0) -> QuizOutcome:
    """Check and render one quiz in a worker; unchanged outputs are taken from the cache.

    With `check_workers`, its files are checked in forked processes; with `split` workers, the
    renderers run side by side in forked processes that inherit the checked quiz.
    """
    job = _JOB
    assert job is not None, "a worker runs only inside build()"
    source = job.sources[group.quiz_id]
    outcome = QuizOutcome(group.quiz_id, source, sources=_source_paths(group))
    reusable = _reusable_outputs(job, group.quiz_id, source)
    checked = check_quiz(
        group,
        job.bank_languages,
        strict=job.strict,
        workers=check_workers,
        max_image_bytes=job.max_image_bytes,
    )
    outcome.diagnostics = checked.diagnostics
    if not checked.ok:
        return outcome
    # What is recorded is the hash of the bytes that were checked and rendered: a file edited
    # since it was hashed above is rendered as it now is, and recorded so.
    image_files = checked.image_files
    outcome.images = sorted(image_files)
    parsed = job.cache.source_hash_of(
        checked.digests, image_files, job.bank_languages, job.settings
    )
    if parsed != source:
        outcome.source = parsed
        reusable = dict.fromkeys(reusable)
    languages = [lang for lang in job.languages if lang in checked.translations]
    translations = QuizTranslations(
        group.quiz_id, checked.translations, languages, checked.images, job.bank_title
    )
    outcome.summaries = quiz_summaries(translations)
    for active in job.renderers:
        accepted = job.accepted_losses.get(active.name, ())
        if lost := loss_diagnostics(
            active.name,
            active.renderer,
            checked,
            translations,
            strict=job.strict,
            accepted=accepted,
        ):
            outcome.losses[active.key] = lost
            outcome.diagnostics = [*outcome.diagnostics, *lost]
    if job.strict and outcome.losses:
        return outcome  # an error: nothing is rendered, nothing written
    pending = []
    for index, active in enumerate(job.renderers):
        if (paths := reusable[active.key]) is not None:
            outcome.reused[active.key] = paths
        else:
            pending.append(index)
    if split and len(pending) > 1:
        job.current = translations
        try:
            rendered = list(parallel_map(_render_current, pending, split, threshold=2))
        finally:
            job.current = None
    else:
        rendered = [_render(job.renderers[index], translations) for index in pending]
    for index, written in zip(pending, rendered, strict=True):
        outcome.written[job.renderers[index].key] = written
    return outcome


def _cached_outcome(job: _Job, quiz_id: str, source: str) -> QuizOutcome | None:
    """What the last build made of a quiz, if its sources and every output are unchanged."""
    cached = job.cache.quizzes.get(quiz_id)
    if cached is None or cached.source != source:
        return None
    reusable = _reusable_outputs(job, quiz_id, source)
    if any(paths is None for paths in reusable.values()):
        return None
    losses = {
        r.key: [Diagnostic.from_json(d) for d in cached.losses[r.key]]
        for r in job.renderers
        if r.key in cached.losses
    }
    return QuizOutcome(
        quiz_id,
        source,
        diagnostics=[
            *(Diagnostic.from_json(d) for d in cached.warnings),
            *(d for found in losses.values() for d in found),
        ],
        losses=losses,
        summaries=[QuizSummary(**s) for s in cached.summaries],  # type: ignore[arg-type]
        reused={key: paths for key, paths in reusable.items() if paths is not None},
        sources=cached.sources,
        images=cached.images,
    )


def _source_paths(group: QuizFiles) -> list[str]:
    return [os.path.abspath(path) for path in group.files.values()]


def _reusable_outputs(job: _Job, quiz_id: str, source: str) -> dict[str, list[str] | None]:
    """For each renderer, its outputs of this quiz if they are current; None where they are not."""
    return {
        r.key: job.cache.current_outputs(job.out_dir, quiz_id, source, r.key) for r in job.renderers
    }


def _render(active: ActiveRenderer, translations: QuizTranslations) -> list[PurePosixPath]:
    """Render one quiz in one format into the staging folder; the files written."""
    assert _JOB is not None
    given = rendered_quiz(translations, active.renderer)
    return _stage(_JOB.staging, active.name, active.renderer.render_quiz(given))


def _stage(
    staging: OutputFolder, format_name: str, outputs: Iterable[OutputFile]
) -> list[PurePosixPath]:
    """Stage a renderer's files under its format's folder; their paths in the output folder."""
    written = []
    for output in outputs:
        relative = PurePosixPath(format_name) / output.path
        staging.write(relative, output.content)
        written.append(relative)
    return written


def _render_current(index: int) -> list[PurePosixPath]:
    """In a forked worker: render the quiz being processed with one of the renderers."""
    assert _JOB is not None and _JOB.current is not None
    return _render(_JOB.renderers[index], _JOB.current)


def _finish(
    job: _Job, outcomes: list[QuizOutcome], result: BuildResult, inputs: Sequence[Path]
) -> None:
    """Render the bank-wide files, move everything into place, prune and save the cache."""
    present = {outcome.quiz_id for outcome in outcomes}
    gone = {
        quiz_id
        for quiz_id, entry in job.cache.quizzes.items()
        if quiz_id not in present and _was_given(entry.sources, inputs)
    }
    others = [  # quizzes this build was not given: still listed by the bank-wide pages
        QuizSummary(**summary)  # type: ignore[arg-type]
        for quiz_id, entry in job.cache.quizzes.items()
        if quiz_id not in present and quiz_id not in gone
        for summary in entry.summaries
    ]
    summaries = sorted(
        [*(s for o in outcomes for s in o.summaries), *others], key=lambda s: (s.quiz_id, s.lang)
    )
    bank_files = [
        path
        for active in job.renderers
        for path in _stage(job.staging, active.name, active.renderer.render_bank(summaries))
    ]
    bank_files += _combined(job, summaries)
    # An image two quizzes use is one file, written by both.
    written = list(
        dict.fromkeys([p for o in outcomes for paths in o.written.values() for p in paths])
    )
    written += bank_files
    result.written = len(written)
    result.reused = sum(len(paths) for o in outcomes for paths in o.reused.values())
    kept = set(map(str, written)).union(*(paths for o in outcomes for paths in o.reused.values()))
    removed = _prune(job, present | gone, kept)
    for quiz_id in gone:
        if not any(job.cache.quizzes[quiz_id].outputs.values()):
            del job.cache.quizzes[quiz_id]
    staged = job.staging.staging
    assert staged is not None
    job.cache.stamp(staged, written)  # a rename keeps a file's size and time
    for outcome in outcomes:
        previous = job.cache.quizzes.get(outcome.quiz_id)
        if not outcome.written and previous is not None and previous.source == outcome.source:
            continue  # taken from the cache as it was recorded
        lost = {d for found in outcome.losses.values() for d in found}
        entry = CachedQuiz(
            outcome.source,
            [d.as_json() for d in outcome.diagnostics if d not in lost],
            [vars(s) for s in outcome.summaries],
            dict(previous.outputs) if previous and previous.source == outcome.source else {},
            outcome.sources,
            outcome.images,
            previous.losses if previous and previous.source == outcome.source else {},
        )
        entry.losses.update(
            {key: [d.as_json() for d in found] for key, found in outcome.losses.items()}
        )
        produced = {key: list(map(str, paths)) for key, paths in outcome.written.items()}
        for key, current in {**produced, **outcome.reused}.items():
            # Files just written replace what other options once wrote to the same paths.
            entry.outputs = {k: v for k, v in entry.outputs.items() if not set(v) & set(current)}
            entry.outputs[key] = current
        job.cache.quizzes[outcome.quiz_id] = entry
    job.cache.save(staged)
    job.staging.commit([*written, PurePosixPath(CACHE_FILE)], removed)


def _accepted_losses(bank: Bank) -> dict[str, list[str]]:
    """The losses bank.yaml accepts, by format (the content folder of the first quiz file
    holds bank.yaml)."""
    if not bank.groups:
        return {}
    first = next(iter(bank.groups[0].files.values()))
    return read_bank(content_folder(first)).accept_losses


def _bank_title(bank: Bank, renderers: Sequence[ActiveRenderer]) -> dict[str, str]:
    """The bank's title in each language, when a renderer writes a file of the whole bank (the
    content folder of the first quiz file holds bank.yaml)."""
    if not bank.groups or not any(active.renderer.combines for active in renderers):
        return {}
    first = next(iter(bank.groups[0].files.values()))
    return bank_titles(content_folder(first), bank.languages)


def _combined(job: _Job, summaries: Sequence[QuizSummary]) -> list[PurePosixPath]:
    """The bank-wide files of the renderers that make one: each language's from every quiz's
    file in it, staged by this build or kept from an earlier one, in the order of the ids."""
    staged = job.staging.staging
    assert staged is not None
    written: list[PurePosixPath] = []
    for active in job.renderers:
        if not active.renderer.combines:
            continue
        for lang in job.languages:
            parts = []
            for summary in summaries:
                if summary.lang != lang:
                    continue
                path = PurePosixPath(active.name) / active.renderer.output_path(
                    lang, summary.quiz_id
                )
                source = staged / path if (staged / path).is_file() else job.out_dir / path
                parts.append(source.read_bytes())
            bank = active.renderer.combine(lang, parts)
            if bank is not None:
                written += _stage(job.staging, active.name, [bank])
    return written


def _was_given(sources: Sequence[str], inputs: Sequence[Path]) -> bool:
    """Whether a build given `inputs` would have found every one of a quiz's source files."""
    given = [os.path.abspath(path) for path in inputs]
    return bool(sources) and all(
        any(source == path or source.startswith(path.rstrip(os.sep) + os.sep) for path in given)
        for source in sources
    )


def _prune(job: _Job, quiz_ids: set[str], kept: set[str]) -> list[PurePosixPath]:
    """What an earlier build wrote for these quizzes that this build no longer makes, in this
    build's formats and languages, to delete; a file changed since it was written is left."""
    deleted: list[PurePosixPath] = []
    formats = {active.name for active in job.renderers}
    languages = set(job.languages)
    every_language = languages >= set(job.bank_languages)
    for quiz_id in quiz_ids:
        entry = job.cache.quizzes.get(quiz_id)
        if entry is None:
            continue
        for key, paths in entry.outputs.items():
            removed = {
                path
                for path in paths
                if path not in kept
                and safe_relative(path) is not None
                and path.split("/", 1)[0] in formats
                and _in_languages(path, languages, every_language)
            }
            for path in removed:
                if job.cache.stamps.pop(path, None) == file_stamp(job.out_dir / path):
                    deleted.append(PurePosixPath(path))
            entry.outputs[key] = [path for path in paths if path not in removed]
    return deleted


def _in_languages(path: str, languages: set[str], every_language: bool) -> bool:
    """Whether an output belongs to the languages of a build: `<format>/<lang>/…` by its
    folder; any other file (one holding every language) only to a build of every language."""
    parts = path.split("/")
    if len(parts) > 2 and LANGUAGE_CODE.match(parts[1]):
        return parts[1] in languages
    return every_language
