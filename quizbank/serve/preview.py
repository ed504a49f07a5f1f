"""The served site, in memory: every quiz checked and rendered as `build` renders it (nothing is
written), its pages kept with the key of the files they were made from, and rendered again when
those files change; a quiz with errors is served as the page of its problems.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from quizbank.diagnostics import Diagnostic, display_path
from quizbank.errors import QuizbankError
from quizbank.images import MEDIA_TYPES
from quizbank.parallel import parallel_map
from quizbank.project import SUFFIXES, Bank, QuizFiles, check_quiz, discover, link_problem
from quizbank.renderer import (
    QuizSummary,
    QuizTranslations,
    Renderer,
    RendererOptions,
    quiz_summaries,
    rendered_quiz,
)
from quizbank.serve.events import EventBroker
from quizbank.serve.live import live_page
from quizbank.serve.problem_pages import error_page, failure_page, with_warnings
from quizbank.yamlsource import YamlError, read_bytes

_PAGE_PATH = re.compile(r"/([A-Za-z0-9-]+)/([a-z0-9-]+)\.html")


@dataclass
class QuizPages:
    """One quiz as last checked: the key of its files' contents and what is served of it."""

    key: tuple[tuple[str, str, str], ...]
    pages: dict[str, bytes]  # URL path: page
    summaries: list[QuizSummary]
    errors: bool
    images: dict[str, str] = field(default_factory=dict)  # real path: SHA-256, of those shown
    diagnostics: list[Diagnostic] = field(default_factory=list)  # every problem found

    @property
    def version(self) -> str:
        """A short name of the contents its pages were made from."""
        made_from = (self.key, sorted(self.images.items()))
        return hashlib.sha256(repr(made_from).encode()).hexdigest()[:16]


@dataclass
class _Checked:
    """A quiz checked and rendered (in a worker at start-up)."""

    quiz_id: str
    entry: QuizPages


def _read(group: QuizFiles) -> tuple[tuple[tuple[str, str, str], ...], dict[str, str]]:
    """The key of a quiz's files' contents, and their texts by displayed path. A file checking
    refuses unread (a link out of the content folder, a named pipe, one too big) is read here
    neither: its key is why, and nothing of it is quoted."""
    key = []
    texts: dict[str, str] = {}
    for lang, path in sorted(group.files.items()):
        refused = link_problem(path)
        if refused is None:
            try:
                data = read_bytes(path)
            except YamlError as exc:
                refused = exc.message
            except OSError as exc:
                refused = str(exc.strerror or exc)
        if refused is not None:  # checking says why, at the file
            key.append((lang, str(path), refused))
            continue
        key.append((lang, str(path), hashlib.sha256(data).hexdigest()))
        texts[display_path(path)] = data.decode("utf-8", errors="replace")
    return tuple(key), texts


def render_quiz(
    group: QuizFiles, languages: list[str], renderer: Renderer[RendererOptions]
) -> QuizPages:
    """Check one quiz and render its pages, or its error page in each of its languages."""
    key, texts = _read(group)
    checked = check_quiz(group, languages, strict=False)
    pages: dict[str, bytes] = {}
    if not checked.ok:
        version = QuizPages(key, {}, [], True).version
        page = error_page(group.quiz_id, checked.diagnostics, texts, version).encode("utf-8")
        for lang in group.files:
            pages[f"/{lang}/{group.quiz_id}.html"] = page
        return QuizPages(key, pages, [], True, diagnostics=checked.diagnostics)
    images = {os.path.realpath(path): sha for path, sha in checked.image_files.items()}
    version = QuizPages(key, {}, [], False, images).version
    present = [lang for lang in languages if lang in checked.translations]
    translations = QuizTranslations(group.quiz_id, checked.translations, present, checked.images)
    try:
        outputs = list(renderer.render_quiz(rendered_quiz(translations, renderer)))
    except Exception as exc:  # a defect of the renderer: the preview survives it, and says so
        page = failure_page(group.quiz_id, renderer.name, exc, version).encode("utf-8")
        pages = {f"/{lang}/{group.quiz_id}.html": page for lang in group.files}
        return QuizPages(key, pages, [], True, images, checked.diagnostics)
    for output in outputs:
        text = live_page(output.content.decode("utf-8"), group.quiz_id, version)
        text = with_warnings(text, checked.diagnostics, texts)
        pages[f"/{output.path.as_posix()}"] = text.encode("utf-8")
    summaries = quiz_summaries(translations)
    return QuizPages(key, pages, summaries, False, images, checked.diagnostics)


_RENDERER: Renderer[RendererOptions] | None = None
_LANGUAGES: list[str] = []


def _check_in_worker(group: QuizFiles) -> _Checked:
    assert _RENDERER is not None
    return _Checked(group.quiz_id, render_quiz(group, _LANGUAGES, _RENDERER))


class Preview:
    """The served site: every quiz's pages and the index, kept current by `update`."""

    def __init__(self, paths: Sequence[Path], renderer: Renderer[RendererOptions]) -> None:
        self.paths = list(paths)
        self.renderer = renderer
        self.broker = EventBroker()
        self.languages: list[str] = []
        self.quizzes: dict[str, QuizPages] = {}
        self.groups: dict[str, QuizFiles] = {}
        self._owners: dict[str, str] = {}  # by the real path of each file: its quiz's id
        self._folders: set[str] = set()  # the real paths of their language and content folders
        self.problem = ""  # why nothing is served (no quiz file found), if so
        self._index: bytes | None = None
        self._generation = 0  # of the index: one more at each change of what it shows
        self._lock = threading.Lock()

    def _discover(self) -> Bank:
        try:
            bank = discover(self.paths)
        except QuizbankError as exc:
            self.problem = str(exc)
            return Bank([], [])
        self.problem = ""
        return bank

    def load(self) -> None:
        """Check and render every quiz (on every core when there are many)."""
        global _RENDERER, _LANGUAGES
        bank = self._discover()
        _RENDERER, _LANGUAGES = self.renderer, bank.languages
        try:
            checked = list(parallel_map(_check_in_worker, bank.groups))
        finally:
            _RENDERER = None
        with self._lock:
            self._set_groups(bank)
            self.quizzes = {item.quiz_id: item.entry for item in checked}
            self._index = None
            self._generation += 1

    def _set_groups(self, bank: Bank) -> None:
        self.languages = bank.languages
        self.groups = {group.quiz_id: group for group in bank.groups}
        self._owners = {
            os.path.realpath(path): group.quiz_id
            for group in bank.groups
            for path in group.files.values()
        }
        self._folders = {
            os.path.realpath(folder)
            for group in bank.groups
            for path in group.files.values()
            for folder in (path.parent, path.parent.parent)
        }

    def watches(self, change: object, path: str) -> bool:
        """Whether a change matters: to a quiz file, an image (which quizzes show), or a
        folder (one added, or one of the bank's renamed or gone)."""
        return (
            path.endswith(SUFFIXES)
            or _is_image(path)
            or path in self._folders
            or os.path.isdir(path)
        )

    def update(self, changed: Iterable[str], *, modified_only: bool = False) -> set[str]:
        """After files changed: check and render again the quizzes whose files changed, drop
        those gone; tell the browsers. Returns the ids of the quizzes whose pages changed.

        When every change is to the contents of a file already known (`modified_only`), the
        bank is not looked through again: only those quizzes are read. A folder changed (added,
        renamed, gone) has every quiz looked through again."""
        changed = list(changed)
        if any(not path.endswith(SUFFIXES) and not _is_image(path) for path in changed):
            return self.rescan()
        paths = [path for path in changed if path.endswith(SUFFIXES)]
        stems = {Path(path).stem for path in paths} | self._showing(changed)
        owners = [self._owners.get(os.path.realpath(path)) for path in paths]
        if modified_only and paths and all(owners):
            with self._lock:
                groups = [self.groups[quiz_id] for quiz_id in dict.fromkeys(owners) if quiz_id]
            bank = Bank(groups, self.languages)
            return self._refresh(bank, stems, set())
        if not paths:  # only images: the quizzes that show them, or that missed one
            with self._lock:
                groups = [self.groups[quiz_id] for quiz_id in stems if quiz_id in self.groups]
            return self._refresh(Bank(groups, self.languages), stems, set(), images=True)
        bank = self._discover()
        present = {group.quiz_id for group in bank.groups}
        return self._refresh(bank, stems, set(self.quizzes) - present, whole=True)

    def rescan(self) -> set[str]:
        """Look through the bank again, and check again every quiz whose files' contents
        changed (after folders were renamed, moved away or back, replaced)."""
        bank = self._discover()
        present = {group.quiz_id for group in bank.groups}
        return self._refresh(bank, present, set(self.quizzes) - present, whole=True)

    def _showing(self, changed: Iterable[str]) -> set[str]:
        """The quizzes that show one of the changed images, or that have errors (a missing image
        may just have been added)."""
        images = {os.path.realpath(path) for path in changed if _is_image(path)}
        if not images:
            return set()
        with self._lock:
            return {
                quiz_id
                for quiz_id, entry in self.quizzes.items()
                if entry.errors or not images.isdisjoint(entry.images)
            }

    def _refresh(
        self,
        bank: Bank,
        stems: set[str],
        gone: set[str],
        *,
        whole: bool = False,
        images: bool = False,
    ) -> set[str]:
        """Check and render again the quizzes of `bank` that changed (with `images`, all of
        them: an image they show changed); with `whole`, `bank` is every quiz now served."""
        everything = bank.languages != self.languages
        done: dict[str, QuizPages] = {}
        for group in bank.groups:
            previous = self.quizzes.get(group.quiz_id)
            if (
                everything
                or previous is None
                or group.quiz_id in stems
                or self.groups.get(group.quiz_id) != group
            ):
                key, _ = _read(group)
                if previous is not None and previous.key == key and not (everything or images):
                    continue  # saved without a change
                done[group.quiz_id] = render_quiz(group, bank.languages, self.renderer)
        with self._lock:
            if whole:
                self._set_groups(bank)
            for quiz_id in gone:
                del self.quizzes[quiz_id]
            self.quizzes.update(done)
            if done or gone:
                self._index = None
                self._generation += 1
        affected = set(done) | gone
        if affected:
            self.broker.publish(affected)
        return affected

    def index(self) -> bytes:
        with self._lock:
            if self._index is None:
                self._index = self._render_index()
            return self._index

    def _render_index(self) -> bytes:
        summaries = sorted(
            (s for entry in self.quizzes.values() for s in entry.summaries),
            key=lambda s: (s.quiz_id, s.lang),
        )
        notes = []
        try:
            page = "".join(
                output.content.decode("utf-8") for output in self.renderer.render_bank(summaries)
            )
        except Exception as exc:  # a defect of the renderer: the preview survives it
            page = ""
            what = f"{type(exc).__name__}: {exc}"
            notes.append(
                f"<p>The {html.escape(self.renderer.name)} renderer failed on the index: "
                f"<code>{html.escape(what)}</code></p>"
            )
        if not page:
            page = "<!DOCTYPE html>\n<html><head></head><body></body></html>\n"
        broken = sorted(quiz_id for quiz_id, entry in self.quizzes.items() if entry.errors)
        if self.problem:
            notes.append(f"<p>{html.escape(self.problem)}</p>")
        if broken:
            links = ", ".join(
                f'<a href="{html.escape(next(iter(self.quizzes[q].pages))[1:])}">'
                f"{html.escape(q)}</a>"
                for q in broken
            )
            notes.append(f"<p>Quizzes with errors: {links}</p>")
        if notes:
            banner = (
                '<div role="alert" style="border:2px solid #b00020;padding:0 1rem;margin:1rem">'
                + "".join(notes)
                + "</div>\n"
            )
            at = page.find("<body>")
            if at >= 0:
                page = page[: at + 6] + "\n" + banner + page[at + 6 :]
        return live_page(page, "", str(self._generation)).encode("utf-8")

    def version(self, quiz_id: str) -> str:
        """The version of a quiz's pages now served ("" for the index); "gone" if none."""
        with self._lock:
            if not quiz_id:
                return str(self._generation)
            entry = self.quizzes.get(quiz_id)
            return entry.version if entry else "gone"

    def lookup(self, path: str) -> bytes | None:
        """The page at a URL path, if the server rendered one there; None otherwise."""
        if path in ("/", "/index.html"):
            return self.index()
        match = _PAGE_PATH.fullmatch(path)
        if match is None:
            return None
        with self._lock:
            entry = self.quizzes.get(match.group(2))
            return entry.pages.get(path) if entry else None


def _is_image(path: str) -> bool:
    return os.path.splitext(path)[1].lower() in MEDIA_TYPES
