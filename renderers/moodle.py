"""Moodle XML, written the way Moodle's importer reads it (question/format/xml/format.php).

One file per quiz and language: a category question first, then a question per question, each
type written by its writer in moodle_types.py (multichoice, truefalse, numerical, shortanswer,
match, ordering, multianswer, essay), every text through moodle_text.py (CDATA, what Moodle
would read as its own markup made inert, images as the question's files, formulas as TeX).

Multilang (`-O multilang=...`), `multilang/<quiz-id>.xml` with every language in one question:

- `true` or `spans` (Moodle's standard multilang filter, `<span lang="xx" class="multilang">`).
  A span may hold only phrasing content: Moodle's HTML cleaner and its editor move a paragraph
  or list out of a span, and then every language shows. So the spans go inside each block
  (paragraph, list item, heading, code block) when the languages' blocks correspond (see
  multilang.py); when they do not (a list in one language, a paragraph in another), each
  language is given inline, its blocks as lines, in one paragraph of spans. Urdu loses its
  `<div dir="rtl">`: a span takes no other attribute, so the page's direction is the language's.
  Works on any Moodle: the filter is in core (turn it on, first in the list).
- `mlang2` (the multilang2 filter plugin, filter_multilang2: `{mlang en,other}…{mlang}{mlang
  ur}…{mlang}`). Each language's HTML is whole, exactly as in its own file (Urdu keeps its
  right-to-left `<div>`), whatever the structure of the other languages: the tags are text,
  which the cleaner and the editor leave alone. The reference language is also `other`, which
  the filter shows in a language the file does not have (it shows nothing there otherwise).
  Needs the plugin installed and on.

The XML is written as text, a question at a time, in the layout lxml's
`tostring(pretty_print=True)` gave the tree this renderer used to build (building and
serialising a tree of every element was most of its time, and much of its memory on a big
quiz). Each question is checked for the characters that XML cannot carry.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from html import escape
from operator import attrgetter
from pathlib import PurePosixPath
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from quizbank.crosslang import reference_language
from quizbank.errors import RendererError
from quizbank.locales import option_letter
from quizbank.markup import to_plain
from quizbank.model import Cloze, Numerical, Question, Quiz
from quizbank.renderer import (
    Loss,
    OutputFile,
    QuizTranslations,
    Renderer,
    RendererOptions,
    in_sections,
)
from quizbank.variables import variant_question, variants

from .moodle_calculated import Placeholders, shown_differently
from .moodle_text import (
    Syntax,
    Versions,
    _aligned,
    _braces_inert,
    _cdata,
    _encoded,
    _field,
    _html,
    _media,
    _mlang2,
    category_name,
    idnumber_of,
    inert_text,
    question_name,
    untagged,
    without_images,
)
from .moodle_types import WRITERS, Settings, calculated
from .multilang import spans

_BOOLEAN_WORDS = {"true": True, "yes": True, "on": True, "1": True}
_BOOLEAN_WORDS |= {"false": False, "no": False, "off": False, "0": False}


def _multilang_value(value: object) -> object:
    """`-O multilang=true` or `=false` (in any case) as a boolean; a syntax's name as given."""
    if isinstance(value, str):
        return _BOOLEAN_WORDS.get(value.strip().lower(), value)
    return value


Multilang = Literal[False, True, "spans", "mlang2"]


class MoodleOptions(RendererOptions):
    """Options of the Moodle XML renderer."""

    multilang: Annotated[Multilang, BeforeValidator(_multilang_value)] = Field(
        False,
        description="Also write multilang/<quiz-id>.xml, every language in one question: "
        "true or spans in the spans of Moodle's own multilang filter; mlang2 in the "
        "{mlang xx} tags of the multilang2 filter plugin.",
    )
    shuffle: bool = Field(True, description="Let Moodle shuffle the options (shuffleanswers).")
    numbering: Literal["abc", "ABCD", "123", "iii", "IIII", "none"] = Field(
        "abc", description="How Moodle numbers the options (answernumbering)."
    )
    bank: bool = Field(
        False,
        description="Also write bank/<lang>.xml, every quiz in one file for one import, each in "
        "its own category under the bank's ($course$/top/<bank title>/<quiz title>); the bank's "
        "title is in content/bank.yaml, or the folder's name.",
    )


_DESCRIPTION = attrgetter("description")
_PROMPT = attrgetter("prompt")
_EXPLANATION = attrgetter("explanation")

_XML_DECLARATION = "<?xml version='1.0' encoding='UTF-8'?>\n"


def _tags(tags: Sequence[str]) -> str:
    """The `<tags>` of every question of a quiz; nothing when it has none."""
    if not tags:
        return ""
    items = "".join(
        f"      <tag>\n        <text>{_cdata(inert_text(tag))}</text>\n      </tag>\n"
        for tag in tags
    )
    return f"    <tags>\n{items}    </tags>\n"


def _category_title(versions: Versions[str], syntax: Syntax) -> str:
    """A title (the quiz's, a section's) as a category's name: plain text; in a file of several
    languages, every language's, in the `syntax` of the file. Moodle stores a category's name
    as the file gives it (multilang spans and tags included) and shows it through
    format_string(), which filters it when *Filter all strings* is on (tags stripped
    otherwise), so that an import of the file gets every language's title back."""
    titles = [(lang, inert_text(untagged(to_plain(title)))) for lang, title in versions]
    if len(titles) == 1 or len({title for _, title in titles}) == 1:
        return titles[0][1]
    texts = [(lang, escape(title, quote=False)) for lang, title in titles]
    return _mlang2(texts) if syntax == "mlang2" else spans(texts)


def _category(path: str, info: str = "") -> str:
    """A category question: the questions after it go to the category `path` (made when
    missing), under the course's top category."""
    return (
        '  <question type="category">\n'
        "    <category>\n"
        f"      <text>{_cdata(f'$course$/top/{path}')}</text>\n"
        "    </category>\n"
        f"{_field('info', info)}"
        "  </question>\n"
    )


def _placed(versions: Versions[Quiz], syntax: Syntax) -> Iterator[tuple[str, Versions[Question]]]:
    """Each question with its versions, after its section's category path below the quiz's
    (empty without sections), in the order of the sections (renderer.in_sections)."""
    questions = _aligned([(lang, quiz.questions) for lang, quiz in versions])
    by_id = {question.id: same for question, same in questions}
    paths = {
        section.id: category_name(
            _category_title([(lang, each.title or each.id) for lang, each in same], syntax)
        )
        for section, same in _aligned([(lang, quiz.sections or []) for lang, quiz in versions])
    }
    for section, question in in_sections(versions[0][1]):
        yield ("" if section is None else paths[section.id]), by_id[question.id]


class MoodleRenderer(Renderer[MoodleOptions]):
    """Moodle XML for the question bank import: a category per quiz and language."""

    name = "moodle"
    description = "Moodle XML for the question bank import (optionally bilingual, multilang)"
    extension = "xml"
    Options = MoodleOptions
    handles_variables = True
    handles_sections = True
    quiz_loss_kinds = ("sections",)

    def __init__(self, options: MoodleOptions) -> None:
        super().__init__(options)
        # The syntax of a file in several languages: `-O multilang=true` is the spans.
        self._syntax: Syntax = "mlang2" if options.multilang == "mlang2" else "spans"
        self._settings_by_langs: dict[tuple[str, ...], Settings] = {}

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        return self._file(quiz, [lang], lang).decode()

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        """The file of each language, and the multilang file when asked for and bilingual."""
        for lang in quiz.languages:
            yield OutputFile(self.output_path(lang, quiz.quiz_id), self._file(quiz, [lang], lang))
        langs = [lang for lang in quiz.languages if lang in quiz.by_lang]
        if not (self.options.multilang and len(langs) > 1):
            return
        first = reference_language(dict.fromkeys(langs))
        langs = [first, *(lang for lang in langs if lang != first)]
        content = self._file(quiz, langs, ", ".join(langs))
        yield OutputFile(PurePosixPath("multilang", f"{quiz.quiz_id}.{self.extension}"), content)

    @property
    def combines(self) -> bool:
        return self.options.bank

    def combine(self, lang: str, parts: Sequence[bytes]) -> OutputFile | None:
        """`bank/<lang>.xml`: the questions of every quiz's file, categories and all, in one
        `<quiz>` (each file is the declaration and `<quiz>`, its questions, then `</quiz>`)."""
        head, tail = f"{_XML_DECLARATION}<quiz>\n".encode(), b"</quiz>\n"
        body = [part[len(head) : -len(tail)] for part in parts]
        content = b"".join([head, *body, tail])
        return OutputFile(PurePosixPath("bank", f"{lang}.{self.extension}"), content)

    def _file(self, quiz: QuizTranslations, langs: list[str], label: str) -> bytes:
        """The file of a quiz in `langs`, its texts with the images of each language."""
        bank = quiz.bank_title.get(langs[0]) if self.options.bank else None
        with _media([(lang, quiz.images_of(lang)) for lang in langs]):
            return self._xml(quiz.quiz_id, [(lang, quiz[lang]) for lang in langs], label, bank)

    def _xml(
        self, quiz_id: str, versions: Versions[Quiz], label: str, bank: str | None = None
    ) -> bytes:
        """The category, then each question, each checked and encoded as it is written.

        Pieces of UTF-8 joined once hold about the size of the file; a tree of every element,
        or the whole text before it is encoded, held several times that for a big quiz.
        """
        try:
            top = self._top(versions, label, bank)
            info = without_images(_html(versions, _DESCRIPTION, self._syntax))
            parts = [_encoded(f"{_XML_DECLARATION}<quiz>\n{_category(top, info)}")]
        except ValueError as exc:
            raise RendererError(f"renderer 'moodle': quiz {quiz_id!r}: {exc}") from None
        end = f"{_tags(versions[0][1].tags)}  </question>\n"
        current = top
        for section, same in _placed(versions, self._syntax):
            question = same[0][1]
            path = f"{top}/{section}" if section else top
            try:
                if path != current:
                    parts.append(_encoded(_category(path)))
                    current = path
                if isinstance(question, Cloze) and question.variables:
                    current = f"{path}/{category_name(question_name(question))}"
                    parts.append(_encoded(_category(current)))
                    parts += [_encoded(xml) for xml in self._variants(quiz_id, same, end)]
                else:
                    parts.append(_encoded(self._question(quiz_id, same, end)))
            except ValueError as exc:
                raise RendererError(
                    f"renderer 'moodle': quiz {quiz_id!r} question {question.id!r}: {exc}"
                ) from None
        parts.append(b"</quiz>\n")
        return b"".join(parts)

    def _top(self, versions: Versions[Quiz], label: str, bank: str | None) -> str:
        """The path of the quiz's category, named after the quiz (under the bank's, in a bank);
        its description is the category's information (in which Moodle's importer takes no
        file: images are their alt text).

        Categories have no idnumber: Moodle finds categories by name, and a renamed quiz would
        otherwise create a second category with the same idnumber, which aborts the import.
        """
        titles = [(lang, quiz.title) for lang, quiz in versions]
        path = category_name(f"{_category_title(titles, self._syntax)} ({label})")
        if bank is not None:
            path = f"{category_name(inert_text(untagged(bank)))}/{path}"
        return path

    def _variants(self, quiz_id: str, versions: Versions[Question], end: str) -> Iterator[str]:
        """A cloze with variables: each variant a multianswer question (Moodle's multianswer
        has no variables), `<quiz>/<question>/<n>` its idnumber."""
        first = versions[0][1]
        assert isinstance(first, Cloze)
        for number, values in enumerate(variants(quiz_id, first), 1):
            same = [
                (lang, variant_question(q, values))
                for lang, q in versions
                if isinstance(q, Cloze) and q.variables
            ]
            yield self._question(quiz_id, same, end, f"{first.id}/{number}")

    def _numbering(self, langs: list[str]) -> str:
        """How Moodle numbers the options: as asked; by default `none` for a file only in a
        language with letters of its own (Urdu), which Moodle cannot write."""
        own_letters = option_letter(langs[0], 0) != "A"
        if "numbering" in self.options.model_fields_set or len(langs) > 1 or not own_letters:
            return self.options.numbering
        return "none"

    def _question(
        self, quiz_id: str, versions: Versions[Question], end: str, idnumber: str = ""
    ) -> str:
        """One question, its type's parts from its writer; `end` closes it, with the quiz's
        tags, after its answers. A numerical question with variables is Moodle's calculated
        question, its texts' placeholders kept for Moodle to fill in."""
        first = versions[0][1]
        kind = type(first)
        same = [(lang, q) for lang, q in versions if type(q) is kind]
        name = question_name(first)
        if isinstance(first, Numerical) and first.variables:
            marks = Placeholders(first.decimals)
            same = [(lang, _marked(q, marks)) for lang, q in same]
            written = calculated(first, variants(quiz_id, first))
        else:
            marks = None
            written = WRITERS[kind](first, same, self._settings([lang for lang, _ in same]))
        questiontext = written.questiontext
        explanation = _html(same, _EXPLANATION, self._syntax)
        if questiontext is None:
            questiontext = _html(same, _PROMPT, self._syntax)
        else:  # a cloze's: Moodle's export replaces each `{#1}` of the question, name and all
            name, explanation = _braces_inert(name), _braces_inert(explanation)
        grade = f"    <defaultgrade>{first.points:.7f}</defaultgrade>\n" if written.graded else ""
        xml = (
            f'  <question type="{written.kind}">\n'
            "    <name>\n"
            f"      <text>{_cdata(name)}</text>\n"
            "    </name>\n"
            f"{_field('questiontext', questiontext)}"
            f"{_field('generalfeedback', explanation)}"
            f"{grade}"
            f"    <penalty>{written.penalty}</penalty>\n"
            "    <hidden>0</hidden>\n"
            f"    <idnumber>{_cdata(idnumber_of(quiz_id, idnumber or first.id))}</idnumber>\n"
            f"{written.body}{end}"
        )
        return marks.restore(xml) if marks is not None else xml

    def _settings(self, langs: list[str]) -> Settings:
        """The settings of every question in `langs`, made once per set of languages."""
        key = tuple(langs)
        settings = self._settings_by_langs.get(key)
        if settings is None:
            settings = Settings(self._syntax, self.options.shuffle, self._numbering(langs))
            self._settings_by_langs[key] = settings
        return settings

    def losses(self, quiz: QuizTranslations, lang: str) -> Iterator[Loss]:
        """A section's pick, which question XML cannot say; a cloze with variables, written as
        its variants; a computed value Moodle shows as another number."""
        yield from super().losses(quiz, lang)
        current = quiz[lang]
        for section in current.sections or ():
            count = len(section.questions)
            if section.pick is not None and section.pick < count:
                yield Loss(
                    None,
                    f"draws {section.pick} of the {count} questions of its section "
                    f"{section.id}: Moodle XML cannot say so; the section is a sub-category: add "
                    f"'a random question' from it {section.pick} times to the Moodle quiz",
                    kind="sections",
                )
        for index, question in enumerate(current.questions):
            if isinstance(question, Cloze) and question.variables:
                count = len(variants(current.id, question))
                yield Loss(
                    index,
                    f"is its {count} variants, each a multianswer question in a sub-category of "
                    "its own (Moodle's multianswer has no variables): add a random question "
                    "from it to the Moodle quiz",
                )
            elif isinstance(question, Numerical) and question.variables:
                for value in shown_differently(question, current.id):
                    yield Loss(index, f"shows {value}")


def _marked(question: Question, marks: Placeholders) -> Question:
    """A question whose prompt and explanation have their placeholders as marks."""
    update = {"prompt": marks.mark(question.prompt)}
    if question.explanation:
        update["explanation"] = marks.mark(question.explanation)
    return question.model_copy(update=update)
