"""What a format cannot carry of a quiz, as warnings at the lines an author would change.

A renderer says what it loses (`Renderer.losses`, one `Loss` per question and language); this
module turns that into one warning per question and format, at the question's own line in the
language file that loses it (once, in the reference language's file, when every language loses
the same), and one per quiz-level loss at the top of the file. A loss the bank accepts
(`accept_losses` in bank.yaml, by format: a question type, whose every loss is accepted, or a
quiz-level loss's kind such as `shuffle`) is not reported; with `--strict` the others are errors.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence

from quizbank.crosslang import reference_language
from quizbank.diagnostics import Diagnostic, Position, Severity
from quizbank.model import Cloze, Numerical, Quiz
from quizbank.project import CheckedQuiz
from quizbank.renderer import Loss, QuizTranslations, Renderer, RendererOptions, rendered_quiz
from quizbank.variables import variants


def loss_diagnostics(
    name: str,
    renderer: Renderer[RendererOptions],
    checked: CheckedQuiz,
    translations: QuizTranslations,
    *,
    strict: bool,
    accepted: Collection[str] = (),
) -> list[Diagnostic]:
    """The warnings (errors with `strict`) of what format `name` cannot carry of a quiz."""
    found: dict[tuple[str | None, str], list[tuple[str, int | None]]] = {}
    given = rendered_quiz(translations, renderer)  # what the renderer writes
    for lang in translations.languages:
        questions = translations[lang].questions
        by_question: dict[int | None, list[str]] = {}
        found_here = renderer.losses(given, lang)
        for loss in (*found_here, *_undrawn(renderer, translations[lang])):
            kind = loss.kind if loss.question is None else questions[loss.question].type
            if kind in accepted:
                continue
            by_question.setdefault(loss.question, []).append(loss.what)
        for index, clauses in by_question.items():
            qid = None if index is None else questions[index].id
            what = ", and ".join(dict.fromkeys(clauses))
            found.setdefault((qid, what), []).append((lang, index))
    severity = Severity.ERROR if strict else Severity.WARNING
    reference = reference_language(dict.fromkeys(translations.languages))
    diagnostics = []
    for (qid, what), places in found.items():
        if len(places) == len(translations.languages):  # every language: once, in the reference
            places = [next(p for p in places if p[0] == reference)]
        for lang, index in places:
            diagnostics.append(_diagnostic(name, checked, lang, index, qid, what, severity))
    return diagnostics


def _diagnostic(
    name: str,
    checked: CheckedQuiz,
    lang: str,
    index: int | None,
    qid: str | None,
    what: str,
    severity: Severity,
) -> Diagnostic:
    loaded = checked.files[lang]
    if index is None:
        top = loaded.document.root_position if loaded.document else Position()
        return Diagnostic(loaded.display, top, severity, "", f"{name}: the quiz {what}")
    starts: Sequence[Position] = loaded.question_positions  # (the file is not read again)
    position = starts[index] if index < len(starts) else Position()
    message = f"{name}: question {index + 1} ({qid}) {what}"
    return Diagnostic(loaded.display, position, severity, "", message)


def _undrawn(renderer: Renderer[RendererOptions], quiz: Quiz) -> Iterator[Loss]:
    """What a renderer that draws no variants or sections loses: all variants but the first,
    and every draw (`rendered_quiz` gives it the first variant, and every question)."""
    if not renderer.handles_variables:
        for index, question in enumerate(quiz.questions):
            if (
                isinstance(question, Numerical | Cloze)
                and question.variables
                and renderer.carries(question)
            ):
                count = len(variants(quiz.id, question))
                yield Loss(
                    index,
                    f"shows only the first of its {count} variants: {renderer.name} draws none",
                )
    if not renderer.handles_sections and quiz.sections:
        drawn = [s.id for s in quiz.sections if s.pick is not None and s.pick < len(s.questions)]
        if drawn:
            yield Loss(
                None,
                f"asks every question of the sections {', '.join(drawn)}: {renderer.name} draws "
                "no questions",
                kind="sections",
            )
