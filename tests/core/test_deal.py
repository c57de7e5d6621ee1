"""Golden deals (ruling R2): the same seed deals the same cards in every release.

The expected piles below were generated once and frozen. If one of these tests
fails, the shuffle or the deal changed, and every recorded game with it: that
is a breaking change.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from crapette import ALL_CARDS, ParseError, RuleSet, new_game, shuffled_deck

from conftest import cards


class Deal(NamedTuple):
    first: int
    #: Each reserve bottom to top (the last card is face up).
    reserves: tuple[str, str]
    #: The card dealt to each tableau pile, T0 to T7.
    tableau: str
    #: Each hand bottom to top (the last card is drawn first).
    hands: tuple[str, str]


GOLDEN: dict[tuple[int, str], Deal] = {
    (0, 'casual'): Deal(
        first=0,
        reserves=(
            '8S0 JH0 9C0 2S0 2D0 QD0 6S0 TC0 3D0 AC0 JC0 7C0',
            'AD1 2H1 AH1 7S1 4D1 KH1 AC1 5H1 TS1 JC1 2S1 4C1',
        ),
        tableau='9H0 8C0 QS0 KH0 6H1 4H1 6S1 8H1',
        hands=(
            'TH0 KC0 4H0 6D0 5S0 7H0 4C0 KS0 6H0 JS0 7D0 9S0 7S0 AS0 KD0 3C0 9D0 2H0 4D0 3S0 JD0 QC0 TS0 QH0 AD0 8D0 8H0 5D0 TD0 4S0 6C0 AH0 5C0 3H0 2C0 5H0',
            '7C1 QD1 3S1 QC1 6C1 KC1 5C1 JH1 7D1 6D1 8S1 5D1 TH1 JD1 2C1 3C1 TC1 AS1 2D1 8D1 3D1 KS1 9C1 JS1 8C1 9H1 9D1 4S1 QS1 3H1 7H1 TD1 9S1 QH1 5S1 KD1',
        ),
    ),
    (0, 'classic'): Deal(
        first=1,
        reserves=(
            '8S0 JH0 9C0 2S0 2D0 QD0 6S0 TC0 3D0 AC0 JC0 7C0 9H0',
            'AD1 2H1 AH1 7S1 4D1 KH1 AC1 5H1 TS1 JC1 2S1 4C1 6H1',
        ),
        tableau='8C0 QS0 KH0 5H0 4H1 6S1 8H1 KD1',
        hands=(
            'TH0 KC0 4H0 6D0 5S0 7H0 4C0 KS0 6H0 JS0 7D0 9S0 7S0 AS0 KD0 3C0 9D0 2H0 4D0 3S0 JD0 QC0 TS0 QH0 AD0 8D0 8H0 5D0 TD0 4S0 6C0 AH0 5C0 3H0 2C0',
            '7C1 QD1 3S1 QC1 6C1 KC1 5C1 JH1 7D1 6D1 8S1 5D1 TH1 JD1 2C1 3C1 TC1 AS1 2D1 8D1 3D1 KS1 9C1 JS1 8C1 9H1 9D1 4S1 QS1 3H1 7H1 TD1 9S1 QH1 5S1',
        ),
    ),
    (1, 'casual'): Deal(
        first=0,
        reserves=(
            '7D0 9C0 4D0 8H0 8D0 5S0 JD0 6D0 9S0 JC0 5D0 KD0',
            'QD1 8S1 5C1 TH1 5H1 7H1 AD1 6S1 9D1 2H1 KC1 QS1',
        ),
        tableau='3C0 2D0 JH0 5H0 JS1 9C1 4D1 7D1',
        hands=(
            '7S0 9H0 2S0 3H0 TC0 8C0 2H0 4C0 AC0 3S0 3D0 9D0 QD0 QH0 QS0 6H0 KS0 AH0 5C0 AS0 7C0 6C0 4S0 QC0 8S0 TD0 JS0 TS0 TH0 KH0 KC0 6S0 AD0 2C0 4H0 7H0',
            '5D1 KD1 TS1 7S1 6H1 8D1 JH1 5S1 6D1 4C1 KS1 3H1 4S1 3D1 9H1 TD1 QC1 6C1 3S1 3C1 8C1 JC1 KH1 QH1 AS1 2D1 7C1 JD1 2S1 9S1 2C1 4H1 AH1 AC1 8H1 TC1',
        ),
    ),
    (1, 'classic'): Deal(
        first=0,
        reserves=(
            '7D0 9C0 4D0 8H0 8D0 5S0 JD0 6D0 9S0 JC0 5D0 KD0 3C0',
            'QD1 8S1 5C1 TH1 5H1 7H1 AD1 6S1 9D1 2H1 KC1 QS1 JS1',
        ),
        tableau='2D0 JH0 5H0 7H0 9C1 4D1 7D1 TC1',
        hands=(
            '7S0 9H0 2S0 3H0 TC0 8C0 2H0 4C0 AC0 3S0 3D0 9D0 QD0 QH0 QS0 6H0 KS0 AH0 5C0 AS0 7C0 6C0 4S0 QC0 8S0 TD0 JS0 TS0 TH0 KH0 KC0 6S0 AD0 2C0 4H0',
            '5D1 KD1 TS1 7S1 6H1 8D1 JH1 5S1 6D1 4C1 KS1 3H1 4S1 3D1 9H1 TD1 QC1 6C1 3S1 3C1 8C1 JC1 KH1 QH1 AS1 2D1 7C1 JD1 2S1 9S1 2C1 4H1 AH1 AC1 8H1',
        ),
    ),
    (42, 'casual'): Deal(
        first=0,
        reserves=(
            '7C0 3H0 KC0 AS0 2S0 AC0 AH0 KD0 TD0 5C0 8S0 JH0',
            'JD1 TH1 2C1 3H1 JC1 7D1 8D1 4H1 KD1 5D1 KS1 QC1',
        ),
        tableau='2H0 4S0 6H0 5D0 6H1 TD1 9D1 AS1',
        hands=(
            'TC0 JC0 9C0 QH0 9H0 3C0 QC0 JD0 9D0 QS0 6C0 5H0 KH0 9S0 QD0 8D0 3S0 7S0 6S0 4C0 JS0 TH0 3D0 4H0 TS0 KS0 7H0 4D0 8C0 8H0 2C0 7D0 AD0 6D0 5S0 2D0',
            '7H1 8S1 QH1 6S1 2H1 4S1 AC1 JS1 6D1 9S1 7S1 7C1 5S1 AH1 4C1 AD1 3C1 KC1 5H1 JH1 QS1 KH1 2D1 9H1 TC1 8C1 9C1 QD1 TS1 4D1 6C1 8H1 3D1 5C1 2S1 3S1',
        ),
    ),
    (42, 'classic'): Deal(
        first=0,
        reserves=(
            '7C0 3H0 KC0 AS0 2S0 AC0 AH0 KD0 TD0 5C0 8S0 JH0 2H0',
            'JD1 TH1 2C1 3H1 JC1 7D1 8D1 4H1 KD1 5D1 KS1 QC1 6H1',
        ),
        tableau='4S0 6H0 5D0 2D0 TD1 9D1 AS1 3S1',
        hands=(
            'TC0 JC0 9C0 QH0 9H0 3C0 QC0 JD0 9D0 QS0 6C0 5H0 KH0 9S0 QD0 8D0 3S0 7S0 6S0 4C0 JS0 TH0 3D0 4H0 TS0 KS0 7H0 4D0 8C0 8H0 2C0 7D0 AD0 6D0 5S0',
            '7H1 8S1 QH1 6S1 2H1 4S1 AC1 JS1 6D1 9S1 7S1 7C1 5S1 AH1 4C1 AD1 3C1 KC1 5H1 JH1 QS1 KH1 2D1 9H1 TC1 8C1 9C1 QD1 TS1 4D1 6C1 8H1 3D1 5C1 2S1',
        ),
    ),
    (2**64 - 1, 'casual'): Deal(
        first=0,
        reserves=(
            'JC0 KS0 7S0 4C0 AD0 JH0 5D0 2H0 AH0 7D0 6D0 6S0',
            '7S1 2H1 2C1 KC1 9H1 JC1 9D1 TH1 8D1 2D1 KD1 6S1',
        ),
        tableau='4D0 AS0 4S0 7H0 AC1 4H1 3S1 5D1',
        hands=(
            '5C0 TC0 2C0 TS0 5H0 3C0 JS0 QC0 3H0 2S0 KD0 6C0 TH0 8C0 8H0 9D0 6H0 KC0 KH0 JD0 4H0 9C0 QS0 7C0 TD0 QD0 8S0 AC0 9S0 5S0 3S0 8D0 QH0 9H0 2D0 3D0',
            '4D1 3D1 6C1 3C1 5H1 4C1 8H1 7H1 7C1 QS1 AH1 JD1 TC1 6D1 3H1 8C1 7D1 KS1 5C1 QC1 2S1 JH1 KH1 AS1 TD1 9C1 6H1 QH1 8S1 QD1 AD1 TS1 JS1 4S1 9S1 5S1',
        ),
    ),
    (2**64 - 1, 'classic'): Deal(
        first=1,
        reserves=(
            'JC0 KS0 7S0 4C0 AD0 JH0 5D0 2H0 AH0 7D0 6D0 6S0 4D0',
            '7S1 2H1 2C1 KC1 9H1 JC1 9D1 TH1 8D1 2D1 KD1 6S1 AC1',
        ),
        tableau='AS0 4S0 7H0 3D0 4H1 3S1 5D1 5S1',
        hands=(
            '5C0 TC0 2C0 TS0 5H0 3C0 JS0 QC0 3H0 2S0 KD0 6C0 TH0 8C0 8H0 9D0 6H0 KC0 KH0 JD0 4H0 9C0 QS0 7C0 TD0 QD0 8S0 AC0 9S0 5S0 3S0 8D0 QH0 9H0 2D0',
            '4D1 3D1 6C1 3C1 5H1 4C1 8H1 7H1 7C1 QS1 AH1 JD1 TC1 6D1 3H1 8C1 7D1 KS1 5C1 QC1 2S1 JH1 KH1 AS1 TD1 9C1 6H1 QH1 8S1 QD1 AD1 TS1 JS1 4S1 9S1',
        ),
    ),
}


@pytest.mark.parametrize(("seed", "preset"), sorted(GOLDEN))
def test_golden_deal(seed: int, preset: str) -> None:
    expected = GOLDEN[seed, preset]
    state = new_game(RuleSet.from_name(preset), seed)
    assert state.current_player == expected.first
    assert state.reserves == (cards(expected.reserves[0]), cards(expected.reserves[1]))
    assert tuple(pile for pile in state.tableau) == tuple((c,) for c in cards(expected.tableau))
    assert state.hands == (cards(expected.hands[0]), cards(expected.hands[1]))
    assert state.foundations == ((),) * 8 and state.wastes == ((), ())


@pytest.mark.parametrize(("seed", "preset"), sorted(GOLDEN))
def test_golden_deal_is_the_shuffled_deck_dealt_in_order(seed: int, preset: str) -> None:
    expected = GOLDEN[seed, preset]
    for p in (0, 1):
        dealt = cards(expected.reserves[p]) + cards(expected.tableau)[4 * p : 4 * p + 4] + cards(expected.hands[p])[::-1]
        assert dealt == shuffled_deck(seed, p)


def test_golden_shuffle_prefixes() -> None:
    assert [str(c) for c in shuffled_deck(0, 0)[:6]] == ["8S0", "JH0", "9C0", "2S0", "2D0", "QD0"]
    assert [str(c) for c in shuffled_deck(0, 1)[:6]] == ["AD1", "2H1", "AH1", "7S1", "4D1", "KH1"]
    assert [str(c) for c in shuffled_deck(2**64 - 1, 1)[-3:]] == ["6C1", "3D1", "4D1"]


@pytest.mark.parametrize("seed", [0, 1, 7, 42, 2**32, 2**64 - 1])
def test_shuffled_deck_is_a_permutation_of_the_players_deck(seed: int) -> None:
    for deck in (0, 1):
        shuffled = shuffled_deck(seed, deck)
        assert len(shuffled) == 52
        assert sorted(shuffled, key=lambda c: c.index) == list(ALL_CARDS[52 * deck : 52 * deck + 52])
    assert shuffled_deck(seed, 0) == shuffled_deck(seed, 0)


def test_different_seeds_deal_differently() -> None:
    decks = {shuffled_deck(seed, 0) for seed in range(50)}
    assert len(decks) == 50
    assert shuffled_deck(3, 0) != tuple(c for c in ALL_CARDS[:52])


@pytest.mark.parametrize("seed", [-1, 2**64, 1.0, "1", True, None, 10**30])
def test_bad_seeds_raise_value_error(seed: Any) -> None:
    with pytest.raises(ValueError, match="seed must be an int with 0 <= seed < 2\\*\\*64"):
        shuffled_deck(seed, 0)
    with pytest.raises(ValueError, match="seed must be an int"):
        new_game(RuleSet.casual(), seed)


@pytest.mark.parametrize("deck", [2, -1, "0", True])
def test_bad_deck_raises_value_error(deck: Any) -> None:
    with pytest.raises(ValueError, match="deck must be 0 or 1"):
        shuffled_deck(0, deck)


def test_new_game_takes_a_preset_name_and_rejects_other_rules() -> None:
    assert new_game("classic", 42) == new_game(RuleSet.classic(), 42)
    assert new_game(" Casual ", 42) == new_game(RuleSet.casual(), 42)
    with pytest.raises(ParseError, match="unknown preset 'blitz'"):
        new_game("blitz", 0)
    assert new_game("classic(move_limit=80)", 3).rules.move_limit == 80
    with pytest.raises(TypeError, match="rules must be a RuleSet or a rules text"):
        new_game(5, 0)  # type: ignore[arg-type]
