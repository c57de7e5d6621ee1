"""The public API as a whole: every public name has an example, lives in the package, and reads its texts one way."""

from __future__ import annotations

import inspect
import re

import pytest

import crapette
from pathlib import Path
from crapette import GameState, Pile, apply_move, legal_moves, new_game

# Every public name shows an example --------------------------------------------------------------


def _public_callables() -> list[str]:
    names = []
    for name in crapette.__all__:
        obj = getattr(crapette, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            names.append(name)
    return names


@pytest.mark.parametrize("name", _public_callables())
def test_every_public_class_and_function_has_a_doctest_example(name: str) -> None:
    doc = inspect.getdoc(getattr(crapette, name)) or ""
    assert ">>>" in doc, f"crapette.{name} has no example in its docstring"


def test_from_piles_has_a_doctest_example() -> None:
    assert ">>>" in (inspect.getdoc(GameState.from_piles) or "")


# One namespace, one text form, one rules reader --------------------------------------------------


def test_public_names_live_in_the_package_namespace() -> None:
    for name in ("Card", "GameState", "RuleSet", "IllegalMoveError", "ParseError", "RecordError", "new_game"):
        assert getattr(crapette, name).__module__ == "crapette"
    with pytest.raises(crapette.IllegalMoveError) as info:
        apply_move(new_game("casual", seed=1), crapette.parse_move("end"))
    assert type(info.value).__module__ == "crapette"
    assert "crapette.IllegalMoveError" in repr(type(info.value))
    from crapette.errors import RecordError

    assert RecordError is crapette.RecordError


def test_every_value_with_a_text_form_writes_it_with_str_and_reads_it_with_one_parser() -> None:
    state = new_game("classic(move_limit=300)", seed=4)
    record = crapette.GameRecord(state.rules, seed=4, moves=legal_moves(state)[:1])
    card, pile, move = state.piles[16][-1], Pile.reserve(0), legal_moves(state)[0]
    for value, parse in (
        (card, crapette.parse_card),
        (pile, crapette.parse_pile),
        (move, crapette.parse_move),
        (state.rules, crapette.parse_rules),
        (state, crapette.parse_position),
        (record, crapette.parse_record),
    ):
        assert parse(str(value)) == value


def test_every_entry_point_reads_a_rules_text() -> None:
    text = "classic(move_limit=120)"
    rules = crapette.parse_rules(text)
    assert new_game(text, seed=1).rules == rules
    assert crapette.GameRecord(text, seed=1).rules == rules
    assert crapette.Game(text, seed=1).state.rules == rules
    assert crapette.GameState.from_piles(text, reserves=["5C0", "5D1"], rest="hand").rules == rules
    assert crapette.Match.for_rules(text).scoring == rules.scoring


def test_the_old_text_spellings_still_work_and_say_they_are_deprecated() -> None:
    state = new_game("casual", seed=1)
    record = crapette.GameRecord("casual", seed=1)
    with pytest.deprecated_call():
        assert state.to_position() == str(state)
    with pytest.deprecated_call():
        assert GameState.from_position(str(state)) == state
    with pytest.deprecated_call():
        assert crapette.rules_to_text(state.rules) == "casual"
    with pytest.deprecated_call():
        assert crapette.rules_from_text("casual") == state.rules
    with pytest.deprecated_call():
        assert record.to_text() == str(record)
    with pytest.deprecated_call():
        assert crapette.GameRecord.from_text(str(record)) == record


def test_the_version_the_changelog_and_the_docs_notes_agree() -> None:
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    declared = re.search(r'^version = "([^"]+)"', (root / "pyproject.toml").read_text("utf-8"), re.MULTILINE)
    assert declared is not None and declared.group(1) == crapette.__version__
    headings = re.findall(r"^## \[([^\]]+)\]", (root / "CHANGELOG.md").read_text("utf-8"), re.MULTILINE)
    assert headings[0] == "Unreleased" and headings[1] == crapette.__version__
    released = set(headings[1:])
    notes = [
        (path.name, version)
        for path in [*(root / "crapette").rglob("*.py"), *(root / "docs").glob("*.rst")]
        for version in re.findall(r"\.\. (?:versionadded|versionchanged|deprecated):: (\S+)", path.read_text("utf-8"))
    ]
    assert notes and [(name, v) for name, v in notes if v not in released] == []


def test_the_stability_page_names_every_public_module_of_the_package() -> None:
    import pkgutil
    from pathlib import Path

    import crapette

    package = Path(crapette.__file__).parent
    public = {
        info.name
        for info in pkgutil.walk_packages([str(package)], prefix="crapette.")
        if not any(part.startswith("_") for part in info.name.split("."))
    }
    page = (Path(__file__).resolve().parent.parent / "docs" / "stability.rst").read_text(encoding="utf-8")
    named = set(re.findall(r":mod:`(crapette\.[\w.]+)`", page))
    assert public - named == set(), f"docs/stability.rst leaves out {sorted(public - named)}"


def test_every_public_module_has_its_test_file() -> None:
    # tests/ mirrors the package: crapette.X is tested in a tests/**/test_X.py (crapette.cli in tests/cli/).
    package = Path(crapette.__file__).parent
    tests = Path(__file__).resolve().parent
    public = sorted(
        path.stem if path.suffix == ".py" else path.name
        for path in package.iterdir()
        if not path.name.startswith("_") and (path.suffix == ".py" or (path / "__init__.py").is_file())
    )
    have = {path.stem.removeprefix("test_") for path in tests.rglob("test_*.py")} | {
        path.name for path in tests.iterdir() if path.is_dir()
    }
    assert [name for name in public if name not in have] == []
