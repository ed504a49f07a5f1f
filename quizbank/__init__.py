"""quizbank: validate bilingual quiz YAML and export it through pluggable renderers."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("quizbank")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

__all__ = ["__version__"]
