"""`quizbank formats`: list the renderers found, with their options and what each may lose."""

from __future__ import annotations

import argparse
import json
from typing import Literal, get_args, get_origin

from rich.console import Console
from rich.text import Text

from quizbank.commands.printing import renderers_found
from quizbank.model import QUESTION_MODELS
from quizbank.renderer import Renderer, RendererOptions

NAME = "formats"
SUMMARY = "list the renderers found, built-in and plug-in"
HELP = """\
List the renderers found, built-in and plug-in, with their options and defaults. An option is
set on build's command line as -O FORMAT.OPTION=VALUE, for example -O html.shuffle=true.

example:
  quizbank formats
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """None: it lists them all."""


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    registry = renderers_found(err)
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
