"""Fail if the built documentation shows an error box: what ``sphinx-build -W`` does not catch.

Some problems reach the page without a warning: a directive the theme refuses
(furo shows a table of contents made by ``.. contents::`` as a red "ERROR" box,
through its stylesheet), a docutils system message. Run ``python docs/check_html.py docs/_build/html`` after the build;
it prints each page and box it finds and exits with 1, or exits with 0.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

#: The markup of an error box: an admonition of class error, a docutils system
#: message, or a table of contents of class ``contents``, which furo's stylesheet
#: turns into an error box unless it has furo's escape-hatch class.
ERROR_BOX = re.compile(
    r'class="(?![^"]*this-will-duplicate-information)[^"]*'
    r'\b(admonition error|system-message|contents)\b[^"]*"'
)
#: What a browser with JavaScript never shows (the search page's notice that it needs JavaScript).
NOSCRIPT = re.compile(r"<noscript>.*?</noscript>", re.DOTALL)


def error_boxes(folder: Path) -> list[str]:
    """Every error box in the HTML pages under ``folder``, as ``page: text``."""
    found = []
    for page in sorted(folder.rglob("*.html")):
        text = NOSCRIPT.sub("", page.read_text(encoding="utf-8"))
        for match in ERROR_BOX.finditer(text):
            snippet = re.sub(r"<[^>]+>", " ", text[match.start() : match.start() + 400])
            found.append(f"{page.relative_to(folder)}: {' '.join(snippet.split())[:160]}")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python docs/check_html.py BUILT_HTML_FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[1])
    if not folder.is_dir():
        print(f"{folder} is not a folder of built pages", file=sys.stderr)
        return 2
    boxes = error_boxes(folder)
    for box in boxes:
        print(box)
    return 1 if boxes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
