"""`quizbank serve`: preview the HTML pages in a browser, reloaded as the files are saved."""

from __future__ import annotations

import argparse

from rich.console import Console

from quizbank.commands.arguments import add_paths_argument
from quizbank.commands.printing import renderers_found
from quizbank.diagnostics import printable
from quizbank.project import DEFAULT_CONTENT

NAME = "serve"
SUMMARY = "preview the HTML pages, reloaded as you edit"
HELP = """\
Preview the HTML quiz pages and the index in a browser while you edit: every quiz is checked and
rendered in memory (nothing is written), and a page reloads by itself when its quiz's files are
saved. A quiz with errors shows them on its page, each at file:line:column with its line of YAML.
Served on 127.0.0.1 only, unless --host says otherwise. Ctrl-C stops it.

examples:
  quizbank serve                                 # http://127.0.0.1:8000/
  quizbank serve content/en/checkpoint-sharding.yaml --port 8080 --open
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_paths_argument(parser)
    parser.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this machine only)",
    )
    parser.add_argument("--open", action="store_true", help="open the index in a browser")


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: only this command needs the server and the watcher.
    from quizbank.serve import serve

    return serve(
        args.paths or [DEFAULT_CONTENT],
        renderers_found(err),
        host=args.host,
        port=args.port,
        open_browser=args.open,
        say=lambda line: out.print(printable(line)),
    )
