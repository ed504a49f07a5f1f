"""`quizbank validate`: check quiz files and report every problem at file:line:column."""

from __future__ import annotations

import argparse

from rich.console import Console

from quizbank.bank import bank_file_problems
from quizbank.commands.arguments import (
    REPORT_FORMATS,
    add_report_argument,
    add_source_arguments,
    output_format,
)
from quizbank.commands.printing import print_json, print_report
from quizbank.diagnostics import Diagnostic, Report
from quizbank.parallel import parallel_map
from quizbank.project import DEFAULT_CONTENT, Bank, QuizFiles, check_quiz, content_folders, discover

NAME = "validate"
SUMMARY = "check quiz files and report every problem"
HELP = """\
Check quiz files and report every problem at file:line:column, each quiz against its
translations in the other language folders (content/<lang>/<same-name>.yaml).

exit codes: 0 no error (warnings allowed), 1 an error was found, 2 usage error

examples:
  quizbank validate                              # all of content/
  quizbank validate content/ur/checkpoint-sharding.yaml
  quizbank validate --strict --output-format json > problems.json
  quizbank validate --output-format github       # annotations in a GitHub Actions job
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    add_report_argument(parser)
    # The report option was once `--format`, which `build` uses for its export formats.
    parser.add_argument(
        "--format", dest="old_report", choices=REPORT_FORMATS, help=argparse.SUPPRESS
    )


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    report_format = output_format(args, err)
    bank = discover(args.paths or [DEFAULT_CONTENT])
    report = Report(files=bank.file_count)
    for diagnostics in parallel_map(_Checker(bank, args.strict, args.max_image_size), bank.groups):
        report.extend(diagnostics)
    report.extend(bank_file_problems(content_folders(bank)))
    if report_format == "json":
        print_json(out, report)
    else:
        print_report(report, out, github=report_format == "github")
    return 1 if report.has_errors else 0


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
