"""One file for a whole bank: `-O moodle.bank=true` writes `moodle/bank/<lang>.xml` with every
quiz, each in its own category under the bank's, titled from content/bank.yaml or the folder.
(The real Moodle 4.5 imports both bundled bank files strictly: `scripts/moodle-check`.)"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CONTENT, REPO, Run
from lxml import etree

from quizbank.build import BuildRequest, build
from quizbank.registry import discover_renderers

TYPES = REPO / "tests" / "fixtures" / "types"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """The bundled bank (two quizzes, bank.yaml) and the every-type quiz."""
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root)
    for lang in ("en", "ur"):
        shutil.copy(TYPES / lang / "every-type.yaml", root / lang)
    return root


def _bank(content: Path, out: Path, *paths: Path) -> Path:
    request = BuildRequest(
        paths=list(paths) or [content], out_dir=out, formats=["moodle"], options=["bank=true"]
    )
    assert not build(request, discover_renderers()).report.has_errors
    return out / "moodle"


def _categories(xml: Path) -> list[str]:
    tree = etree.parse(str(xml))
    return [str(t) for t in tree.xpath("//question[@type='category']/category/text/text()")]


def test_the_bank_file_holds_every_quiz_each_in_its_category(content: Path, tmp_path: Path) -> None:
    moodle = _bank(content, tmp_path / "dist")
    for lang, title in (
        ("en", "Checkpoints and resuming training"),
        ("ur", "چیک پوائنٹس اور تربیت جاری رکھنا"),
    ):
        bank = etree.parse(str(moodle / "bank" / f"{lang}.xml"))
        quizzes = sorted((moodle / lang).glob("*.xml"))
        expected = sum(len(etree.parse(str(q)).xpath("//question")) for q in quizzes)
        assert len(bank.xpath("//question")) == expected
        categories = _categories(moodle / "bank" / f"{lang}.xml")
        assert len(categories) == len(quizzes) == 3
        assert all(c.startswith(f"$course$/top/{title}/") for c in categories), categories
        for quiz in quizzes:  # each quiz's own file has the same category as in the bank
            assert _categories(quiz)[0] in categories
        ids = bank.xpath("//idnumber/text()")
        assert len(ids) == len(set(ids)) == expected - len(quizzes)


def test_without_bank_yaml_the_title_is_the_folder_s_name(content: Path, tmp_path: Path) -> None:
    (content / "bank.yaml").unlink()
    renamed = content.rename(tmp_path / "Systems 101")
    moodle = _bank(renamed, tmp_path / "dist")
    assert _categories(moodle / "bank" / "en.xml")[0].startswith("$course$/top/Systems 101/")


def test_a_build_of_one_file_still_writes_the_whole_bank(content: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    _bank(content, out)
    before = (out / "moodle" / "bank" / "en.xml").read_bytes()
    edited = content / "en" / "every-type.yaml"
    edited.write_text(edited.read_text("utf-8").replace("Every question type", "Every type"))
    _bank(content, out, edited)
    after = (out / "moodle" / "bank" / "en.xml").read_bytes()
    assert after != before and after.count(b'type="category"') == 3
    assert b"Every type (en)" in after


def test_a_bad_bank_yaml_is_an_error_at_its_line_and_nothing_is_written(
    content: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    (content / "bank.yaml").write_text("title:\n  en: Fine\n  english: Not a code\n", "utf-8")
    out = tmp_path / "dist"
    run = cli("build", str(content), "-o", str(out), "-f", "moodle", "-O", "bank=true")
    assert run.code == 1
    assert "bank.yaml:3:" in run.err + run.out
    assert not out.exists()


def test_bank_yaml_is_not_taken_for_a_quiz(content: Path, cli: Callable[..., Run]) -> None:
    run = cli("validate", str(content))
    assert run.code == 0, run.out
    assert "in 6 files" in run.out


def test_the_gift_bank_file_is_every_quiz_s_file_under_the_bank_s_category(
    content: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dist"
    request = BuildRequest(
        paths=[content], out_dir=out, formats=["gift"], options=["gift.bank=true"]
    )
    assert not build(request, discover_renderers()).report.has_errors
    bank = (out / "gift" / "bank" / "ur.gift").read_text("utf-8")
    quizzes = sorted((out / "gift" / "ur").glob("*.gift"))
    assert bank == "\n".join(q.read_text("utf-8").rstrip("\n") + "\n" for q in quizzes)
    categories = [line for line in bank.splitlines() if line.startswith("$CATEGORY:")]
    assert len(categories) == 3
    assert all(
        c.startswith("$CATEGORY: $course$/top/چیک پوائنٹس اور تربیت جاری رکھنا/")
        for c in categories
    )


def test_validate_reports_a_bad_bank_yaml_at_its_line(
    content: Path, cli: Callable[..., Run]
) -> None:
    (content / "bank.yaml").write_text("title:\n  en: Fine\n  ur: [not, a, title]\n", "utf-8")
    run = cli("validate", str(content))
    assert run.code == 1
    [error] = [line for line in run.out.splitlines() if ": error: " in line]
    assert error.startswith(f"{content / 'bank.yaml'}:3:7: error: title.ur: ")
    assert "bank.yaml holds `title:` with a title per language" in error
