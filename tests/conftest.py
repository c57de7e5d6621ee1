"""Shared test helpers: hand-made positions, and the Hypothesis profiles.

``make_state`` builds a validated :class:`~crapette.GameState` from the piles a
test cares about, written in card notation; every card it is not told about
goes to the bottom of its own deck's player's hand (or waste, or reserve: see
``rest``), so the 104 cards are always all there.
"""

from __future__ import annotations

import io
import os
import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Union

import attrs
from hypothesis import HealthCheck, settings
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
)
from crapette._core.moves import PLAYS, STACKS
from crapette.strategies import presets, rulesets

# The default profile draws the same examples on every run and machine, so the
# suite passes or fails alike everywhere; HYPOTHESIS_PROFILE=thorough draws
# new random examples, a thousand a test, to hunt for what the fixed ones miss.
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=25,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def examples(scale: float, minimum: int = 2) -> int:
    """``max_examples`` for a test that is ``scale`` times as cheap as usual, under the loaded profile."""
    return max(minimum, int(settings().max_examples * scale))

#: One pile: "AH0 2H0 3H0" (bottom to top, spaces or commas between cards) or a sequence of cards.
CardsSpec = Union[str, Iterable[Union[str, Card]]]
#: A group of piles: a sequence (pile 0, 1, ...) or a mapping from pile index to pile.
GroupSpec = Union[Sequence[CardsSpec], Mapping[int, CardsSpec]]


#: Every move there is: all Plays, all stack moves, Draw, End turn and Pass.
ALL_MOVES: tuple[Move, ...] = (
    tuple(m for row in PLAYS for m in row if m is not None) + tuple(STACKS.values()) + (Draw(), EndTurn(), Pass())
)

# ----------------------------------------------------------------------------
# Strategies


#: A preset or any valid RuleSet (the public strategies, so our tests exercise them too).
any_rules = presets() | rulesets()
seeds = st.integers(0, 2**64 - 1)


_KINDS = {"H": "hands", "W": "wastes", "R": "reserves"}


def cards(spec: CardsSpec) -> tuple[Card, ...]:
    """The cards of ``spec``, bottom to top: ``cards("AH0 2H0") == (AH0, 2H0)``."""
    if isinstance(spec, str):
        return tuple(parse_card(t) for t in spec.replace(",", " ").split())
    return tuple(c if isinstance(c, Card) else parse_card(c) for c in spec)


def card(text: str) -> Card:
    """One card from its notation."""
    return parse_card(text)


def run(suit_deck: str, low: int, high: int) -> str:
    """The cards of one suit and deck from rank ``low`` up to ``high``.

    ``run("H0", 1, 4) == "AH0 2H0 3H0 4H0"``.
    """
    suit, deck = suit_deck[0], int(suit_deck[1])
    return " ".join(str(Card(r, suit, deck)) for r in range(low, high + 1))


def _group(spec: GroupSpec | None, size: int, name: str) -> dict[int, tuple[Card, ...]]:
    if spec is None:
        return {}
    if isinstance(spec, Mapping):
        items = dict(spec)
    else:
        items = dict(enumerate(spec))
    for index in items:
        if not 0 <= index < size:
            raise ValueError(f"{name} has piles 0 to {size - 1}, got {index}")
    return {index: cards(pile) for index, pile in items.items()}


def make_state(
    rules: RuleSet | str = "casual",
    *,
    foundations: GroupSpec | None = None,
    tableau: GroupSpec | None = None,
    reserves: GroupSpec | None = None,
    hands: GroupSpec | None = None,
    wastes: GroupSpec | None = None,
    rest: str | Mapping[int, str] = "H",
    current_player: int = 0,
    move_count: int = 0,
    drawn: bool = False,
    passes: int = 0,
    exhausted: tuple[bool, bool] = (False, False),
    played: tuple[bool, bool] = (False, False),
) -> GameState:
    """A validated state with the given piles; the cards not given are placed by ``rest``.

    Each group is a list (pile 0, 1, ...) or a dict {index: pile}; each pile is
    bottom to top. ``rest`` says where the cards of player p's deck that no
    pile mentions go: ``"H"`` (the bottom of p's hand, the default), ``"W"``
    (the bottom of p's waste) or ``"R"`` (the bottom of p's reserve); a dict
    {player: kind} sets it per player. Leftovers lie in the order of ALL_CARDS.
    """
    if isinstance(rules, str):
        rules = RuleSet.from_name(rules)
    groups = {
        "foundations": _group(foundations, 8, "foundations"),
        "tableau": _group(tableau, 8, "tableau"),
        "reserves": _group(reserves, 2, "reserves"),
        "hands": _group(hands, 2, "hands"),
        "wastes": _group(wastes, 2, "wastes"),
    }
    placed = {c for group in groups.values() for pile in group.values() for c in pile}
    where = {0: rest, 1: rest} if isinstance(rest, str) else dict(rest)
    for player in (0, 1):
        kind = _KINDS[where.get(player, "H")]
        leftovers = tuple(c for c in ALL_CARDS if c.deck == player and c not in placed)
        groups[kind][player] = leftovers + groups[kind].get(player, ())
    sizes = {"foundations": 8, "tableau": 8, "reserves": 2, "hands": 2, "wastes": 2}
    piles = {
        name: [groups[name].get(i, ()) for i in range(size)] for name, size in sizes.items()
    }
    return GameState.from_piles(
        rules,
        foundations=piles["foundations"],
        tableau=piles["tableau"],
        reserves=piles["reserves"],
        hands=piles["hands"],
        wastes=piles["wastes"],
        current_player=current_player,
        move_count=move_count,
        drawn=drawn,
        passes=passes,
        exhausted=exhausted,
        played=played,
    )


def play_random(state: GameState, moves: int, rng: random.Random) -> list[GameState]:
    """``state`` and the states after each of up to ``moves`` legal moves chosen by ``rng``.

    Play stops early when the game is over (it has no legal move).
    """
    states = [state]
    for _ in range(moves):
        legal = legal_moves(state)
        if not legal:
            break
        state = apply_move(state, rng.choice(legal))
        states.append(state)
    return states


def random_states(rules: RuleSet | str, seed: int, moves: int) -> list[GameState]:
    """The states of a game dealt with ``seed``, played at random (choices seeded by ``seed`` too)."""
    return play_random(new_game(rules, seed), moves, random.Random(seed))


def forget(state: GameState) -> GameState:
    """``state`` remembering nothing: the same piles and counters, built from its fields alone."""
    return GameState(state.rules, state.piles, state.current_player, state.move_count,
                     state.drawn, state.passes, state.exhausted, state.played, state.counters)


def permute_unseen(state: GameState, rng: random.Random) -> GameState:
    """The same game with the cards nobody has seen in another order, remembering what ``state`` does.

    Only never-seen cards move: those of a hand not formed by a turnover and
    of a reserve below its known top cards. Followed from the deal (or under
    rules that do not load both reserves and wastes), each player's
    never-seen cards are their own and are shuffled among that player's
    slots; otherwise both players' are shuffled together.
    """
    piles = list(state.piles)
    slots = {
        p: (len(piles[16 + p]) - min(1, len(piles[16 + p])) - state.reserve_known[p],
            0 if state.hand_known[p] else len(piles[18 + p]))
        for p in (0, 1)
    }

    def hidden(p: int) -> list[Card]:
        below, hand = slots[p]
        return list(piles[16 + p][:below]) + list(piles[18 + p][:hand])

    def deal(p: int, cards: list[Card]) -> None:
        below, hand = slots[p]
        piles[16 + p] = tuple(cards[:below]) + piles[16 + p][below:]
        if hand:
            piles[18 + p] = tuple(cards[below : below + hand])

    if not state.from_deal and len(state.rules.load_targets) == 2:
        pool = hidden(0) + hidden(1)
        rng.shuffle(pool)
        split = sum(slots[0])
        deal(0, pool[:split])
        deal(1, pool[split:])
    else:
        for p in (0, 1):
            cards = hidden(p)
            rng.shuffle(cards)
            deal(p, cards)
    return attrs.evolve(state, piles=tuple(piles))


def draw_or_end(state: GameState) -> Move:
    """Draw, end the turn or pass when legal, else the first legal move."""
    moves = legal_moves(state)
    return next((m for m in moves if isinstance(m, (Draw, EndTurn, Pass))), moves[0])


def turned_over(rules: RuleSet | str, seed: int) -> tuple[GameState, GameState]:
    """(the state just before player 0's first turnover of the waste, the state just after it)."""
    state = new_game(rules, seed=seed)
    while True:
        move = draw_or_end(state)
        after = apply_move(state, move)
        if isinstance(move, Draw) and state.current_player == 0 and not state.hands[0]:
            return state, after
        state = after


def moves_text(state: GameState) -> list[str]:
    """The legal moves of ``state`` in notation, in order."""
    return [str(m) for m in legal_moves(state)]


def play(state: GameState, *moves: str) -> GameState:
    """Apply moves given in notation, one after another."""
    for text in moves:
        state = apply_move(state, parse_move(text))
    return state


# The games of examples/games ---------------------------------------------------------------------

#: The folder of the example games; their tests put it on ``sys.path``, as running one as a script does.
GAMES = Path(__file__).resolve().parent.parent / "examples" / "games"
sys.path.insert(0, str(GAMES))


def deck_cards(text: str) -> tuple[Card, ...]:
    """Cards of one 52-card deck written as the example games write them, separated by spaces."""
    from crapette import gamekit

    return tuple(gamekit.parse_one_deck_card(t) for t in text.split())


def run_game(main: Callable[..., int], argv: list[str], inputs: Iterable[str]) -> str:
    """Run an example game's ``main(argv, ask=..., out=...)`` on ``inputs`` (EOF after the last) and return what it wrote."""
    out = io.StringIO()
    lines = iter(inputs)

    def ask(prompt: str) -> str:
        out.write(prompt)
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    assert main(argv, ask=ask, out=out) == 0
    return out.getvalue()
