"""Tests of crapette.text: a state drawn as text, as the terminal shows it."""

from __future__ import annotations

import ast
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import crapette
from crapette import apply_move, new_game, parse_rules, view
from crapette.bots import GreedyBot, RandomBot
from crapette.text import render_text

from conftest import random_states

ESC = "\x1b["


def test_the_player_to_move_is_marked_and_the_perspective_player_is_at_the_bottom() -> None:
    state = new_game(parse_rules("classic(tableau_sources=own)"), seed=1)
    lines = render_text(state, names=("Ann", "Bob"), perspective=1).splitlines()
    assert lines[0] == "classic(tableau_sources=own) · move 0 · Ann to move"
    assert lines[1] == "▶ Ann  R0 3♣ [13]   H0 [35]   W0 - [0]"
    assert lines[-1] == "  Bob  R1 J♠ [13]   H1 [35]   W1 - [0]"
    assert lines[3] == "  own tableau piles: T0-T3 Ann, T4-T7 Bob"
    flipped = render_text(state, names=("Ann", "Bob")).splitlines()
    assert flipped[1] == lines[-1] and flipped[-1] == lines[1]


def test_the_hands_show_as_counts_only() -> None:
    state = new_game("classic", seed=3)
    lines = render_text(state).splitlines()
    for player in (0, 1):
        line = next(line for line in lines if f"H{player} " in line)
        assert f"H{player} [{len(state.hands[player])}]" in line


def test_colour_paints_red_suits_and_the_player_to_move_and_nothing_without_it() -> None:
    state = new_game("casual", seed=1)
    plain = render_text(state)
    painted = render_text(state, colour=True)
    assert ESC not in plain
    assert f"{ESC}31m2♦{ESC}0m" in painted  # a red card
    assert " 3♣\n" in painted  # a black one is not painted
    assert f"▶ {ESC}1mplayer 0" in painted  # the player to move, bold
    assert painted.replace(f"{ESC}31m", "").replace(f"{ESC}1m", "").replace(f"{ESC}2m", "").replace(f"{ESC}0m", "") == plain


def test_a_finished_game_says_who_won_and_speaks_to_you_in_the_second_person() -> None:
    state = new_game("classic", seed=4)
    bots = (GreedyBot(), RandomBot(seed=2))
    while not state.is_over:
        assert state.move_count < 5000
        state = apply_move(state, bots[state.current_player].choose(state))
    outcome = state.outcome
    assert outcome is not None and outcome.winner is not None
    names = ("you", "the bot") if outcome.winner == 0 else ("the bot", "you")
    first = render_text(state, names=names).splitlines()[0]
    assert "game over: you win (" in first
    assert "▶" not in render_text(state)
    other = render_text(state, names=names[::-1]).splitlines()[0]
    assert "game over: the bot wins (" in other


def test_the_card_drawn_is_said_to_lie_on_the_waste() -> None:
    bot = RandomBot(seed=1)
    state = new_game("classic", seed=1)
    while not state.drawn:  # classic: a card drawn that fits somewhere waits on the waste
        assert state.move_count < 500
        state = apply_move(state, bot.choose(state))
    assert render_text(state).splitlines()[0].endswith(" to move, the card drawn lies on the waste")
    assert "the card drawn" not in render_text(new_game("classic", seed=1))


@pytest.mark.parametrize("perspective", [2, -1, True, "0"])
def test_a_bad_perspective_is_a_value_error(perspective: object) -> None:
    with pytest.raises(ValueError, match="perspective must be 0 or 1"):
        render_text(new_game("classic", seed=1), perspective=perspective)  # type: ignore[arg-type]


def test_a_state_is_required() -> None:
    with pytest.raises(TypeError, match="render_text\\(\\) expects a GameState or a PublicView, got str"):
        render_text("classic")  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", ["classic", "casual", "classic(tableau_sources=own)"])
def test_a_public_view_is_drawn_as_its_state(rules: str) -> None:
    # Every tenth state of a game played to its end, and every state where a drawn card lies on the waste.
    states = random_states(rules, 3, 3000)
    picked = [s for i, s in enumerate(states) if i % 10 == 0 or s.drawn or s is states[-1]]
    assert states[-1].is_over and any(s.drawn for s in picked)
    for state in picked:
        for perspective in (0, 1):
            options = {"names": ("you", "the bot"), "perspective": perspective, "colour": perspective == 1}
            assert render_text(view(state), **options) == render_text(state, **options)  # type: ignore[arg-type]


# Where render_text lives -------------------------------------------------------------------------


def test_crapette_cli_render_text_still_works_but_warns() -> None:
    import crapette.cli

    with pytest.warns(DeprecationWarning, match="use crapette.text.render_text"):
        old = crapette.cli.render_text
    assert old is render_text
    with pytest.warns(DeprecationWarning):
        from crapette.cli import render_text as imported
    assert imported is render_text


def test_the_cli_keeps_its_public_names_without_a_warning_and_no_private_ones() -> None:
    import crapette.cli

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert crapette.cli.MAX_LINE == 1000 and crapette.cli.DEFAULT_GAMES == 200
    # The private names of the old one-file module are gone since 0.3.0: they were never public.
    for name in ("_bot_spec", "_Session", "_read_record", "_simulate", "_Paint", "_usable_cpus"):
        assert not hasattr(crapette.cli, name), name
    with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
        crapette.cli.nothing_here  # noqa: B018


def test_the_text_module_and_the_rl_adapters_import_nothing_from_the_cli() -> None:
    package = Path(crapette.__file__).parent
    for name in ("text", "gymnasium", "pettingzoo", "openspiel"):
        tree = ast.parse((package / f"{name}.py").read_text(encoding="utf-8"))
        imported = {
            node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        } | {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not any(module in ("cli", "crapette.cli") or module.startswith("crapette.cli.") for module in imported), name
    code = "import sys, crapette.text; print(any(m.startswith('crapette.cli') for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "False"
