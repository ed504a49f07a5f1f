"""The error hierarchy: each category maps to an exit code; none of them prints a traceback."""

from __future__ import annotations


class QuizbankError(Exception):
    """Base of every error quizbank reports to the user by message alone."""

    category = "error"
    exit_code = 1


class UsageError(QuizbankError):
    """The command line asked for something that does not exist or does not fit."""

    category = "usage error"
    exit_code = 2


class RendererError(QuizbankError):
    """A renderer could not be loaded or configured."""

    category = "renderer error"
    exit_code = 2
