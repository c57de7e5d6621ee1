"""Tests of crapette.svg: the table as an SVG picture, and the HTML replay page.

The replay page is also opened in headless Chromium when Debian's ``chromium``
and ``chromium-driver`` and Selenium are installed (the test says so when not).
"""

from __future__ import annotations

import importlib.util
import io
import itertools
import json
import math
import random
import re
import weakref
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from xml.sax.saxutils import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crapette import (
    ALL_CARDS,
    ALL_PILES,
    Card,
    Draw,
    EndTurn,
    GameState,
    Move,
    Pass,
    PileKind,
    RuleSet,
    apply_move,
    legal_moves,
    new_game,
    parse_card,
    parse_move,
    parse_pile,
    parse_position,
    view,
)
from conftest import random_states
from crapette.svg import render, render_html, write_html

ROOT = Path(__file__).resolve().parents[2]
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
CROWDED: GameState = make_pictures.CLASSIC_CROWDED
CARD_CODE = re.compile(r"\b[A2-9TJQK][CDHS][01]\b")


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


def all_text(root: ET.Element) -> str:
    return " ".join(root.itertext())


def translation(element: ET.Element) -> tuple[float, float]:
    """The x and y of ``transform="translate(x y)"``."""
    x, y = re.fullmatch(r"translate\((\S+) (\S+)\)", element.get("transform", "")).groups()  # type: ignore[union-attr]
    return float(x), float(y)


def numbers(text: str) -> list[float]:
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", text)]


class Drawn:
    """An arrow as drawn: its curve (start, control point, end of the shaft) and its head (tip first)."""

    def __init__(self, g: ET.Element) -> None:
        self.move = g.get("data-move", "")
        shaft, _, head = (p.get("d", "") for p in g.iter(f"{SVG}path"))
        sx, sy, cx, cy, ex, ey = numbers(shaft)
        self.start, self.control, self.end = (sx, sy), (cx, cy), (ex, ey)
        hx = numbers(head)
        self.tip = (hx[0], hx[1])

    def point(self, t: float) -> tuple[float, float]:
        u = 1 - t
        return (u * u * self.start[0] + 2 * u * t * self.control[0] + t * t * self.end[0],
                u * u * self.start[1] + 2 * u * t * self.control[1] + t * t * self.end[1])


def arrows(root: ET.Element) -> list[Drawn]:
    return [Drawn(g) for g in root.iter(f"{SVG}g") if g.get("class") == "arrow"]


def card_boxes(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Where each face-up card is drawn, by its code."""
    return {g.get("data-card", ""): translation(g) for g in root.iter(f"{SVG}g") if g.get("class") == "card"}


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def shuffle_face_down(state: GameState, rng: random.Random) -> GameState:
    """``state`` with its face-down cards shuffled among the face-down places.

    Across both players when the rules let a pile hold the other deck's cards;
    everything a player sees stays as it is.
    """
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
    return GameState(
        state.rules, tuple(piles), state.current_player, state.move_count, state.drawn,
        state.passes, state.exhausted, state.played,
    )


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
    other = shuffle_face_down(state, rng)
    assert render(other, highlight=legal_moves(other)) == render(state, highlight=legal_moves(state))


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
    xs = [translation(g)[0] for g in pile if g.get("class") == "card"]
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
        xs = [translation(g)[0] for g in root.iter(f"{SVG}g") if g.get("class") == "card"]
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
    return translation(group(root, "count", pile=pile))[1]


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


def test_an_arrow_runs_from_the_moving_card_to_the_edge_of_the_target_pile() -> None:
    root = ET.fromstring(render(MIDGAME, highlight=parse_move("T5-T3")))
    (arrow,) = arrows(root)
    assert arrow.move == "T5-T3"
    x, y = card_boxes(root)["6D1"]  # the top card of T5
    assert arrow.start == (x + 30, y + 42)
    tx, ty = card_boxes(root)["7C0"]  # alone on T3
    # The tip stops short of T3's card and of its label above it, and touches neither.
    left, top, right, bottom = tx - 4, ty - 16 - 4, tx + 60 + 4, ty + 84
    assert left - 1 <= arrow.tip[0] <= right + 1 and top - 1 <= arrow.tip[1] <= bottom
    assert min(arrow.tip[0] - left, right - arrow.tip[0], arrow.tip[1] - top) <= 1


def test_arrows_between_the_same_piles_are_drawn_apart() -> None:
    # T3 holds seven cards in a row with T7: stack moves of 1, 2 and 3 cards lie on one line.
    moves = [parse_move(t) for t in ("T3-T7", "T3-T7x2", "T3-T7x3")]
    drawn = arrows(ET.fromstring(render(CROWDED, highlight=moves)))
    assert [a.move for a in drawn] == ["T3-T7", "T3-T7x2", "T3-T7x3"]
    for a, b in itertools.combinations(drawn, 2):
        assert distance(a.tip, b.tip) >= 10
        assert distance(a.point(0.6), b.point(0.6)) >= 6


def test_a_move_and_its_way_back_are_drawn_apart() -> None:
    there, back = arrows(ET.fromstring(render(MIDGAME, highlight=[parse_move("T1-T5"), parse_move("T5-T1")])))
    assert distance(there.point(0.5), back.point(0.5)) >= 15


@settings(max_examples=20, deadline=None)
@given(games, st.sampled_from([0, 1]))
def test_every_legal_move_gets_an_arrow_of_its_own(state: GameState, perspective: int) -> None:
    moves = legal_moves(state)
    drawn = arrows(ET.fromstring(render(state, perspective=perspective, highlight=moves)))
    assert sorted(a.move for a in drawn) == sorted(str(m) for m in moves if not isinstance(m, (EndTurn, Pass)))
    for a, b in itertools.combinations(drawn, 2):
        assert distance(a.tip, b.tip) >= 4, (a.move, b.move)


def test_labels_counts_and_name_plates_lie_over_the_arrows() -> None:
    root = ET.fromstring(render(CROWDED, highlight=legal_moves(CROWDED)))
    order = [g.get("class") for g in root.iter(f"{SVG}g")]
    last_arrow = max(i for i, c in enumerate(order) if c == "arrow")
    for cls in ("label", "count", "player"):
        assert min(i for i, c in enumerate(order) if c == cls) > last_arrow, cls


def test_a_card_corner_that_an_arrow_crosses_is_drawn_again_over_it() -> None:
    # T5-T3 runs across the top of the king of diamonds on T6.
    root = ET.fromstring(render(MIDGAME, highlight=parse_move("T5-T3")))
    x, y = card_boxes(root)["KD0"]
    indexes = [g for g in root.iter(f"{SVG}g") if g.get("class") == "index"]
    assert ("K", "\u2666") in [tuple(t.text for t in g.iter(f"{SVG}text")) for g in indexes
                               if translation(g) == (x, y)]
    order = [g.get("class") for g in root.iter(f"{SVG}g")]
    assert order.index("index") > order.index("arrow")
    # A draw crosses no card: nothing is drawn again.
    root = ET.fromstring(render(MIDGAME, highlight=Draw()))
    assert not [g for g in root.iter(f"{SVG}g") if g.get("class") == "index"]


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


def test_render_takes_a_game_state_or_a_public_view() -> None:
    with pytest.raises(TypeError, match=r"render\(\) expects a GameState or a PublicView, got str"):
        render(str(MIDGAME))  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", ["classic", "casual"])
def test_a_public_view_is_drawn_as_its_state(rules: str) -> None:
    states = random_states(rules, 5, 3000)
    picked = [s for i, s in enumerate(states) if i % 25 == 0 or s.drawn or s is states[-1]][:60]
    assert states[-1].is_over or len(picked) == 60
    for state in picked:
        moves = legal_moves(state)
        assert render(view(state), highlight=moves, perspective=1) == render(state, highlight=moves, perspective=1)


def test_the_replay_page_of_the_views_is_the_page_of_the_states() -> None:
    states = random_states("classic", 6, 300)
    moves = [next(m for m in legal_moves(a) if apply_move(a, m) == b) for a, b in itertools.pairwise(states)]
    assert render_html([view(s) for s in states], moves) == render_html(states, moves)
    with pytest.raises(TypeError, match="states\\[1\\] is a str, not a GameState or PublicView"):
        render_html([view(states[0]), "classic"])  # type: ignore[list-item]


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


def _replay(n: int, rules: str = "classic", seed: int = 3) -> tuple[list[GameState], list[Move]]:
    state = new_game(rules, seed=seed)
    states, moves = [state], []
    rng = random.Random(seed)
    for _ in range(n):
        if state.is_over:
            break
        move = rng.choice(legal_moves(state))
        state = apply_move(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


def page_data(page: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What the page's script reads: the table (templates, piles, name plates) and one entry per step."""
    root = ET.fromstring(page)
    scripts = {e.get("id"): e.text or "" for e in root.iter(f"{XHTML}script") if e.get("id")}
    return json.loads(scripts["crapette-table"]), json.loads(scripts["crapette-steps"])


def pile_texts(state: GameState) -> list[str]:
    """Each pile as the page's data writes it: a tableau pile's cards, any other's count and top card."""
    texts = []
    for pile, cards in zip(ALL_PILES, state.piles):
        if pile.kind is PileKind.TABLEAU:
            texts.append(" ".join(map(str, cards)))
        elif pile.kind is PileKind.HAND or not cards:
            texts.append(str(len(cards)))
        else:
            texts.append(f"{len(cards)} {cards[-1]}")
    return texts


def rebuilt(table: dict[str, Any], steps: list[dict[str, Any]], i: int) -> list[str]:
    """The piles of step ``i`` as the page's script rebuilds them: from the last full step, the changes since."""
    texts = [""] * len(ALL_PILES)
    for step in steps[i - i % table["keyframe"]: i + 1]:
        for pile, text in step["c"].items():
            texts[int(pile)] = text
    return texts


def filled(table: dict[str, Any], commands: list[list[Any]]) -> str:
    """Templates filled as the page's script fills them, written as render() writes them."""
    out = []
    for command in commands:
        text, names = table["templates"][command[0]]
        out.append(re.sub(r"\{(\w+)\}", lambda m: escape(command[1 + names.index(m.group(1))], {'"': "&quot;"}), text))
    return "".join(out).encode("ascii", "xmlcharrefreplace").decode("ascii")


def test_html_is_one_table_that_parses_as_xml() -> None:
    states, moves = _replay(5)
    page = render_html(states, moves)
    root = ET.fromstring(page)
    assert root.tag == f"{XHTML}html"
    assert len(list(root.iter(f"{SVG}svg"))) == 1
    _, steps = page_data(page)
    assert len(steps) == 6
    assert [step.get("m") for step in steps] == [str(m) for m in moves] + [None]


def test_html_shows_the_first_step_before_its_script_runs() -> None:
    states, moves = _replay(5)
    root = ET.fromstring(render_html(states, moves, perspective=1))
    picture = ET.fromstring(render(states[0], perspective=1, highlight=moves[0]))

    def drawn(root: ET.Element) -> list[str]:
        return [ET.tostring(g, encoding="unicode").rstrip("\n") for g in root.iter(f"{SVG}g")
                if g.get("class") in ("card", "arrow", "count", "player", "index")]

    assert drawn(root) == drawn(picture)
    caption = next(e for e in root.iter(f"{XHTML}p") if e.get("id") == "caption")
    assert caption.text == f"move 1: {moves[0]}"


def test_html_data_gives_each_step_as_a_player_sees_it_with_its_move_as_render_draws_it() -> None:
    states, moves = _replay(150)  # past two of the steps that hold every pile
    table, steps = page_data(render_html(states, moves))
    for i, state in enumerate(states):
        assert rebuilt(table, steps, i) == pile_texts(state)
        if i % table["keyframe"]:
            assert len(steps[i]["c"]) < len(ALL_PILES)  # only the piles that changed
        picture = render(state, highlight=moves[i] if i < len(moves) else ()).replace("\n", "")
        marks = filled(table, steps[i].get("h", []))
        assert marks in picture and (marks != "") == (i < len(moves))
        assert filled(table, steps[i]["g"]) in picture  # the header
        plates = "".join(table["plates"][player][key] for player, key in enumerate(steps[i]["p"]))
        assert plates.encode("ascii", "xmlcharrefreplace").decode("ascii") in picture


def test_html_ends_with_the_outcome() -> None:
    states, moves = _replay(200, "classic(move_limit=40)", seed=5)
    assert states[-1].outcome is not None
    table, steps = page_data(render_html(states, moves))
    assert steps[-1]["s"] == str(states[-1].outcome)
    assert f"Game over: {states[-1].outcome}" in filled(table, steps[-1]["g"])


def _face_up_anywhere(states: list[GameState]) -> set[str]:
    return {str(c) for state in states for c in visible_cards(state)}


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["casual", "classic"]), st.integers(0, 10_000), st.integers(0, 120))
def test_html_names_no_card_that_lies_face_down_throughout(preset: str, seed: int, length: int) -> None:
    states, moves = _replay(length, preset, seed)
    page = render_html(states, moves)
    assert set(CARD_CODE.findall(page)) <= _face_up_anywhere(states)
    # A page of one position names only what lies face up in it.
    single = render_html(states[-1:])
    assert set(CARD_CODE.findall(single)) == {str(c) for c in visible_cards(states[-1])}
    for card in hidden_cards(states[-1]):
        assert str(card) not in single


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["casual", "classic"]), st.integers(0, 10_000), st.integers(0, 80),
       st.randoms(use_true_random=False))
def test_html_is_the_same_whatever_the_order_of_the_face_down_cards(
    preset: str, seed: int, length: int, rng: random.Random
) -> None:
    states, moves = _replay(length, preset, seed)
    shuffled = [shuffle_face_down(state, rng) for state in states]
    assert render_html(shuffled, moves, notes=[str(m) for m in moves]) == \
        render_html(states, moves, notes=[str(m) for m in moves])


def test_html_shows_each_note_with_its_move() -> None:
    states, moves = _replay(3)
    nasty = 'mistake: R0-T3 was better (-0.21) </script><script>alert(1)</script> ]]> & <b>'
    page = render_html(states, moves, notes=[None, nasty, ""], title="a <game> & more")
    root = ET.fromstring(page)  # still well-formed
    _, steps = page_data(page)
    assert [step.get("t") for step in steps] == [None, nasty, None, None]
    assert "alert(1)</script>" not in page and "]]> &" not in page
    assert "a &lt;game&gt; &amp; more" in page
    assert len(list(root.iter(f"{XHTML}script"))) == 3
    assert page.isascii()


def test_html_is_self_contained() -> None:
    states, _ = _replay(2)
    page = render_html(states, perspective=1)
    for needle in ("src=", "href=", "@import", "url(", "http:", "https:"):
        assert needle not in page.replace('xmlns="http:', "")
    assert page.isascii()


def test_html_takes_its_script_and_style_from_the_package_data_files() -> None:
    import importlib.resources
    import inspect

    import crapette._frontends.replay_page

    static = importlib.resources.files("crapette").joinpath("static")
    script = static.joinpath("replay.js").read_text(encoding="utf-8")
    style = static.joinpath("replay.css").read_text(encoding="utf-8")
    assert "function show(" in script and "#counter" in style
    page = render_html(_replay(2)[0])
    assert f"<script>//<![CDATA[\n{script}//]]></script>" in page
    assert f"<style>\n{style}</style>" in page
    # Not a copy kept in Python: the module holds neither text.
    source = inspect.getsource(crapette._frontends.replay_page)
    assert "function show(" not in source and "#counter" not in source


def test_render_html_gives_what_write_html_writes() -> None:
    states, moves = _replay(10)
    out = io.StringIO()
    assert write_html(iter(states), iter(moves), out, perspective=1, title="t", notes=["x"] * 10) == 11
    assert out.getvalue() == render_html(states, moves, perspective=1, title="t", notes=["x"] * 10)


def test_write_html_writes_as_it_reads_and_keeps_no_state_it_has_written() -> None:
    length = 300
    # The moves of a long random game, made first as a record holds them.
    played: list[Move] = []
    state = new_game("casual(move_limit=none)", seed=4)
    rng = random.Random(4)
    for _ in range(length):
        played.append(rng.choice(legal_moves(state)))
        state = apply_move(state, played[-1])
    del state
    alive: list[weakref.ref[GameState]] = []
    most_alive = 0

    def states() -> Iterator[GameState]:
        nonlocal most_alive
        state = new_game("casual(move_limit=none)", seed=4)
        for i in range(length + 1):
            most_alive = max(most_alive, sum(1 for ref in alive if ref() is not None))
            alive.append(weakref.ref(state))
            yield state
            if i < length:
                state = apply_move(state, played[i])

    class Stream:
        def __init__(self) -> None:
            self.read_at_each_write: list[int] = []

        def write(self, text: str) -> int:
            self.read_at_each_write.append(len(alive))
            return len(text)

    stream = Stream()
    assert write_html(states(), iter(played), stream) == length + 1  # type: ignore[arg-type]
    assert most_alive <= 3
    assert stream.read_at_each_write[1] <= 3  # the first step is written once the second state is read
    assert len(set(stream.read_at_each_write)) > length // 2


def test_html_states_moves_and_notes_must_match() -> None:
    states, moves = _replay(3)
    with pytest.raises(ValueError, match="one fewer than the states: got 2 moves for 4 or more states"):
        render_html(states, moves[:2])
    with pytest.raises(ValueError, match="one fewer than the states: got 3 or more moves for 3 states"):
        render_html(states[:3], moves)
    with pytest.raises(ValueError, match="at least one state"):
        render_html([])
    with pytest.raises(ValueError, match="more notes than moves"):
        render_html(states, moves, notes=["a", "b", "c", "d"])
    with pytest.raises(ValueError, match="same rules"):
        render_html([states[0], new_game("casual", seed=1)])
    with pytest.raises(TypeError, match="use render"):
        render_html(states[0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a GameState"):
        render_html([states[0], "casual"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="not a Move"):
        render_html(states[:2], ["T1-T0"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="parse_move"):
        render_html(states[:2], "T1-T0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a str or None"):
        render_html(states, moves, notes=[1, 2, 3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="notes must be None or an iterable"):
        render_html(states, moves, notes="abc")
    with pytest.raises(TypeError, match="title must be a str"):
        render_html(states, title=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="perspective must be 0 or 1"):
        render_html(states, perspective=2)
    with pytest.raises(TypeError, match="write"):
        write_html(states, moves, "page.html")  # type: ignore[arg-type]


def test_html_takes_a_single_move_for_two_states() -> None:
    states, moves = _replay(1)
    assert render_html(states, moves[0]) == render_html(states, moves)  # type: ignore[arg-type]


# The page in a browser -----------------------------------------------------------------

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")


def _browser() -> Any:
    """Headless Chromium through Selenium, or a skip saying what is missing."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.skip(f"the browser test needs Debian's chromium and chromium-driver: no {', '.join(missing)}")
    webdriver = pytest.importorskip("selenium.webdriver", reason="the browser test needs Selenium: pip install selenium")
    options = webdriver.ChromeOptions()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1000,1100"):
        options.add_argument(flag)
    return webdriver, options


_DRAWN = """
return Array.from(document.querySelectorAll('svg g.card, svg g.arrow, svg g.count, svg g.player')).map(
  function (g) { return [g.getAttribute('class'), g.getAttribute('data-card') || g.getAttribute('data-move')
                         || g.getAttribute('data-pile') || g.getAttribute('data-player'),
                         g.getAttribute('transform') || g.querySelector('path') && g.querySelector('path').getAttribute('d'),
                         g.textContent]; });
"""


def _drawn_by_render(state: GameState, move: Move | None) -> list[list[str | None]]:
    root = ET.fromstring(render(state, highlight=move or ()))
    drawn = []
    for g in root.iter(f"{SVG}g"):
        cls = g.get("class")
        if cls in ("card", "arrow", "count", "player"):
            path = g.find(f"{SVG}path")
            drawn.append([cls, g.get("data-card") or g.get("data-move") or g.get("data-pile") or g.get("data-player"),
                          g.get("transform") or (path.get("d") if path is not None else None),
                          "".join(g.itertext())])
    return drawn


def test_html_steps_through_the_game_in_a_browser(tmp_path: Path) -> None:
    webdriver, options = _browser()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    states, moves = _replay(150)
    notes: list[str | None] = [None] * len(moves)
    notes[2] = "mistake: R0-T3 was better (-0.21) <b>&amp;</b>"
    path = tmp_path / "game.html"
    with path.open("w", encoding="utf-8") as out:
        write_html(states, moves, out, notes=notes, title="a game")
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    service = webdriver.ChromeService(executable_path=str(CHROMEDRIVER))
    options.binary_location = str(CHROMIUM)
    driver = webdriver.Chrome(service=service, options=options)
    try:
        driver.get(path.as_uri())
        body = driver.find_element(By.TAG_NAME, "body")

        def check(i: int) -> None:
            assert driver.find_element(By.ID, "counter").text == f"{i + 1} / {len(states)}"
            caption = driver.find_element(By.ID, "caption").text
            assert caption == (f"move {i + 1}: {moves[i]}" if i < len(moves) else f"player {states[i].current_player} to move")
            note = driver.find_element(By.ID, "note")
            assert note.text == (notes[i] or "" if i < len(notes) else "")
            assert driver.execute_script(_DRAWN) == _drawn_by_render(states[i], moves[i] if i < len(moves) else None)

        check(0)
        for i in (1, 2, 3):
            body.send_keys(Keys.ARROW_RIGHT)
            check(i)
        body.send_keys(Keys.END)
        check(150)
        body.send_keys(Keys.ARROW_RIGHT)  # no step after the last
        check(150)
        for i in (149, 148):
            body.send_keys(Keys.ARROW_LEFT)
            check(i)
        driver.find_element(By.ID, "first").click()
        check(0)
        driver.find_element(By.ID, "next").click()
        check(1)
        body.send_keys(Keys.HOME)
        body.send_keys(Keys.ARROW_LEFT)  # no step before the first
        check(0)
        assert [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"] == []
        driver.save_screenshot(str(tmp_path / "page.png"))
    finally:
        driver.quit()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844), (1920, 1080)])
def test_the_whole_table_shows_in_the_window_and_grows_with_it(tmp_path: Path, width: int, height: int) -> None:
    webdriver, options = _browser()
    states, moves = _replay(20)
    path = tmp_path / "game.html"
    path.write_text(render_html(states, moves, title="a game"), encoding="utf-8")
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    options.binary_location = str(CHROMIUM)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500},
        )
        driver.get(path.as_uri())
        # Where the drawing lies in the window: the table's box, scaled from the top left keeping its shape.
        top, left, box_w, box_h, inner_w, inner_h, scroll_h = driver.execute_script(
            "const r = document.querySelector('.table svg').getBoundingClientRect();"
            "return [r.top, r.left, r.width, r.height, window.innerWidth, window.innerHeight,"
            " document.documentElement.scrollHeight];"
        )
        scale = min(box_w / 776, box_h / 704)
        drawn_w, drawn_h = 776 * scale, 704 * scale
        assert inner_w == width and scroll_h <= height  # the page's width is the screen's; nothing below the fold
        assert top + drawn_h <= height and left + drawn_w <= width
        assert drawn_w >= min(0.9 * (width - 2 * left), 0.9 * (height - top) * 776 / 704)  # as large as it fits
    finally:
        driver.quit()
