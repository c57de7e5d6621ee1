"""The observation encoding: its pinned layout, what it shows, and that it hides the face-down cards."""

from __future__ import annotations

import random
import re
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="crapette.observation needs NumPy (pip install numpy)")

from conftest import examples, make_state, random_states  # noqa: E402
from conftest import permute_unseen  # noqa: E402

from crapette import (  # noqa: E402
    ALL_CARDS,
    NUM_ACTIONS,
    EndReason,
    GameState,
    Outcome,
    PublicView,
    RuleSet,
    legal_action_mask,
    legal_moves,
    new_game,
    view,
)
from crapette.observation import (  # noqa: E402
    FIELDS,
    HIGH,
    LOW,
    OBSERVATION_SHAPE,
    OBSERVATION_SIZE,
    OBSERVATION_VERSION,
    action_mask,
    encode,
)
from crapette.episode import forfeit, rewards, score_scale  # noqa: E402
from crapette.protocol import Crapette  # noqa: E402
from crapette.strategies import game_states  # noqa: E402

PILES = [f"F{i}" for i in range(8)] + [f"T{i}" for i in range(8)] + ["R0", "R1", "W0", "W1"]


# What each scalar field is divided by (counters are squashed instead).
SCALES = {"passes": 2, "reserve_sizes": 104, "hand_sizes": 104, "waste_sizes": 104, "move_count": 1000}


def unsquash(x: float) -> int:
    """The count c that 0.5 + c / (2 (|c| + 1)) turned into x."""
    y = 2 * x - 1
    return round(y / (1 - abs(y)))


def decode(obs: np.ndarray) -> dict[str, object]:
    """Read an observation back: every face-up pile (bottom to top) and every other field, as counts."""
    piles = {}
    for name in PILES:
        row = obs[FIELDS[name]]
        held = sorted((round(1 / float(row[card.index])), card) for card in ALL_CARDS if row[card.index])
        depths = [depth for depth, _card in held]
        assert depths == list(range(1, len(held) + 1)), f"{name} holds positions {depths}"
        piles[name] = tuple(card for _depth, card in reversed(held))
    fields: dict[str, object] = {}
    for name, s in FIELDS.items():
        if name in PILES:
            continue
        if name == "counters":
            fields[name] = [unsquash(float(x)) for x in obs[s]]
        elif name == "moves_left":
            fields[name] = [float(x) for x in obs[s]]
        else:
            fields[name] = [round(float(x) * SCALES.get(name, 1)) for x in obs[s]]
    return {**piles, **fields}


def expected(v: PublicView, player: int) -> dict[str, object]:
    """What decode() must give for the view ``v`` seen by ``player``."""
    limit = v.rules.move_limit
    counters = list(v.counters)
    return {
        **{f"F{i}": pile for i, pile in enumerate(v.foundations)},
        **{f"T{i}": pile for i, pile in enumerate(v.tableau)},
        "R0": () if v.reserve_tops[0] is None else (v.reserve_tops[0],),
        "R1": () if v.reserve_tops[1] is None else (v.reserve_tops[1],),
        "W0": v.wastes[0],
        "W1": v.wastes[1],
        "observer": [int(player == 0), int(player == 1)],
        "current_player": [int(v.current_player == 0), int(v.current_player == 1)],
        "drawn": [int(v.drawn)],
        "passes": [v.passes],
        "exhausted": [int(x) for x in v.exhausted],
        "played": [int(x) for x in v.played],
        "reserve_sizes": list(v.reserve_sizes),
        "hand_sizes": list(v.hand_sizes),
        "waste_sizes": [len(w) for w in v.wastes],
        "move_count": [min(v.move_count, 1000)],
        "has_move_limit": [int(limit is not None)],
        "moves_left": [0.0 if limit is None else float(np.float32(max(limit - v.move_count, 0) / limit))],
        "counters": counters + [0] * (4 - len(counters)),
        "is_over": [int(v.is_over)],
    }


# The pinned layout ---------------------------------------------------------------------


def test_layout_is_pinned() -> None:
    assert OBSERVATION_VERSION == 2
    assert OBSERVATION_SIZE == 2104 and OBSERVATION_SHAPE == (2104,)
    rows = [(name, 104 * i, 104 * (i + 1)) for i, name in enumerate(PILES)]
    scalars = [
        ("observer", 2080, 2082),
        ("current_player", 2082, 2084),
        ("drawn", 2084, 2085),
        ("passes", 2085, 2086),
        ("exhausted", 2086, 2088),
        ("played", 2088, 2090),
        ("reserve_sizes", 2090, 2092),
        ("hand_sizes", 2092, 2094),
        ("waste_sizes", 2094, 2096),
        ("move_count", 2096, 2097),
        ("has_move_limit", 2097, 2098),
        ("moves_left", 2098, 2099),
        ("counters", 2099, 2103),
        ("is_over", 2103, 2104),
    ]
    assert [(name, s.start, s.stop) for name, s in FIELDS.items()] == rows + scalars


def test_the_documented_table_is_the_layout() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "rl.rst").read_text(encoding="utf-8")
    rows = re.findall(r"^(``\w+``(?:(?: \.\.\. |, )``\w+``)?) +(\d+)(?: - (\d+))? ", text, flags=re.MULTILINE)
    documented = {}
    for names, first, last in rows:
        found = re.findall(r"``(\w+)``", names)
        if " ... " in names:
            prefix = found[0][0]
            found = [f"{prefix}{i}" for i in range(int(found[0][1:]), int(found[1][1:]) + 1)]
        documented[tuple(found)] = (int(first), int(last or first) + 1)
    actual = {}
    for names in documented:
        slices = [FIELDS[name] for name in names]
        actual[names] = (slices[0].start, slices[-1].stop)
    assert documented == actual
    assert sorted(name for names in documented for name in names) == sorted(FIELDS)


def test_bounds_are_pinned_and_read_only() -> None:
    assert LOW.shape == HIGH.shape == OBSERVATION_SHAPE
    assert LOW.dtype == HIGH.dtype == np.float32
    assert (LOW == 0).all() and (HIGH == 1).all()
    with pytest.raises(ValueError):
        HIGH[0] = 5


def test_every_feature_lies_between_0_and_1() -> None:
    # Long games, full wastes, a move limit and counters of all sizes: never outside [0, 1].
    for rules in ("casual", "classic", "classic(endings=no-progress:3)"):
        for state in random_states(rules, 5, 3000)[::50]:
            for player in (0, 1):
                obs = encode(state, player)
                assert obs.min() >= 0 and obs.max() <= 1
    v = view(new_game("casual", seed=3))
    extreme = encode(attrs.evolve(v, counters=(10**9, -(10**9)), move_count=10**7), 0)
    assert ((extreme >= 0) & (extreme <= 1)).all()


def test_golden_encoding_of_a_deal() -> None:
    # classic deal 1: player 0 to move; T0-T7 hold 2D0 JH0 5H0 7H0 | 9C1 4D1 7D1 TC1; R0 3C0, R1 JS1.
    obs = encode(new_game("classic", seed=1), player=1)
    nonzero = {int(i): float(obs[i]) for i in np.flatnonzero(obs)}
    assert nonzero == {
        832 + 14: 1.0,  # T0: 2D0
        936 + 36: 1.0,  # T1: JH0
        1040 + 30: 1.0,  # T2: 5H0
        1144 + 32: 1.0,  # T3: 7H0
        1248 + 52 + 8: 1.0,  # T4: 9C1
        1352 + 52 + 16: 1.0,  # T5: 4D1
        1456 + 52 + 19: 1.0,  # T6: 7D1
        1560 + 52 + 9: 1.0,  # T7: TC1
        1664 + 2: 1.0,  # R0: 3C0
        1768 + 52 + 49: 1.0,  # R1: JS1
        2081: 1.0,  # observer: player 1
        2082: 1.0,  # current player: player 0
        2090: np.float32(13 / 104),  # reserve sizes, over 104
        2091: np.float32(13 / 104),
        2092: np.float32(35 / 104),  # hand sizes
        2093: np.float32(35 / 104),
        2099: 0.5,  # the four counters: a count of 0 (none kept) squashes to 0.5
        2100: 0.5,
        2101: 0.5,
        2102: 0.5,
    }


def test_card_rows_count_positions_from_the_top() -> None:
    state = make_state(
        "classic",
        tableau={3: "KS1 QH0 JC0"},
        foundations={5: "AD1 2D0"},
        reserves={0: "9H0 4S1"},
        wastes={1: "8C1 3H0"},
        rest={0: "H", 1: "H"},
    )
    obs = encode(state, player=0)
    card = {str(c): c.index for c in ALL_CARDS}
    t3, f5, r0, w1 = (obs[FIELDS[name]] for name in ("T3", "F5", "R0", "W1"))
    assert (t3[card["KS1"]], t3[card["QH0"]], t3[card["JC0"]]) == (np.float32(1 / 3), 0.5, 1)
    assert (f5[card["AD1"]], f5[card["2D0"]]) == (0.5, 1)
    assert (r0[card["4S1"]], r0[card["9H0"]]) == (1, 0)  # only the top of a reserve shows
    assert (w1[card["8C1"]], w1[card["3H0"]]) == (0.5, 1)
    assert obs[FIELDS["reserve_sizes"]].tolist() == [np.float32(2 / 104), 0]
    assert obs[FIELDS["waste_sizes"]].tolist() == [0, np.float32(2 / 104)]


# What it shows ------------------------------------------------------------------------


@settings(max_examples=examples(1))
@given(game_states(max_moves=300), st.sampled_from([0, 1]))
def test_encoding_gives_back_exactly_the_view(state: GameState, player: int) -> None:
    v = view(state)
    obs = encode(v, player)
    assert obs.shape == OBSERVATION_SHAPE and obs.dtype == np.float32
    assert decode(obs) == expected(v, player)
    assert ((LOW <= obs) & (obs <= HIGH)).all()


def test_encoding_a_state_is_encoding_its_view() -> None:
    for rules in ("casual", "classic"):
        for state in random_states(rules, 4, 1500)[::7]:
            for player in (0, 1):
                assert np.array_equal(encode(state, player), encode(view(state), player))


def test_move_limit_fields() -> None:
    state = random_states("casual", 2, 30)[-1]
    obs = encode(state, 0)
    assert obs[FIELDS["move_count"]].tolist() == [np.float32(30 / 1000)]
    assert obs[FIELDS["has_move_limit"]].tolist() == [1]
    assert obs[FIELDS["moves_left"]].tolist() == [np.float32(970 / 1000)]
    classic = encode(random_states("classic", 2, 30)[-1], 0)
    assert classic[FIELDS["has_move_limit"]].tolist() == [0] and classic[FIELDS["moves_left"]].tolist() == [0]


def test_a_finished_game_is_over_and_has_no_legal_action() -> None:
    final = random_states("casual", 0, 3000)[-1]
    assert final.is_over
    assert encode(final, 0)[FIELDS["is_over"]].tolist() == [1]
    assert not action_mask(final).any() and not action_mask(view(final)).any()


def test_counters_of_the_rules_own_endings() -> None:
    v = view(new_game("casual", seed=3))
    obs = encode(attrs.evolve(v, counters=(7, -2)), 0)
    # 0.5 + c / (2 (|c| + 1)): 7 -> 0.9375, -2 -> 1/6, none -> 0.5
    assert obs[FIELDS["counters"]].tolist() == [0.9375, np.float32(1 / 6), 0.5, 0.5]
    with pytest.raises(ValueError, match="at most 4"):
        encode(attrs.evolve(v, counters=(1, 2, 3, 4, 5)), 0)


# What it hides ------------------------------------------------------------------------


def test_face_down_cards_never_change_the_encoding() -> None:
    rng = random.Random(11)
    for rules in ("casual", "classic"):
        for state in random_states(rules, 6, 1200)[::15]:
            other = permute_unseen(state, rng)
            for player in (0, 1):
                assert np.array_equal(encode(other, player), encode(state, player))
                assert np.array_equal(encode(view(other), player), encode(view(state), player))
            assert np.array_equal(action_mask(other), action_mask(state))


@settings(max_examples=examples(1))
@given(game_states(max_moves=300), st.randoms(use_true_random=False))
def test_face_down_cards_never_change_the_encoding_property(state: GameState, rng: random.Random) -> None:
    other = permute_unseen(state, rng)
    assert np.array_equal(encode(other, 0), encode(state, 0))


def test_no_face_down_card_appears_in_a_row() -> None:
    for state in random_states("classic", 9, 800)[::40]:
        obs = encode(state, 0)
        hidden = [c for p in (0, 1) for c in (*state.hands[p], *state.reserves[p][:-1])]
        for card in hidden:
            assert not obs[card.index : FIELDS["observer"].start : 104].any(), card


# Arrays, arguments, masks, rewards -------------------------------------------------------


def test_every_call_returns_a_new_writable_array() -> None:
    state = random_states("classic", 1, 120)[-1]
    first = encode(state, 0)
    first[:] = -1
    second = encode(state, 0)
    assert np.array_equal(second, encode(view(state), 0)) and (second != -1).any()
    mask = action_mask(state)
    mask[:] = 0
    assert action_mask(state).sum() == len(legal_moves(state))


def test_a_full_row_cache_is_emptied_without_changing_results(monkeypatch: pytest.MonkeyPatch) -> None:
    import crapette.observation as observation

    states = random_states("classic", 5, 300)
    before = [encode(s, 0) for s in states]
    observation._row_cache.clear()
    monkeypatch.setattr(observation, "_ROW_CACHE_LIMIT", 8)
    after = [encode(s, 0) for s in states]
    assert len(observation._row_cache) <= 8
    assert all(np.array_equal(a, b) for a, b in zip(before, after))


def test_players_are_checked() -> None:
    state = new_game("casual", seed=1)
    assert np.array_equal(encode(state, np.int64(1)), encode(state, 1))
    for bad in ("0", True, 0.0, None):
        with pytest.raises(TypeError, match="player"):
            encode(state, bad)  # type: ignore[arg-type]
    for bad in (2, -1):
        with pytest.raises(ValueError, match="player must be 0 or 1"):
            encode(state, bad)
    with pytest.raises(TypeError, match="PublicView or a GameState"):
        encode(str(state), 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="PublicView or a GameState"):
        action_mask([])  # type: ignore[arg-type]


def test_action_mask_is_legal_action_mask_as_an_array() -> None:
    for rules in ("casual", "classic"):
        for state in random_states(rules, 3, 600)[::9]:
            mask = action_mask(state)
            assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.int8
            assert mask.tolist() == [int(b) for b in legal_action_mask(state)]
            assert np.array_equal(action_mask(view(state)), mask)


def test_rewards_are_win_loss_by_default() -> None:
    assert rewards(Outcome(winner=0, reason=EndReason.EMPTIED, scores=(61, 0))) == (1.0, -1.0)
    assert rewards(Outcome(winner=1, reason=EndReason.STALEMATE, scores=(0, 4))) == (-1.0, 1.0)
    assert rewards(Outcome(winner=None, reason=EndReason.STALEMATE, scores=(0, 0))) == (0.0, 0.0)
    assert rewards(Outcome(winner=1, reason=EndReason.EMPTIED)) == (-1.0, 1.0)
    assert rewards(Outcome(winner=None, reason=EndReason.MOVE_LIMIT)) == (0.0, 0.0)
    assert all(str(r) == "0.0" for r in rewards(Outcome(winner=None, reason=EndReason.BLOCKED)))
    with pytest.raises(TypeError, match="Outcome"):
        rewards(None)  # type: ignore[arg-type]


def test_points_rewards_are_crapettes_payoff() -> None:

    for outcome in (
        Outcome(winner=0, reason=EndReason.EMPTIED, scores=(61, 0)),
        Outcome(winner=1, reason=EndReason.STALEMATE, scores=(0, 4)),
        Outcome(winner=1, reason=EndReason.EMPTIED),
    ):
        assert rewards(outcome, "points") == Crapette.game_type.payoff(outcome)
    assert rewards(Outcome(winner=0, reason=EndReason.EMPTIED, scores=(61, 0)), "points") == (61.0, -61.0)


def test_score_rewards_are_scaled_into_minus_one_to_one() -> None:
    classic = RuleSet.classic()
    assert score_scale(classic) == 446.0 and score_scale(RuleSet.casual()) == 1.0
    won = Outcome(winner=0, reason=EndReason.EMPTIED, scores=(61, 0))
    assert rewards(won, "score", rules=classic) == (61 / 446, -61 / 446)
    # Without scoring the outcome has no points: "score" is "win".
    assert rewards(Outcome(winner=1, reason=EndReason.EMPTIED), "score", rules=RuleSet.casual()) == (-1.0, 1.0)
    for rules in (RuleSet.classic(), RuleSet.casual()):
        for seed in range(3):
            final = random_states(rules, seed, 5000)[-1]
            if final.outcome is not None:
                assert all(-1 <= r <= 1 for r in rewards(final.outcome, "score", rules=rules))
    with pytest.raises(ValueError, match="needs the rules"):
        rewards(won, "score")
    with pytest.raises(ValueError, match="rewards must be one of 'win', 'score', 'points'"):
        rewards(won, "wins")


def test_forfeit_is_the_worst_loss() -> None:
    assert forfeit(0) == (-1.0, 1.0) and forfeit(1, "score") == (1.0, -1.0)
    assert forfeit(0, "points", rules=RuleSet.classic()) == (-446.0, 446.0)
    with pytest.raises(ValueError, match="loser"):
        forfeit(2)


def test_a_truncated_game_is_settled_by_penalties() -> None:
    state = make_state(
        "classic",
        reserves={0: "9H0", 1: "4S1 5S1 6S1"},
        rest={0: "H", 1: "H"},
    )
    outcome = Crapette.cut_short(state)
    assert outcome.winner == 0 and outcome.scores is not None and outcome.scores[0] > 0
    assert rewards(outcome) == (1.0, -1.0)
    casual = Crapette.cut_short(new_game("casual", seed=1))
    assert casual.winner is None and rewards(casual) == (0.0, 0.0)


def test_rewards_of_played_games_add_up_to_zero() -> None:
    for rules in (RuleSet.casual(), RuleSet.classic()):
        for seed in range(3):
            final = random_states(rules, seed, 5000)[-1]
            if final.outcome is not None:
                r0, r1 = rewards(final.outcome)
                assert r0 + r1 == 0
                assert (r0 > 0) == (final.outcome.winner == 0)
