"""Tests of crapette.svg: the table as an SVG picture, and the HTML replay page."""

from __future__ import annotations

import importlib.util
import math
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crapette import (
    ALL_CARDS,
    Card,
    Draw,
    EndTurn,
    GameState,
    Move,
    Pass,
    RuleSet,
    apply_move,
    legal_moves,
    new_game,
    parse_card,
    parse_move,
    parse_pile,
    parse_position,
)
from conftest import random_states
from crapette.svg import render, render_html

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "svg"
SVG = "{http://www.w3.org/2000/svg}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def _load_make_pictures() -> ModuleType:
    path = ROOT / "docs" / "make_pictures.py"
    spec = importlib.util.spec_from_file_location("make_pictures", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_pictures = _load_make_pictures()
MIDGAME: GameState = make_pictures.CLASSIC_MIDGAME
OVER: GameState = make_pictures.CLASSIC_OVER


def played(preset: str, seed: int, moves: int) -> GameState:
    """The state after up to ``moves`` random legal moves from a new game."""
    return random_states(preset, seed, moves)[-1]


def visible_cards(state: GameState) -> list[Card]:
    """The cards a player sees: foundation, reserve and waste tops, every tableau card."""
    cards = [pile[-1] for pile in state.foundations if pile]
    cards += [card for pile in state.tableau for card in pile]
    cards += [pile[-1] for pile in state.reserves + state.wastes if pile]
    return cards


def hidden_cards(state: GameState) -> list[Card]:
    """The face-down cards: each reserve below its top, and both hands."""
    return [c for pile in state.reserves for c in pile[:-1]] + [c for pile in state.hands for c in pile]


def drawn_cards(root: ET.Element) -> list[str]:
    return [g.get("data-card", "") for g in root.iter(f"{SVG}g") if g.get("class") == "card"]


def group(root: ET.Element, cls: str, **data: str) -> ET.Element:
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == cls and all(g.get(f"data-{k}") == v for k, v in data.items()):
            return g
    raise AssertionError(f"no <g class={cls!r}> with {data}")


def card_x(card: ET.Element) -> float:
    """The x of a card group, drawn at ``transform="translate(x y)"``."""
    transform = card.get("transform", "")
    assert transform.startswith("translate(")
    return float(transform[len("translate("):].split()[0])


def all_text(root: ET.Element) -> str:
    return " ".join(root.itertext())


games = st.builds(
    played,
    st.sampled_from(["casual", "classic"]),
    st.integers(0, 10_000),
    st.integers(0, 400),
)


# The document ------------------------------------------------------------------


def test_render_is_an_svg_document_that_parses_as_xml() -> None:
    root = ET.fromstring(render(new_game("casual", seed=1)))
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert root.find(f"{SVG}title") is not None


def test_render_is_plain_ascii_and_the_same_for_equal_states() -> None:
    first = render(MIDGAME, highlight=legal_moves(MIDGAME))
    again = render(parse_position(str(MIDGAME)), highlight=legal_moves(MIDGAME))
    assert first == again
    assert first.isascii()


def test_render_has_no_ids_that_could_clash_between_pictures_on_one_page() -> None:
    root = ET.fromstring(render(MIDGAME, highlight=legal_moves(MIDGAME)))
    assert [e for e in root.iter() if "id" in e.attrib] == []


@settings(max_examples=30, deadline=None)
@given(games, st.sampled_from([0, 1]))
def test_every_visible_card_is_drawn_exactly_once(state: GameState, perspective: int) -> None:
    root = ET.fromstring(render(state, perspective=perspective))
    assert sorted(drawn_cards(root)) == sorted(str(c) for c in visible_cards(state))


def test_each_card_shows_its_rank_and_suit_in_its_colour() -> None:
    root = ET.fromstring(render(MIDGAME))
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "card":
            continue
        card = parse_card(g.get("data-card", ""))
        texts = [t.text for t in g.iter(f"{SVG}text")]
        rank = "10" if card.rank == 10 else card.rank.symbol
        assert texts.count(rank) == 2 and texts.count(card.suit.symbol) == 3
        inks = {e.get("fill") for e in g.iter(f"{SVG}g") if e.get("font-weight") == "bold"}
        assert inks == ({"#c8102e"} if card.suit.value in "DH" else {"#1b1b1b"})


def test_card_backs_take_the_colour_of_each_players_deck() -> None:
    root = ET.fromstring(render(new_game("classic", seed=7)))
    colours = []
    for player in (0, 1):
        back = group(root, "back", pile=f"H{player}")
        colours.append(next(back.iter(f"{SVG}rect")).get("fill"))
    assert colours[0] != colours[1]


# Hidden information ----------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(games)
def test_no_face_down_card_is_named_anywhere(state: GameState) -> None:
    svg = render(state, highlight=legal_moves(state))
    text = all_text(ET.fromstring(svg))
    shown = {c.symbol for c in visible_cards(state)}
    for card in hidden_cards(state):
        assert str(card) not in svg
        if card.symbol not in shown:
            # Rank and suit together, as in a card's title, only for cards on show.
            assert card.symbol not in text
            assert f"{card.rank.symbol}{card.suit.symbol}" not in text


@settings(max_examples=30, deadline=None)
@given(games, st.randoms(use_true_random=False))
def test_reordering_the_face_down_cards_changes_nothing_in_the_picture(
    state: GameState, rng: random.Random
) -> None:
    # Shuffle the face-down cards among the face-down places (across both players
    # when the rules let a pile hold the other deck's cards) and keep the rest.
    piles = list(state.piles)
    mixed = bool(state.rules.load_targets)
    groups = [[16, 17, 18, 19]] if mixed else [[16, 18], [17, 19]]
    for ids in groups:
        hidden = [c for i in ids for c in (piles[i][:-1] if i < 18 else piles[i])]
        rng.shuffle(hidden)
        for i in ids:
            keep = 1 if i < 18 and piles[i] else 0
            n = len(piles[i]) - keep
            piles[i] = tuple(hidden[:n]) + piles[i][len(piles[i]) - keep:]
            hidden = hidden[n:]
    other = GameState(
        state.rules, tuple(piles), state.current_player, state.move_count, state.drawn,
        state.passes, state.exhausted, state.played,
    )
    assert render(other) == render(state)


# What the picture shows ----------------------------------------------------------------


def test_every_pile_is_labelled_with_its_notation() -> None:
    text = all_text(ET.fromstring(render(new_game("casual", seed=1))))
    for name in [f"F{i}" for i in range(8)] + [f"T{i}" for i in range(8)]:
        assert name in text.split()
    for player in (0, 1):
        for name in (f"R{player} reserve", f"H{player} hand", f"W{player} waste"):
            assert name in text


def test_reserve_hand_and_waste_show_their_counts() -> None:
    root = ET.fromstring(render(MIDGAME))
    for pile_name in ("R0", "R1", "H0", "H1", "W0", "W1"):
        count = len(MIDGAME.cards(parse_pile(pile_name)))
        assert all_text(group(root, "count", pile=pile_name)).strip() == str(count)


def test_tableau_piles_are_fanned_so_every_card_shows_a_corner() -> None:
    root = ET.fromstring(render(MIDGAME))
    pile = group(root, "pile", pile="T5")  # 8H1 7S1 6D1
    xs = [card_x(g) for g in pile if g.get("class") == "card"]
    assert len(xs) == 3
    steps = [abs(b - a) for a, b in zip(xs, xs[1:])]
    assert all(step >= 18 for step in steps)


def test_a_long_pile_is_squeezed_to_stay_on_the_table() -> None:
    long_pile = [parse_card(t) for t in "KS0 QH0 JC0 TD0 9S0 8H0 7C0 6D0 5S0 4H0 3C0 2D0 AS0".split()]
    deck0 = [c for c in ALL_CARDS if c.deck == 0 and c not in long_pile]
    deck1 = [c for c in ALL_CARDS if c.deck == 1]
    state = GameState.from_piles(
        RuleSet.casual(),
        tableau=[(), (), (), long_pile, (), (), (), long_pile[:0]],
        reserves=[deck0[:1], deck1[:1]],
        hands=[deck0[1:], deck1[1:]],
    )
    for perspective in (0, 1):
        root = ET.fromstring(render(state, perspective=perspective))
        width = float(root.get("width", ""))
        xs = [card_x(g) for g in root.iter(f"{SVG}g") if g.get("class") == "card"]
        assert len(xs) == 15
        assert all(0 < x and x + 60 < width for x in xs)


def test_the_player_to_move_is_marked() -> None:
    state = new_game("classic", seed=7)
    assert state.current_player == 1
    root = ET.fromstring(render(state))
    assert "to move" in all_text(group(root, "player", player="1"))
    assert "to move" not in all_text(group(root, "player", player="0"))


def test_the_outcome_is_shown_once_the_game_is_over() -> None:
    root = ET.fromstring(render(OVER))
    text = all_text(root)
    assert "Game over: player 0 wins (emptied), 63-0" in all_text(group(root, "outcome"))
    assert "to move" not in text
    assert "winner" in all_text(group(root, "player", player="0"))
    assert "wins" not in all_text(ET.fromstring(render(MIDGAME)))


def _pile_y(root: ET.Element, pile: str) -> float:
    return float(next(group(root, "count", pile=pile).iter(f"{SVG}rect")).get("y", ""))


@pytest.mark.parametrize("perspective", [0, 1])
def test_perspective_puts_that_player_at_the_bottom(perspective: int) -> None:
    root = ET.fromstring(render(MIDGAME, perspective=perspective))
    me, them = f"R{perspective}", f"R{1 - perspective}"
    assert _pile_y(root, me) > _pile_y(root, them)


def test_size_scales_the_width_and_keeps_the_proportions() -> None:
    natural = ET.fromstring(render(MIDGAME))
    small = ET.fromstring(render(MIDGAME, size=388))
    assert small.get("width") == "388"
    ratio = float(natural.get("height", "")) / float(natural.get("width", ""))
    assert math.isclose(float(small.get("height", "")), 388 * ratio, abs_tol=0.1)
    assert small.get("viewBox") == natural.get("viewBox")


# Highlights -------------------------------------------------------------------------


def test_each_distinct_highlighted_move_gets_one_arrow() -> None:
    moves = [parse_move(t) for t in ("R0-T7", "T5-T3", "T5-T7x2", "R0-T7")]
    root = ET.fromstring(render(MIDGAME, highlight=moves))
    arrows = [g for g in root.iter(f"{SVG}g") if g.get("class") == "arrow"]
    assert len(arrows) == 3


def test_no_highlight_means_no_arrow() -> None:
    root = ET.fromstring(render(MIDGAME))
    assert not [g for g in root.iter(f"{SVG}g") if g.get("class") in ("arrow", "highlight")]


def test_a_single_move_may_be_highlighted_without_a_list() -> None:
    move = parse_move("T5-T3")
    assert render(MIDGAME, highlight=move) == render(MIDGAME, highlight=[move])


def test_draw_points_from_hand_to_waste_and_end_turn_and_pass_are_named() -> None:
    root = ET.fromstring(render(MIDGAME, highlight=[Draw(), EndTurn(), Pass()]))
    assert len([g for g in root.iter(f"{SVG}g") if g.get("class") == "arrow"]) == 1
    text = all_text(group(root, "highlight"))
    assert "end turn" in text and "pass" in text


def test_an_arrow_runs_from_the_source_pile_to_the_target_pile() -> None:
    root = ET.fromstring(render(MIDGAME, highlight=parse_move("R0-T7")))
    line = next(next(g for g in root.iter(f"{SVG}g") if g.get("class") == "arrow").iter(f"{SVG}line"))
    x1, y1, x2, y2 = (float(line.get(k, "")) for k in ("x1", "y1", "x2", "y2"))
    assert y1 > _pile_y(root, "R1") and y1 > y2  # from the bottom edge upwards
    assert x2 > x1  # T7 is on the right-hand side


# Arguments --------------------------------------------------------------------------


@pytest.mark.parametrize("perspective", [2, -1, True, "0", None, 0.5])
def test_perspective_must_be_0_or_1(perspective: object) -> None:
    with pytest.raises(ValueError, match="perspective must be 0 or 1"):
        render(MIDGAME, perspective=perspective)  # type: ignore[arg-type]


@pytest.mark.parametrize("highlight", ["R0-T7", ["R0-T7"], [1], 3, [None]])
def test_highlight_takes_moves_only(highlight: object) -> None:
    with pytest.raises(TypeError, match="Move|parse_move"):
        render(MIDGAME, highlight=highlight)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [0, -10, float("nan"), float("inf")])
def test_size_must_be_positive(size: float) -> None:
    with pytest.raises(ValueError, match="size must be a positive number"):
        render(MIDGAME, size=size)


@pytest.mark.parametrize("size", ["600", True, [600]])
def test_size_must_be_a_number(size: object) -> None:
    with pytest.raises(TypeError, match="size must be a number"):
        render(MIDGAME, size=size)  # type: ignore[arg-type]


def test_render_takes_a_game_state() -> None:
    with pytest.raises(TypeError, match="expected a GameState"):
        render(str(MIDGAME))  # type: ignore[arg-type]


def test_a_state_shows_itself_as_this_picture_in_jupyter() -> None:
    assert MIDGAME._repr_svg_() == render(MIDGAME)


# Golden files ------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(make_pictures.golden_renders()))
def test_golden_render(name: str) -> None:
    expected = (GOLDEN / name).read_text(encoding="utf-8").replace("\r\n", "\n")
    assert make_pictures.golden_renders()[name] == expected, (
        f"{name} differs from a fresh render; if the change is intended, "
        "run python docs/make_pictures.py and review the pictures"
    )


def test_docs_pictures_are_up_to_date() -> None:
    static = ROOT / "docs" / "_static"
    for name, text in make_pictures.docs_renders().items():
        assert (static / name).read_text(encoding="utf-8").replace("\r\n", "\n") == text, name


# The HTML page -----------------------------------------------------------------------


def _replay(n: int) -> tuple[list[GameState], list[Move]]:
    state = new_game("classic", seed=3)
    states, moves = [state], []
    rng = random.Random(3)
    for _ in range(n):
        move = rng.choice(legal_moves(state))
        state = apply_move(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


def test_html_is_well_formed_with_one_svg_per_state() -> None:
    states, moves = _replay(5)
    root = ET.fromstring(render_html(states, moves))
    assert root.tag == f"{XHTML}html"
    frames = [e for e in root.iter(f"{XHTML}div") if e.get("class") == "frame"]
    assert len(frames) == 6
    assert [len(list(f.iter(f"{SVG}svg"))) for f in frames] == [1] * 6
    assert sum(1 for e in frames if "display: block" in e.get("style", "")) == 1


def test_html_draws_each_move_on_the_state_it_is_played_from() -> None:
    states, moves = _replay(4)
    page = render_html(states, moves)
    root = ET.fromstring(page)
    captions = [e.text for e in root.iter(f"{XHTML}p") if e.get("class") == "caption"]
    assert captions[:4] == [f"move {i + 1}: {m}" for i, m in enumerate(moves)]
    assert captions[4] == f"player {states[4].current_player} to move"
    frames = [e for e in root.iter(f"{XHTML}div") if e.get("class") == "frame"]
    assert list(frames[-1].iter(f"{SVG}line")) == []


def test_html_is_self_contained() -> None:
    states, _ = _replay(2)
    page = render_html(states, perspective=1, title="a <game> & more")
    for needle in ("src=", "href=", "@import", "url("):
        assert needle not in page
    assert "a &lt;game&gt; &amp; more" in page
    assert page.isascii()


def test_html_states_and_moves_must_match() -> None:
    states, moves = _replay(3)
    with pytest.raises(ValueError, match="one fewer than the states"):
        render_html(states, moves[:2])
    with pytest.raises(ValueError, match="at least one state"):
        render_html([])
    with pytest.raises(TypeError, match="use render"):
        render_html(states[0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a GameState"):
        render_html([states[0], "casual"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="not a Move"):
        render_html(states[:2], ["T1-T0"])  # type: ignore[list-item]
