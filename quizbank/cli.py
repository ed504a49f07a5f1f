"""The command line: `quizbank validate | build | import | serve | new | translated | status |
formats | schema`."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args, get_origin

from rich.console import Console
from rich.text import Text

from quizbank import __version__
from quizbank.bank import bank_file_problems
from quizbank.diagnostics import (
    Diagnostic,
    Report,
    Severity,
    display_path,
    escape_data,
    printable,
)
from quizbank.errors import QuizbankError
from quizbank.images import MAX_IMAGE_BYTES
from quizbank.model import QUESTION_MODELS
from quizbank.parallel import parallel_map
from quizbank.project import (
    DEFAULT_CONTENT,
    Bank,
    QuizFiles,
    check_quiz,
    content_folders,
    discover,
)
from quizbank.registry import Registry, discover_renderers
from quizbank.renderer import Renderer, RendererOptions
from quizbank.schema import authoring_schema_text

if TYPE_CHECKING:  # imported by build alone, when it runs
    from quizbank.build import BuildProgress

_STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "yellow"}
REPORT_FORMATS = ("text", "json", "github")


_VALIDATE_HELP = """\
Check quiz files and report every problem at file:line:column, each quiz against its
translations in the other language folders (content/<lang>/<same-name>.yaml).

exit codes: 0 no error (warnings allowed), 1 an error was found, 2 usage error

examples:
  quizbank validate                              # all of content/
  quizbank validate content/ur/checkpoint-sharding.yaml
  quizbank validate --strict --output-format json > problems.json
  quizbank validate --output-format github       # annotations in a GitHub Actions job
"""

_BUILD_HELP = """\
Validate, then export every quiz in every format and language into DIR/<format>/<lang>/
(paper exams, -f pdf, only when asked for).
Nothing is written when there is an error. A build of some files, formats or languages
replaces only those outputs and removes only outputs of quizzes gone from the sources given.

examples:
  quizbank build                                 # everything into dist/
  quizbank build -f html -l ur                   # the Urdu HTML quizzes only
  quizbank build -f moodle -O moodle.multilang=spans -o exports
"""

_NEW_HELP = """\
Write a new quiz that validates as it is: content/<lang>/QUIZ-ID.yaml in each language, with
every required field, one example question of each of the nine types and comments that teach
the format. Languages: every language folder under the content folder (else en and ur).
Nothing is written if any of the files already exists.

examples:
  quizbank new checkpoint-basics
  quizbank new checkpoint-basics --lang en --title "Checkpoint basics"
"""

_IMPORT_HELP = """\
Bring existing questions in: read Moodle XML (as exported from Moodle's question bank) or GIFT
(.gift, .txt) and write one YAML file per quiz per language, content/<lang>/<quiz-id>.yaml, and
the images they show, content/images/. Each Moodle category becomes a quiz; a file whose texts
hold Moodle's multilang spans (or {mlang xx} tags) gives one file per language. What the format
of quizbank cannot hold is reported at its line of the file; the rest is imported. Existing quiz
files are not replaced without --force; every file is written, or none. What was written is then
checked as `quizbank validate` checks it.
Exit code: 0 everything imported (a placeholder to write is a warning); 1 something was left
out or lost, or a file written does not validate; 2 unusable input.

examples:
  quizbank import questions-checkpointing.xml
  quizbank import week1.gift week2.gift --lang ur -o content/
  quizbank import bank.xml --force
"""

_SERVE_HELP = """\
Preview the HTML quiz pages and the index in a browser while you edit: every quiz is checked and
rendered in memory (nothing is written), and a page reloads by itself when its quiz's files are
saved. A quiz with errors shows them on its page, each at file:line:column with its line of YAML.
Served on 127.0.0.1 only, unless --host says otherwise. Ctrl-C stops it.

examples:
  quizbank serve                                 # http://127.0.0.1:8000/
  quizbank serve content/en/checkpoint-sharding.yaml --port 8080 --open
"""

_TRANSLATED_HELP = """\
Mark a reviewed translation as current: record in each question of FILE (or each question
given) what its English (the reference language's) texts are now, as `source:` lines. Nothing
else in the file changes. `quizbank validate` then warns when the English of a question changes
again, naming the texts that changed. A file with an error is refused; nothing is written.

examples:
  quizbank translated content/ur/checkpoint-sharding.yaml
  quizbank translated content/ur/checkpoint-sharding.yaml --question resume-state
"""

_STATUS_HELP = """\
A table of each quiz in each language: its questions, those missing (in the reference language
but not here), stale (the reference changed since they were translated), unmarked (no
`source`, see `quizbank translated`), texts that look untranslated, and errors; then totals.

examples:
  quizbank status
  quizbank status content/ --format json
"""

_FORMATS_HELP = """\
List the renderers found, built-in and plug-in, with their options and defaults. An option is
set on build's command line as -O FORMAT.OPTION=VALUE, for example -O html.shuffle=true.

example:
  quizbank formats
"""

_SCHEMA_HELP = """\
Print the JSON Schema (Draft 2020-12) of the authoring format, for editors.

example:
  quizbank schema > schema/quiz.schema.json
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quizbank",
        description="Validate bilingual quiz YAML and export it.",
        epilog="Run `quizbank COMMAND --help` for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"quizbank {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    validate = _command(commands, "validate", "check quiz files and report every problem")
    validate.description = _VALIDATE_HELP
    _add_source_arguments(validate)
    _add_report_argument(validate)
    # The report option was once `--format`, which `build` uses for its export formats.
    validate.add_argument(
        "--format", dest="old_report", choices=REPORT_FORMATS, help=argparse.SUPPRESS
    )

    build_cmd = _command(commands, "build", "validate, then export in every format")
    build_cmd.description = _BUILD_HELP
    _add_source_arguments(build_cmd)
    build_cmd.add_argument(
        "-f",
        "--format",
        dest="formats",
        action="append",
        default=[],
        metavar="FORMAT",
        help="a format to write (repeatable; default: all, see `quizbank formats`)",
    )
    build_cmd.add_argument(
        "-l",
        "--lang",
        dest="languages",
        action="append",
        default=[],
        metavar="LANG",
        help="a language to write (repeatable; default: all)",
    )
    build_cmd.add_argument(
        "-O",
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a renderer option, such as moodle.shuffle=false (repeatable; FORMAT.KEY=VALUE "
        "aims at one format, and is needed when several chosen formats have KEY)",
    )
    build_cmd.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("dist"),
        metavar="DIR",
        help="output folder (default: dist)",
    )
    build_cmd.add_argument("--no-cache", action="store_true", help="ignore the build cache")
    build_cmd.add_argument(
        "--force",
        action="store_true",
        help="write into DIR even if it is a non-empty folder quizbank did not create",
    )
    build_cmd.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=0,
        metavar="N",
        help="worker processes (default: one per core)",
    )
    _add_report_argument(build_cmd)

    new = _command(commands, "new", "write a new quiz to start from, in each language")
    new.description = _NEW_HELP
    new.add_argument("quiz_id", metavar="QUIZ-ID", help="the quiz id, such as checkpoint-basics")
    new.add_argument(
        "path",
        nargs="?",
        type=Path,
        default=DEFAULT_CONTENT,
        metavar="PATH",
        help=f"the content folder holding the language folders (default: {DEFAULT_CONTENT}/)",
    )
    new.add_argument(
        "-l",
        "--lang",
        dest="languages",
        action="append",
        default=[],
        metavar="LANG",
        help="a language to write (repeatable; default: every language folder in PATH, "
        "else en and ur)",
    )
    new.add_argument("--title", help="the quiz's title, in every file written")

    importing = _command(commands, "import", "read Moodle XML or GIFT into quiz files")
    importing.description = _IMPORT_HELP
    importing.add_argument(
        "files", nargs="+", type=Path, metavar="FILE", help="Moodle XML or GIFT files"
    )
    importing.add_argument(
        "-l",
        "--lang",
        help="the language of a file without multilang texts (default: the language its "
        "categories name, else en); in a multilang file, the one language to import",
    )
    importing.add_argument(
        "-o",
        "--output",
        type=Path,
        default=DEFAULT_CONTENT,
        metavar="DIR",
        help=f"the content folder to write into (default: {DEFAULT_CONTENT}/)",
    )
    importing.add_argument(
        "--force", action="store_true", help="replace quiz files that already exist"
    )

    serve = _command(commands, "serve", "preview the HTML pages, reloaded as you edit")
    serve.description = _SERVE_HELP
    serve.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help=f"quiz files or folders (default: {DEFAULT_CONTENT}/)",
    )
    serve.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this machine only)",
    )
    serve.add_argument("--open", action="store_true", help="open the index in a browser")

    translated = _command(commands, "translated", "mark a reviewed translation as current")
    translated.description = _TRANSLATED_HELP
    translated.add_argument(
        "files", nargs="+", type=Path, metavar="FILE", help="translated quiz files"
    )
    translated.add_argument(
        "-q",
        "--question",
        dest="questions",
        action="append",
        default=[],
        metavar="ID",
        help="mark only this question (repeatable; default: every question)",
    )

    status = _command(commands, "status", "how current each translation is, per quiz")
    status.description = _STATUS_HELP
    status.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help=f"quiz files or folders (default: {DEFAULT_CONTENT}/)",
    )
    status.add_argument(
        "--output-format",
        choices=("text", "json"),
        default=None,
        help="a table for people, or json (default: text)",
    )
    status.add_argument(
        "--format", dest="old_report", choices=("text", "json"), help=argparse.SUPPRESS
    )

    formats = _command(commands, "formats", "list the renderers found, built-in and plug-in")
    formats.description = _FORMATS_HELP
    schema = _command(commands, "schema", "print the JSON Schema of the authoring format")
    schema.description = _SCHEMA_HELP
    return parser


def _command(
    commands: argparse._SubParsersAction,  # type: ignore[type-arg]
    name: str,
    summary: str,
) -> argparse.ArgumentParser:
    """A subcommand whose help keeps its description's examples as written."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=summary, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    return parser


def _add_report_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--output-format",
        choices=REPORT_FORMATS,
        default=None,
        help="how to print the problems: text for people, json for editors and CI, github for "
        "annotations in GitHub Actions (default: text)",
    )


def _add_source_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help=f"quiz files or folders (default: {DEFAULT_CONTENT}/)",
    )
    refused = (
        "a quiz or a question missing in a language, and placeholder text that `quizbank new` "
        "or `quizbank import` wrote"
    )
    if parser.prog.endswith(" build"):
        refused += ", and a loss of a format (what it cannot carry) that bank.yaml does not accept"
    parser.add_argument(
        "--strict", action="store_true", help=f"make errors of these warnings: {refused}"
    )
    parser.add_argument(
        "--max-image-size",
        type=_byte_size,
        default=MAX_IMAGE_BYTES,
        metavar="SIZE",
        help="the largest image a quiz may use, as 500KiB, 2MiB or bytes (default: 1MiB)",
    )


_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(|B|K|KB|KiB|M|MB|MiB)\s*", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10}
_UNITS |= {"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20}


def _byte_size(text: str) -> int:
    """A size as `--max-image-size` takes it: bytes, or a number with KiB or MiB."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size such as 500KiB or 2MiB")
    return int(float(match[1]) * _UNITS[match[2].lower()])


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return the exit code (0 fine, 1 problems found, 2 usage error)."""
    args = _parser().parse_args(argv)
    out = Console(highlight=False, soft_wrap=True, markup=False)
    err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False)
    try:
        _interrupt_on_sigterm()
        if args.command == "validate":
            return _validate(args, out, err)
        if args.command == "build":
            return _build(args, out, err)
        if args.command == "new":
            return _new(args, out)
        if args.command == "serve":
            return _serve(args, out, err)
        if args.command == "import":
            return _import(args, out)
        if args.command == "translated":
            return _translated(args, out)
        if args.command == "status":
            return _status(args, out, err)
        if args.command == "formats":
            return _formats(out, err)
        out.file.write(authoring_schema_text())
        return 0
    except QuizbankError as exc:
        message = "\n".join(printable(line) for line in exc.lines)
        err.print(Text(f"quizbank: {exc.category}: {message}", style="red"))
        report_format = getattr(args, "output_format", None) or getattr(args, "old_report", None)
        if report_format == "json":
            # A reader of the JSON report gets a JSON document whatever happened.
            _print_json(
                out, Report(), failure={"category": exc.category, "message": printable(str(exc))}
            )
        elif report_format == "github":  # shown on the run's page, not only in its log
            message = escape_data(f"{exc.category}: {printable(str(exc))}")
            out.file.write(f"::error title=quizbank::{message}\n")
        return exc.exit_code
    except OSError as exc:  # a file system's refusal that no layer below put into words
        where = f"{exc.filename}: " if exc.filename else ""
        err.print(Text(printable(f"quizbank: error: {where}{exc.strerror or exc}"), style="red"))
        return 1
    except KeyboardInterrupt:
        err.print("quizbank: interrupted; nothing was written")
        return 130


def _interrupt_on_sigterm() -> None:
    """SIGTERM (a service manager, `kill`, a CI timeout) stops a run as Ctrl-C does: staged files
    are dropped and nothing is written."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_interrupt)


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


class _Checker:
    """Checks one quiz of a bank; a picklable callable for the worker processes."""

    def __init__(self, bank: Bank, strict: bool, max_image_bytes: int) -> None:
        self.languages = bank.languages
        self.strict = strict
        self.max_image_bytes = max_image_bytes

    def __call__(self, group: QuizFiles) -> list[Diagnostic]:
        # Only the problems go back to the parent process: pickling the validated models as
        # well took a fifth of the time of a run.
        checked = check_quiz(
            group, self.languages, strict=self.strict, max_image_bytes=self.max_image_bytes
        )
        return checked.diagnostics


def _report_format(args: argparse.Namespace, err: Console) -> str:
    old = getattr(args, "old_report", None)
    if old:
        err.print(
            Text("quizbank: warning: --format is now --output-format for reports", style="yellow")
        )
    return str(args.output_format or old or "text")


def _validate(args: argparse.Namespace, out: Console, err: Console) -> int:
    report_format = _report_format(args, err)
    bank = discover(args.paths or [DEFAULT_CONTENT])
    report = Report(files=bank.file_count)
    for diagnostics in parallel_map(_Checker(bank, args.strict, args.max_image_size), bank.groups):
        report.extend(diagnostics)
    report.extend(bank_file_problems(content_folders(bank)))
    if report_format == "json":
        _print_json(out, report)
    else:
        _print_report(report, out, github=report_format == "github")
    return 1 if report.has_errors else 0


def _print_json(out: Console, report: Report, **extra: object) -> None:
    """The report as one JSON document on stdout, for editors and CI."""
    payload = {
        "diagnostics": [d.as_json() for d in report],
        "errors": report.count(Severity.ERROR),
        "warnings": report.count(Severity.WARNING),
        "files": report.files,
        **extra,
    }
    out.file.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")


def _print_report(report: Report, out: Console, *, github: bool = False) -> None:
    _print_diagnostics(report, out, github=github)
    style = "bold red" if report.has_errors else "green"
    out.print(Text(report.summary(), style=style))


def _print_diagnostics(report: Report, out: Console, *, github: bool = False) -> None:
    if github:  # one workflow command per problem; the summary after them is plain text
        out.file.write("".join(f"{diagnostic.github()}\n" for diagnostic in report))
    elif out.is_terminal:
        for diagnostic in report:
            out.print(_diagnostic_text(diagnostic))
    else:  # no colour to add: plain lines, written at once (thousands of warnings are common)
        out.file.write("".join(f"{diagnostic.format()}\n" for diagnostic in report))


def _diagnostic_text(diagnostic: Diagnostic) -> Text:
    text = Text(f"{diagnostic.path}:{diagnostic.position.line}:{diagnostic.position.column}: ")
    text.append(str(diagnostic.severity), style=_STYLES[diagnostic.severity])
    text.append(": ")
    if diagnostic.field:
        text.append(diagnostic.field, style="bold")
        text.append(": ")
    text.append(diagnostic.message)
    return text


def _registry(err: Console) -> Registry:
    registry = discover_renderers()
    for warning in registry.warnings:
        err.print(Text(printable(f"quizbank: warning: {warning}"), style="yellow"))
    for error in registry.errors.values():
        err.print(Text(printable(f"quizbank: error: {error}"), style="red"))
    return registry


def _build(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: the build's machinery (the cache, the output folder, the workers) is a
    # third of the start-up time that `validate` of one file would pay for nothing.
    from quizbank.build import BuildRequest, build

    report_format = _report_format(args, err)
    registry = _registry(err)
    request = BuildRequest(
        paths=args.paths or [DEFAULT_CONTENT],
        out_dir=args.output,
        formats=args.formats,
        languages=args.languages,
        options=args.options,
        strict=args.strict,
        use_cache=not args.no_cache,
        jobs=args.jobs,
        force=args.force,
        max_image_bytes=args.max_image_size,
    )
    if out.is_terminal and report_format == "text":
        with _progress_bar(out) as progress:
            result = build(request, registry, progress)
    else:
        result = build(request, registry)
    for warning in result.warnings:
        err.print(Text(printable(f"quizbank: warning: {warning}"), style="yellow"))
    formats = args.formats or list(registry.renderers)
    page = str(args.output / "html" / "index.html") if "html" in formats else None
    if report_format == "json":
        _print_json(
            out,
            result.report,
            written=result.written,
            unchanged=result.reused,
            quizzes=result.quizzes,
            untranslated=result.untranslated,
            losses=result.losses,
            output=str(args.output),
            open=None if result.report.has_errors else page,
        )
        return 1 if result.report.has_errors else 0
    github = report_format == "github"
    if result.report.has_errors:
        _print_report(result.report, out, github=github)
        out.print(Text(printable(f"nothing was written to {args.output}"), style="bold red"))
        return 1
    _print_diagnostics(result.report, out, github=github)
    reused = f" ({result.reused} unchanged)" if result.reused else ""
    opening = f"; open {page}" if page else ""
    out.print(
        printable(
            f"wrote {_count(result.written, 'file')}{reused} for {_count(result.quizzes, 'quiz')} "
            f"in {_count(result.languages, 'language')} in {result.seconds:.1f} s "
            f"into {args.output}{os.sep}{opening}"
        )
    )
    for name, count in sorted(result.losses.items()):
        out.print(
            f"{name}: {_count(count, 'warning')} of what it cannot carry; accept a known loss "
            f"in bank.yaml (accept_losses: {{{name}: [...]}}, see quizbank formats)"
        )
    for lang, count in sorted(result.untranslated.items()):
        out.print(
            f"{lang}: {_count(count, 'question')} not translated yet, left out of the {lang} "
            "outputs (see the warnings)"
        )
    return 0


@contextmanager
def _progress_bar(out: Console) -> Iterator[BuildProgress]:
    """A bar of the quizzes built so far out of those found, on a terminal."""
    # Imported here: rich.progress takes a noticeable part of a one-file rebuild to import.
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
    )

    progress = Progress(
        TextColumn("building"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=out,
        transient=True,
    )

    class Bar:
        task: TaskID | None = None

        def start(self, total: int) -> None:
            self.task = progress.add_task("build", total=total)

        def advance(self) -> None:
            if self.task is not None:
                progress.advance(self.task)

    with progress:
        yield Bar()


def _new(args: argparse.Namespace, out: Console) -> int:
    # Imported here: only this command reads the templates.
    from quizbank.scaffold import default_languages, new_quiz
    from quizbank.schemaline import write_schema

    languages = args.languages or default_languages(args.path)
    written = new_quiz(args.quiz_id, args.path, languages, args.title)
    for new in written:
        shown = printable(display_path(new.path))
        out.print(f"wrote {shown} ({new.note})" if new.note else f"wrote {shown}")
    schema = write_schema(args.path)
    if schema is not None:
        shown = printable(display_path(schema))
        out.print(f"wrote {shown} (an editor checks the quiz files against it as you type)")
    first = next((new for new in written if new.lang == "en"), written[0])
    command = f"quizbank validate {shlex.quote(display_path(first.path))}"
    out.print(printable(f"next: replace the example questions, then run: {command}"))
    return 0


def _import(args: argparse.Namespace, out: Console) -> int:
    # Imported here: only this command reads other formats.
    from quizbank.importer.command import import_files
    from quizbank.importer.report import import_lines

    report = import_files(args.files, args.output, args.lang, args.force)
    lines, failed = import_lines(report)
    out.file.write("".join(f"{line}\n" for line in lines))
    return 1 if failed else 0


def _serve(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: only this command needs the server and the watcher.
    from quizbank.serve import serve

    return serve(
        args.paths or [DEFAULT_CONTENT],
        _registry(err),
        host=args.host,
        port=args.port,
        open_browser=args.open,
        say=lambda line: out.print(printable(line)),
    )


def _translated(args: argparse.Namespace, out: Console) -> int:
    # Imported here: only this command writes into quiz files.
    from quizbank.translated import mark_translated

    for marked in mark_translated(args.files, args.questions):
        ids = marked.question_ids
        shown = ", ".join(ids) if len(ids) <= 5 else f"{', '.join(ids[:4])} and {len(ids) - 4} more"
        out.print(
            printable(
                f"marked {display_path(marked.path)}: {_count(len(ids), 'question')} "
                f"translated from the current reference ({shown})"
            )
        )
    return 0


def _status(args: argparse.Namespace, out: Console, err: Console) -> int:
    from quizbank.status import COUNTS, bank_status, totals

    report_format = _report_format(args, err)
    rows = bank_status(args.paths or [DEFAULT_CONTENT])
    sums = totals(rows)
    if report_format == "json":
        payload = {"quizzes": [row.as_json() for row in rows], "totals": sums}
        out.file.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
        return 0
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD if out.is_terminal else None, pad_edge=False)
    table.add_column("quiz")
    table.add_column("lang")
    for name in COUNTS:
        table.add_column(name, justify="right")
    for row in rows:
        lang = f"{row.lang} (ref)" if row.reference else row.lang
        if row.file is None:
            lang += " (no file)"
        values = [getattr(row, name) for name in COUNTS]
        table.add_row(row.quiz, lang, *("-" if v is None else str(v) for v in values))
    table.add_section()
    table.add_row("total", "", *(str(sums[name]) for name in COUNTS))
    # Not on a terminal: the whole table, however wide, for a file or another program.
    shown = out if out.is_terminal else Console(file=out.file, width=1000, highlight=False)
    shown.print(table)
    return 0


def _formats(out: Console, err: Console) -> int:
    registry = _registry(err)
    for entry in registry.renderers.values():
        asked = "" if entry.cls.builds_by_default else f"  [only when asked: -f {entry.name}]"
        out.print(
            Text.assemble(
                (entry.name, "bold"), f"  {entry.cls.description}  ({entry.origin}){asked}"
            )
        )
        for name, info in entry.cls.Options.model_fields.items():
            default = "required" if info.is_required() else f"default {_option_text(info.default)}"
            choices = get_args(info.annotation) if get_origin(info.annotation) is Literal else ()
            one_of = f" (one of: {', '.join(map(_option_text, choices))})" if choices else ""
            out.print(f"    {name} ({default}): {info.description or ''}{one_of}")
        if entry.cls.losses is not Renderer.losses or entry.cls.supported_types is not None:
            out.print(f"    {_acceptable_losses(entry.name, entry.cls)}")
    out.print(
        "\nset an option on build's command line: -O FORMAT.OPTION=VALUE, "
        "such as -O html.shuffle=true"
    )
    return 0


def _acceptable_losses(name: str, cls: type[Renderer[RendererOptions]]) -> str:
    """What bank.yaml's accept_losses may name for a format."""
    supported = cls.supported_types
    left_out = [t for t in QUESTION_MODELS if supported is not None and t not in supported]
    said = f" ({', '.join(left_out)}: left out)" if left_out else ""
    kinds = "".join(f", or {kind}" for kind in cls.quiz_loss_kinds)
    return f"accept_losses in bank.yaml ({name}: [...]): a question type{said}{kinds}"


def _option_text(value: object) -> str:
    """An option's default as it is typed on the command line."""
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _count(count: int, noun: str) -> str:
    plural = "quizzes" if noun == "quiz" else f"{noun}s"
    return f"{count} {noun if count == 1 else plural}"
