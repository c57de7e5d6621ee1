"""docs/check_html.py finds the error boxes that sphinx-build -W lets through."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _checker():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("check_html", ROOT / "docs" / "check_html.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_check_finds_furos_error_box_and_system_messages(tmp_path: Path) -> None:
    checker = _checker()
    (tmp_path / "good.html").write_text('<div class="admonition note"><p>fine</p></div>', encoding="utf-8")
    assert checker.error_boxes(tmp_path) == []
    assert checker.main(["check_html.py", str(tmp_path)]) == 0
    (tmp_path / "rules.html").write_text(
        '<div class="admonition error"><p class="admonition-title">Error</p>'
        "<p>Adding a table of contents in Furo-based documentation is unnecessary</p></div>",
        encoding="utf-8",
    )
    (tmp_path / "api.html").write_text('<div class="system-message"><p>Unknown directive</p></div>', encoding="utf-8")
    # What `.. contents::` makes: furo's stylesheet shows it as a red ERROR box.
    (tmp_path / "play.html").write_text('<nav class="contents local" id="on-this-page"><ul></ul></nav>', encoding="utf-8")
    (tmp_path / "ok.html").write_text(
        '<nav class="contents this-will-duplicate-information-and-it-is-still-useful-here"></nav>', encoding="utf-8"
    )
    found = checker.error_boxes(tmp_path)
    assert [line.split(":")[0] for line in found] == ["api.html", "play.html", "rules.html"]
    assert "table of contents" in found[2]
    assert checker.main(["check_html.py", str(tmp_path)]) == 1


def test_no_page_uses_the_contents_directive_that_furo_refuses() -> None:
    pages = [p for p in (ROOT / "docs").rglob("*.rst") if ".. contents::" in p.read_text(encoding="utf-8")]
    assert pages == []
