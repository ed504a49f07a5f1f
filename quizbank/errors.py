"""The error hierarchy: each category maps to an exit code; none of them prints a traceback."""

from __future__ import annotations


class QuizbankError(Exception):
    """Base of every error quizbank reports to the user by message alone."""

    category = "error"
    exit_code = 1

    @property
    def lines(self) -> list[str]:
        """The message's own lines, each escaped on its own where it is printed (so that a
        line break quoted from a file is shown as `\\n`, never taken for one of them)."""
        return [str(self)]


class UsageError(QuizbankError):
    """The command line asked for something that does not exist or does not fit."""

    category = "usage error"
    exit_code = 2


class RendererError(QuizbankError):
    """A renderer could not be loaded or configured."""

    category = "renderer error"
    exit_code = 2
