"""docs/check_html.py finds the error boxes that sphinx-build -W lets through."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

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


_BLOCKER = '''
import sys
class _Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"pyspiel", "gymnasium", "pettingzoo"}:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _Hide())
'''

_PROBE = '''
import importlib.util, runpy, sys
conf = runpy.run_path("docs/conf.py")
print(sorted(conf["autodoc_mock_imports"]))
from sphinx.ext.autodoc.mock import mock
with mock(conf["autodoc_mock_imports"]):
    import crapette.openspiel, crapette.gymnasium, crapette.pettingzoo
print(crapette.openspiel.CrapetteGame.__doc__.split(";")[0])
print(crapette.gymnasium.CrapetteEnv.__doc__ is not None, crapette.pettingzoo.raw_env.__doc__ is not None)
'''


def test_the_docs_extra_builds_the_adapters_pages_without_their_frameworks(tmp_path: Path) -> None:
    """pip install -e ".[docs]" alone: docs/conf.py mocks OpenSpiel, Gymnasium and PettingZoo, and the adapters import under the mocks (issue 24, item 10).

    The whole build is checked by hand with the frameworks hidden the same way:
    PYTHONPATH=<folder of a sitecustomize.py like _BLOCKER>:$PWD sphinx-build -q -n -W -b html docs <out>.
    """
    import os
    import subprocess
    import sys

    pytest.importorskip("sphinx")
    (tmp_path / "sitecustomize.py").write_text(_BLOCKER, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    result = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "['gymnasium', 'pettingzoo', 'pyspiel']"
    assert lines[1].startswith("The game of Crapette for OpenSpiel")
    assert lines[2] == "True True"
