"""Markdown export: a readable quiz for docs and repositories, the answer key in its own section.

Content is Markdown and passes through as Markdown, with guards that keep untrusted text inside
its place in the page:
- raw HTML never goes live: each `<` outside code is written `&lt;` (in CommonMark every piece of
  raw HTML starts with `<`; `>` and `&` stay as written, so blockquotes and entities render as
  they do in the HTML export). The result is parsed again and, should any HTML remain, every `<`
  is escaped, code included;
- a code fence left open is closed at the end of its own text, so it cannot swallow the page;
- the first paragraph of a prompt or an option sits on its numbered heading or lettered list
  line, so a leading `#`, `1.` or `-` stays text; any further blocks follow, inside the item.
Right-to-left languages are wrapped in `<div dir="rtl" lang="…">` with blank lines inside, so
hosts such as GitHub still render the Markdown within.

Interface strings ("Answer key", "3 questions", True/False) come from quizbank's gettext catalogs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.utils import EnvType
from pydantic import Field

from quizbank.i18n import format_number, gettext_for, level_name, ngettext_for
from quizbank.locales import is_rtl, option_label, option_letter, option_list
from quizbank.markup import is_plain_paragraph, safe_link
from quizbank.model import Question, Quiz, TrueFalse
from quizbank.renderer import QuizTranslations, Renderer, RendererOptions

# GitHub's dialect for structure (tables too); HTML on, so that leftover HTML is detectable.
_MD = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
# The same parser without inline parsing: block tokens (type, level, map, markup) are the same,
# for the checks that only look at the blocks of a text.
_BLOCKS = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_BLOCKS.disable("inline")
_SPECIAL = re.compile(r"\\.|`+|<", re.DOTALL)
# An autolink that the HTML export links too (`safe_link`: http://, https:// or mailto:).
_SAFE_AUTOLINK = re.compile(r"<(?:https?://|mailto:)[^\s<>]*>", re.IGNORECASE)
_CLOSING_HASHES = re.compile(r"(?<=\s)(#+[ \t]*)$")
_LINK_TEXT_BRACKET = re.compile(r"(?<!\\)([\[\]])")
_BULLETS = "-*+"
# Markdown reads a fence only where three backticks or tildes open it, raw HTML only from a `<`.
_GUARDED = re.compile(r"<|```|~~~")
# A line that opens with a bullet after spaces or tabs (markdown-it ends lines at \n, \r\n, \r).
_BULLET_LINE = re.compile(r"(?:\A|[\r\n])[ \t]*[-+*]")
_LINE_BLOCKS = ("heading_open", "bullet_list_open", "ordered_list_open", "blockquote_open")


class MarkdownOptions(RendererOptions):
    answers: bool = Field(
        True,
        description="Add the answer key with explanations; "
        "-O answers=false leaves the key out: a copy for learners.",
    )


def _walk(tokens: Sequence[Token]) -> list[Token]:
    return [t for token in tokens for t in (token, *_walk(token.children or []))]


@lru_cache(maxsize=1024)
def _blocks(text: str) -> tuple[Token, ...]:
    """The block tokens of a text (inline tokens have no children), parsed once per text.

    Shared between callers: read them, never change them."""
    return tuple(_BLOCKS.parse(text))


def _has_html(text: str) -> bool:
    """True if markdown-it reads raw HTML (a block or inline) anywhere in the text."""
    if "<" not in text:
        return False  # every piece of raw HTML, block or inline, starts with `<`
    return any(t.type in ("html_block", "html_inline") for t in _walk(_MD.parse(text)))


def _escape_lt(segment: str) -> str:
    """Write `<` as `&lt;` outside code spans and backslash escapes; keep safe autolinks."""
    return _outside_code(segment, _SPECIAL, _lt_or_autolink)


def _lt_or_autolink(segment: str, at: int) -> tuple[str, int]:
    link = _SAFE_AUTOLINK.match(segment, at)
    return (link.group(), link.end()) if link else ("&lt;", at + 1)


def _outside_code(
    text: str, special: re.Pattern[str], rewrite: Callable[[str, int], tuple[str, int]]
) -> str:
    """`text` with each match of `special` (one character) outside code spans and backslash
    escapes replaced as `rewrite(text, where)` says: the replacement and where to go on."""
    out: list[str] = []
    pos = 0
    while found := special.search(text, pos):
        end = found.end()
        if found.group().startswith("`"):
            ticks = re.escape(found.group())
            closing = re.compile(f"(?<!`){ticks}(?!`)").search(text, end)
            end = closing.end() if closing else end
        elif not found.group().startswith("\\"):
            replacement, end = rewrite(text, found.start())
            out.append(text[pos : found.start()] + replacement)
            pos = end
            continue
        out.append(text[pos:end])
        pos = end
    return "".join(out) + text[pos:]


def _close_fence(text: str) -> str:
    """Close a top-level code fence that runs to the end of the text."""
    top = [t for t in _blocks(text) if t.level == 0]
    if not (top and top[-1].type == "fence" and top[-1].map):
        return text
    fence, (start, end) = top[-1].markup, top[-1].map
    closing = re.compile(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*")
    if any(closing.fullmatch(line) for line in text.split("\n")[start + 1 : end]):
        return text
    return f"{text.rstrip()}\n{fence}"


@lru_cache(maxsize=16384)
def safe_markdown(text: str) -> str:
    """Content Markdown as it may appear in the page: no live HTML, no open fence, and no link,
    image, autolink or reference definition that the HTML export would not link."""
    if is_plain_paragraph(text):
        return text  # one line of words, code and emphasis: nothing to guard, no parse needed
    if "\r" in text:  # lines end at \r\n and \r too: as \n, the line numbers of the tokens
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.strip("\n")
    if _GUARDED.search(text):
        text = _close_fence(text)
        escaped = _without_html(text)
    else:
        escaped = text  # no fence to close, no `<` to escape
    if "<" not in escaped and not _may_have_unsafe_links(escaped):
        return escaped  # no HTML, no autolink, no link or reference that can go elsewhere
    html, unsafe = _live(escaped)
    if html:  # a `<` the guard took for code is HTML: every `<` escaped, code included
        escaped = text.replace("<", "&lt;")
        html, unsafe = _live(escaped)
    if unsafe:
        escaped = _outside_code(escaped, _BRACKET, lambda text, at: ("\\[", at + 1))
        html, unsafe = _live(escaped)
    if html or unsafe:
        # The guards took for code a run of backticks that Markdown does not (a code span
        # cannot cross blocks or table cells): every `<` and `[` escaped, code included.
        escaped = _EVERY_BRACKET.sub(r"\1\\[", escaped.replace("<", "&lt;"))
    return escaped


def _without_html(text: str) -> str:
    """`<` escaped outside fences and indented code, and outside code spans in each run of lines
    that no blank line or code interrupts."""
    code = {
        n
        for t in _blocks(text)
        if t.type in ("fence", "code_block") and t.map
        for n in range(*t.map)
    }
    out: list[str] = []
    segment: list[str] = []  # lines of one paragraph-like run, where code spans can wrap
    for number, line in enumerate(text.split("\n")):
        if number in code or not line.strip():
            out += [_escape_lt("\n".join(segment))] if segment else []
            out.append(line)
            segment = []
        else:
            segment.append(line)
    out += [_escape_lt("\n".join(segment))] if segment else []
    return "\n".join(out)


# Links of every scheme, so that the ones the HTML export would not link can be found.
_ANY_LINK = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_ANY_LINK.validateLink = lambda url: True  # type: ignore[method-assign]
_BRACKET = re.compile(r"\\.|`+|\[", re.DOTALL)
# A `[` that no backslash escapes (an even run of backslashes escapes only themselves).
_EVERY_BRACKET = re.compile(r"(?<!\\)((?:\\\\)*)\[")


def _live(text: str) -> tuple[bool, bool]:
    """Whether Markdown reads raw HTML in the text, and whether it reads a link, image, autolink
    or reference definition to anything but http(s) or mailto (as `safe_link` says). A
    definition counts even if no link of this text uses it: a link elsewhere in the page can."""
    env: EnvType = {}
    tokens = _walk(_ANY_LINK.parse(text, env))
    html = any(token.type in ("html_block", "html_inline") for token in tokens)
    hrefs = [
        str(token.attrGet("href") or token.attrGet("src") or "")
        for token in tokens
        if token.type in ("link_open", "image")
    ]
    hrefs += [str(reference.get("href", "")) for reference in env.get("references", {}).values()]
    return html, not all(map(safe_link, hrefs))


# Where a link or image written inline (`](`) goes, as far as a glance can tell.
_INLINE_DESTINATION = re.compile(r"\]\(\s*<?(?!(?:https?://|mailto:)[^\s&%\\]*[\s)>])")


def _may_have_unsafe_links(text: str) -> bool:
    """False when every link is inline and plainly goes to http(s) or mailto, with no reference
    definition: then no parse is needed."""
    return "[" in text and ("]:" in text or _INLINE_DESTINATION.search(text) is not None)


def _without_hard_break(line: str) -> str:
    trailing = len(line) - len(line.rstrip("\\"))
    return line[:-1] if trailing % 2 else line


@lru_cache(maxsize=16384)
def lead_and_rest(text: str) -> tuple[str, str]:
    """Safe Markdown split into the line that leads it and the blocks after that line.

    The lead is the first paragraph, joined into one line, or a first line that only Markdown
    would read as a heading, list or quote (`# of GPUs`, `1. Which…`): on a heading or item line
    it stays text. A text that opens with code or a table has no lead.
    """
    if is_plain_paragraph(text):
        return text, ""  # a paragraph of one line is all lead
    text = safe_markdown(text)
    lines = text.split("\n")
    first = _blocks(text)[:1]
    if not (first and first[0].map and first[0].map[0] == 0):
        return "", text
    end = first[0].map[1]
    one_line = not any(line.strip() for line in lines[1:end])
    if first[0].type != "paragraph_open" and not (
        first[0].type in _LINE_BLOCKS and one_line and not _holds_code(text, end)
    ):
        return "", text
    parts = [line.strip() for line in lines[:end] if line.strip()]
    lead = " ".join([*map(_without_hard_break, parts[:-1]), parts[-1]])  # line breaks: spaces
    return _CLOSING_HASHES.sub(r"\\\1", lead), "\n".join(lines[end:]).strip("\n")


def _holds_code(text: str, end: int) -> bool:
    """True if code starts before line `end`: in an item or quote on the first line (`-     x`,
    `>     x`) it is code, with its `<` and links as written; on a heading line it would not be."""
    return any(
        t.type in ("code_block", "fence") and t.map and t.map[0] < end for t in _blocks(text)
    )


def _may_list_at_edge(text: str, *, last: bool) -> bool:
    """False when no top-level list can end (or open) the text. A list needs a line that opens
    with a bullet; one that opens the text comes after nothing but blank lines and link reference
    definitions (they make no token), so the text's first character is a bullet or `[`."""
    if last:
        return _BULLET_LINE.search(text) is not None
    return text.lstrip()[:1] in ("-", "+", "*", "[")


def _edge_bullet(text: str, *, last: bool) -> str:
    """The bullet of the top-level list that ends (or opens) the text; "" if no list does."""
    if not _may_list_at_edge(text, last=last) or is_plain_paragraph(text):
        return ""  # no list at that edge
    top = [t for t in _blocks(text) if t.level == 0]
    kind = "bullet_list_close" if last else "bullet_list_open"
    return top[-1 if last else 0].markup if top and top[-1 if last else 0].type == kind else ""


@dataclass(frozen=True)
class _Interface:
    """The interface strings of one language, looked up once."""

    true: str
    false: str
    choose_all: str
    guide: str
    answer_key: str


@lru_cache(maxsize=32)
def _interface(lang: str) -> _Interface:
    _ = gettext_for(lang)
    return _Interface(
        true=_("True"),
        false=_("False"),
        choose_all="*" + _("Choose all that apply.") + "*",
        guide=_("Guide: %(link)s"),
        answer_key="## " + _("Answer key"),
    )


# (id, lead, rest) of a choice: its text split as `lead_and_rest` splits it, once per question.
Choice = tuple[str, str, str]


def _choices(question: Question, interface: _Interface) -> list[Choice]:
    """The choices of a question; a true/false question offers True and False."""
    if isinstance(question, TrueFalse):
        texts = [("true", interface.true), ("false", interface.false)]
    else:
        texts = [(option.id, option.text) for option in question.options]
    return [(choice_id, *lead_and_rest(text)) for choice_id, text in texts]


def _bullet(neighbour: str) -> str:
    """A list marker other than that of the list beside the list (if any): the lists stay apart."""
    return next(b for b in _BULLETS if b != neighbour)


def _item(bullet: str, label: str, lead: str, rest: str) -> str:
    """A lettered list item: the lead on its line, any further blocks indented inside it.

    Markdown reads a tab as reaching the next multiple of four columns: blocks with a tab are
    indented by four (the item's text four columns in, `-   **A.**`), so that every tab spans
    the columns it spans on its own and code stays code."""
    gap = "   " if "\t" in rest else " "
    item = f"{bullet}{gap}**{label}** {lead}".rstrip()
    if not rest:
        return item
    indent = " " * (len(bullet) + len(gap))
    indented = "\n".join(f"{indent}{line}" if line.strip() else "" for line in rest.split("\n"))
    return f"{item}\n\n{indented}"


def _options(choices: Sequence[Choice], bullet: str, lang: str, right: Sequence[str] = ()) -> str:
    """Lettered choices (only the right ones, if given) in one list."""
    return "\n".join(
        _item(bullet, option_label(lang, number), lead, rest)
        for number, (choice_id, lead, rest) in enumerate(choices)
        if not right or choice_id in right
    )


def _right_letters(choices: Sequence[Choice], right: Sequence[str], lang: str) -> str:
    ids = [choice_id for choice_id, _, _ in choices]
    return option_list(lang, [option_letter(lang, ids.index(choice_id)) for choice_id in right])


def _header(quiz: Quiz, interface: _Interface) -> list[str]:
    """The title, description, level and question count, and the guide's link."""
    count = len(quiz.questions)
    questions = ngettext_for(quiz.lang)("%(number)s question", "%(number)s questions", count)
    questions %= {"number": format_number(count, quiz.lang)}
    blocks = [f"# {lead_and_rest(quiz.title)[0]}", safe_markdown(quiz.description)]
    blocks.append(f"{level_name(quiz.level, quiz.lang)} · {questions}")
    if quiz.guide:
        guide = _LINK_TEXT_BRACKET.sub(r"\\\1", lead_and_rest(quiz.guide.title)[0])
        url = str(quiz.guide.url).replace("(", "%28").replace(")", "%29")
        blocks.append(interface.guide % {"link": f"[{guide}]({url})"})
    return blocks


# A paragraph of one no-break space: it ends a list, so that an indented text after it is read
# as it is on its own (code stays code), and it shows as an empty line.
_END_OF_LIST = "&nbsp;"


def render_markdown(quiz: Quiz, *, answers: bool = True) -> str:
    """One quiz as a Markdown page: questions, then (unless `answers` is false) the answer key.

    One pass over the questions writes both sections, each choice's text split only once."""
    interface = _interface(quiz.lang)
    blocks = _header(quiz, interface)
    key = [interface.answer_key] if answers else []
    for number, question in enumerate(quiz.questions, 1):
        choices = _choices(question, interface)
        lead, rest = lead_and_rest(question.prompt)
        blocks += [f"## {number}. {lead}".rstrip(), rest]
        if question.type == "multiple_choice":
            blocks.append(interface.choose_all)
        blocks.append(_options(choices, _bullet(_edge_bullet(rest, last=True)), quiz.lang))
        if answers:
            explanation = safe_markdown(question.explanation)
            right = question.answer_ids
            key.append(f"### {number}. {_right_letters(choices, right, quiz.lang)}")
            bullet = _bullet(_edge_bullet(explanation, last=False))
            key.append(_options(choices, bullet, quiz.lang, right))
            if explanation[:1] in (" ", "\t"):  # an indented line after the list would go on
                key.append(_END_OF_LIST)  # inside its last item: the list is ended first
            key.append(explanation)
    body = "\n\n".join(block for block in blocks + key if block)
    if is_rtl(quiz.lang):
        body = f'<div dir="rtl" lang="{quiz.lang}">\n\n{body}\n\n</div>'
    return body + "\n"


class MarkdownRenderer(Renderer[MarkdownOptions]):
    name = "markdown"
    description = "A readable Markdown quiz with an answer key, for docs and repositories."
    extension = "md"
    Options = MarkdownOptions

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        return render_markdown(quiz[lang], answers=self.options.answers)
