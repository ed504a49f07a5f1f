"""Package discovery that pyproject.toml cannot say: renderers/ is installed as quizbank_renderers.

Every package under quizbank/ and renderers/ is found here, so a new subpackage cannot be left out
of the wheel; everything else about the build is in pyproject.toml.
"""

from setuptools import find_packages, setup


def _found(folder: str, name: str) -> list[str]:
    """The packages below `folder`, named as installed under `name`."""
    return [
        name + package.removeprefix(folder)
        for package in find_packages(include=[folder, f"{folder}.*"])
    ]


setup(packages=[*_found("quizbank", "quizbank"), *_found("renderers", "quizbank_renderers")])
