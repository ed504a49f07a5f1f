"""One file for a whole bank: `-O moodle.bank=true` writes `moodle/bank/<lang>.xml` with every
quiz, each in its own category under the bank's, titled from content/bank.yaml or the folder.
(The real Moodle 4.5 imports both bundled bank files strictly: `scripts/moodle-check`.)"""

from __future__ import annotations

import io
import posixpath
import shutil
import zipfile
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
        assert len(quizzes) == 3
        # each quiz's own file has the same categories as in the bank (a section's below its quiz's)
        assert categories == [c for quiz in quizzes for c in _categories(quiz)]
        assert len({_categories(quiz)[0] for quiz in quizzes}) == 3  # a category per quiz
        assert all(c.startswith(f"$course$/top/{title}/") for c in categories), categories
        ids = bank.xpath("//idnumber/text()")
        assert len(ids) == len(set(ids)) == expected - len(categories)


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
    quizzes = sorted((out / "moodle" / "en").glob("*.xml"))
    categories = sum(quiz.read_bytes().count(b'type="category"') for quiz in quizzes)
    assert after != before and after.count(b'type="category"') == categories
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
    firsts = [q.read_text("utf-8").splitlines()[0] for q in quizzes]
    assert len(quizzes) == 3 and all(first in categories for first in firsts)  # one per quiz
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


# ---------------------------------------------------------------- QTI packages of the whole bank

QTI_CP = {
    "qti12": "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}",
    "qti3": "{http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1}",
}
QTI3_ASI = "{http://www.imsglobal.org/xsd/imsqtiasi_v3p0}"


def _qti_banks(content: Path, out: Path) -> dict[str, dict[str, dict[str, bytes]]]:
    """Every bank package of both QTI formats, by format and language: its entries by name."""
    request = BuildRequest(
        paths=[content],
        out_dir=out,
        formats=["qti12", "qti3"],
        options=["qti12.bank=true", "qti3.bank=true"],
    )
    assert not build(request, discover_renderers()).report.has_errors
    banks: dict[str, dict[str, dict[str, bytes]]] = {}
    for fmt in QTI_CP:
        for lang in ("en", "ur"):
            with zipfile.ZipFile(out / fmt / "bank" / f"{lang}.zip") as archive:
                entries = {name: archive.read(name) for name in archive.namelist()}
            banks.setdefault(fmt, {})[lang] = entries
    return banks


def _check_manifest(fmt: str, package: dict[str, bytes]) -> etree._Element:
    """Every href of the manifest is an entry and every entry is listed; identifiers unique;
    every dependency a resource."""
    cp = QTI_CP[fmt]
    manifest = etree.fromstring(package["imsmanifest.xml"])
    resources = list(manifest.iter(f"{cp}resource"))
    identifiers = [r.get("identifier") for r in resources]
    assert len(identifiers) == len(set(identifiers))
    hrefs = {f.get("href") for f in manifest.iter(f"{cp}file")}
    hrefs |= {r.get("href") for r in resources if r.get("href")}
    assert hrefs == set(package) - {"imsmanifest.xml"}
    for dependency in manifest.iter(f"{cp}dependency"):
        assert dependency.get("identifierref") in identifiers
    return manifest


def test_the_qti_bank_packages_hold_every_quiz_listed_once(content: Path, tmp_path: Path) -> None:
    banks = _qti_banks(content, tmp_path / "dist")
    for lang, title in (
        ("en", "Checkpoints and resuming training"),
        ("ur", "چیک پوائنٹس اور تربیت جاری رکھنا"),
    ):
        quizzes = sorted(p.stem for p in (tmp_path / "dist" / "qti3" / lang).glob("*.zip"))
        assert len(quizzes) == 3
        # QTI 1.2: each quiz's assessment and Canvas settings in its folder, as in its own zip.
        package = banks["qti12"][lang]
        manifest = _check_manifest("qti12", package)
        assert manifest.findtext(".//{*}title/{*}string") == title
        for quiz_id in quizzes:
            own = zipfile.ZipFile(tmp_path / "dist" / "qti12" / lang / f"{quiz_id}.zip")
            for name in own.namelist():
                if name != "imsmanifest.xml":
                    assert package[name] == own.read(name)
        assessments = [
            r
            for r in manifest.iter(f"{QTI_CP['qti12']}resource")
            if r.get("type") == "imsqti_xmlv1p2"
        ]
        assert [r.get("identifier") for r in assessments] == [f"qb_{q}_{lang}" for q in quizzes]
        # QTI 3: a test per quiz in its folder, its items beside it; the bank's title.
        package = banks["qti3"][lang]
        manifest = _check_manifest("qti3", package)
        assert manifest.findtext("{*}metadata/{*}lom/{*}general/{*}title/{*}string") == title
        tests = [
            r
            for r in manifest.iter(f"{QTI_CP['qti3']}resource")
            if r.get("type") == "imsqti_test_xmlv3p0"
        ]
        assert [t.get("href") for t in tests] == [f"{q}/assessment.xml" for q in quizzes]
        for quiz_id, resource in zip(quizzes, tests, strict=True):
            entry = resource.findtext("{*}metadata/{*}lom/{*}general/{*}identifier/{*}entry")
            assert entry == quiz_id
            test = etree.fromstring(package[f"{quiz_id}/assessment.xml"])
            refs = list(test.iter(f"{QTI3_ASI}qti-assessment-item-ref"))
            assert refs
            for ref in refs:  # relative to the test, as the player resolves it
                item = etree.fromstring(package[f"{quiz_id}/{ref.get('href')}"])
                assert item.tag == f"{QTI3_ASI}qti-assessment-item"
                assert item.get("identifier") == ref.get("identifier")
        for name, data in package.items():  # every image an item or test shows is in the zip
            if name.endswith(".xml") and name != "imsmanifest.xml":
                for img in etree.fromstring(data).iter(f"{QTI3_ASI}img"):
                    target = posixpath.normpath(
                        posixpath.join(posixpath.dirname(name), img.get("src"))
                    )
                    assert target in package, (name, img.get("src"))


def test_an_image_two_quizzes_show_is_one_entry_and_builds_are_identical(
    content: Path, tmp_path: Path
) -> None:
    media = REPO / "tests" / "fixtures" / "media"
    for lang in ("en", "ur"):
        text = (media / lang / "media.yaml").read_text("utf-8")
        (content / lang / "media.yaml").write_text(text, "utf-8")
        again = text.replace("id: media\n", "id: media-again\n", 1)
        (content / lang / "media-again.yaml").write_text(again, "utf-8")
    for image in (media / "images").iterdir():
        shutil.copy(image, content / "images")
    first = _qti_banks(content, tmp_path / "one")
    assert first == _qti_banks(content, tmp_path / "two")
    for fmt in QTI_CP:
        for lang in ("en", "ur"):
            raw = (tmp_path / "one" / fmt / "bank" / f"{lang}.zip").read_bytes()
            assert raw == (tmp_path / "two" / fmt / "bank" / f"{lang}.zip").read_bytes()
            package = first[fmt][lang]
            manifest = _check_manifest(fmt, package)
            images = sorted(name for name in package if name.startswith("images/"))
            assert len(images) == 3  # shards, grid, sharded-checkpoint: each once
            listed = [
                r.get("href")
                for r in manifest.iter(f"{QTI_CP[fmt]}resource")
                if r.get("type") == "webcontent"
            ]
            assert sorted(listed) == images
            with zipfile.ZipFile(io.BytesIO(raw)) as archive:
                assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
                names = archive.namelist()
            assert names == (
                ["imsmanifest.xml", *sorted(set(names) - {"imsmanifest.xml"})]
                if fmt == "qti12"
                else sorted(names)
            )


def test_without_bank_the_qti3_package_keeps_its_layout(content: Path, tmp_path: Path) -> None:
    request = BuildRequest(paths=[content], out_dir=tmp_path / "dist", formats=["qti3"])
    assert not build(request, discover_renderers()).report.has_errors
    assert not (tmp_path / "dist" / "qti3" / "bank").exists()
    with zipfile.ZipFile(tmp_path / "dist" / "qti3" / "en" / "every-type.zip") as archive:
        assert "assessment.xml" in archive.namelist()
