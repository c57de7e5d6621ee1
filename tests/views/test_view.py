"""The public view: hidden cards appear as counts only, and the JSON-ready dict."""

from __future__ import annotations

import json
import random

import attrs
import pytest

from conftest import draw_or_end, forget, permute_unseen, turned_over, random_states
from crapette import Card, GameState, PublicView, RuleSet, apply_move, legal_moves, new_game, parse_position, view
from crapette._views.view import determinize


def reshuffle_hidden(state: GameState, rng: random.Random) -> GameState:
    """The same game with the cards nobody has seen reordered (see conftest.permute_unseen)."""
    return permute_unseen(state, rng)


def reshuffle_face_down(state: GameState, rng: random.Random) -> GameState:
    """The same position built from its fields, every face-down card reordered (hands, reserves below their tops)."""
    piles = list(state.piles)
    for player in (0, 1):
        hand = list(piles[18 + player])
        rng.shuffle(hand)
        piles[18 + player] = tuple(hand)
        reserve = piles[16 + player]
        if len(reserve) > 1:
            below = list(reserve[:-1])
            rng.shuffle(below)
            piles[16 + player] = (*below, reserve[-1])
    return attrs.evolve(state, piles=tuple(piles))


def never_seen(state: GameState) -> set[Card]:
    """The cards of ``state`` that nobody has seen, by following the game (not by looking at the view)."""
    v = view(state)
    hidden = set()
    for p in (0, 1):
        if v.known_hands[p] is None:
            hidden.update(state.hands[p])
        hidden.update(state.reserves[p][: len(state.reserves[p]) - len(v.known_reserve_cards[p])])
    return hidden


def test_view_shows_reserve_tops_and_counts_of_hidden_piles() -> None:
    state = new_game("classic", seed=4)
    v = view(state)
    assert v.reserve_tops == (state.reserves[0][-1], state.reserves[1][-1])
    assert v.reserve_sizes == (13, 13)
    assert v.hand_sizes == (35, 35)
    assert v.foundations == state.foundations
    assert v.tableau == state.tableau
    assert v.wastes == state.wastes


def test_view_holds_no_hidden_card() -> None:
    # A state that remembers nothing: every face-down card but the reserve tops is hidden.
    for state in random_states("classic", 1, 400)[::25]:
        state = forget(state)
        v = view(state)
        shown = {c for piles in (v.foundations, v.tableau, v.wastes) for pile in piles for c in pile}
        shown |= {c for c in v.reserve_tops if c is not None}
        hidden = {c for p in (0, 1) for c in state.hands[p]} | {c for p in (0, 1) for c in state.reserves[p][:-1]}
        assert not shown & hidden
        text = json.dumps(v.to_dict())
        assert not any(f'"{c}"' in text for c in hidden)


def test_view_holds_no_never_seen_card() -> None:
    checked = 0
    for rules in ("casual", "classic"):
        for state in random_states(rules, 1, 3000)[::50]:
            hidden = never_seen(state)
            checked += bool(hidden)
            text = json.dumps(view(state).to_dict())
            assert not any(f'"{c}"' in text for c in hidden)
    assert checked > 20


def test_view_is_the_same_whatever_the_order_of_hidden_cards() -> None:
    rng = random.Random(3)
    for rules in ("casual", "classic"):
        for state in random_states(rules, 2, 300)[::20]:
            state = forget(state)
            other = reshuffle_face_down(state, rng)
            assert view(other) == view(state)
            assert view(other).to_dict() == view(state).to_dict()


def test_view_is_the_same_whatever_the_order_of_never_seen_cards() -> None:
    rng = random.Random(3)
    moved = 0
    for rules in ("casual", "classic"):
        for state in random_states(rules, 2, 3000)[::40]:
            other = reshuffle_hidden(state, rng)
            moved += other.piles != state.piles
            assert view(other) == view(state)
            assert hash(view(other)) == hash(view(state))
            assert view(other).to_dict() == view(state).to_dict()
    assert moved > 20


def test_legal_moves_depend_only_on_public_information() -> None:
    rng = random.Random(8)
    for rules in ("casual", "classic"):
        for state in random_states(rules, 5, 600)[::10]:
            assert legal_moves(reshuffle_hidden(state, rng)) == legal_moves(state)


def test_view_carries_rules_player_counters_outcome_and_legal_moves() -> None:
    state = random_states("casual", 0, 3000)[-1]
    v = view(state)
    assert v.rules == state.rules
    assert (v.current_player, v.move_count, v.drawn, v.passes) == (
        state.current_player,
        state.move_count,
        state.drawn,
        state.passes,
    )
    assert (v.exhausted, v.played) == (state.exhausted, state.played)
    assert v.outcome == state.outcome and v.is_over
    assert v.legal_moves == () == legal_moves(state)


def test_view_of_an_empty_reserve_has_no_top() -> None:
    final = next(s for s in random_states("casual", 7, 3000) if not s.reserves[0] or not s.reserves[1])
    v = view(final)
    for p in (0, 1):
        assert (v.reserve_tops[p] is None) == (not final.reserves[p])
        assert v.reserve_sizes[p] == len(final.reserves[p])


def test_view_is_frozen() -> None:
    v = view(new_game("casual", seed=1))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        v.current_player = 1  # type: ignore[misc]
    assert isinstance(v, PublicView)
    assert hash(v) == hash(view(new_game("casual", seed=1)))


def only_json_types(value: object) -> bool:
    if value is None or isinstance(value, (str, bool, int)):
        return True
    if isinstance(value, list):
        return all(only_json_types(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and only_json_types(v) for k, v in value.items())
    return False


def test_view_dict_holds_only_json_types_and_survives_json() -> None:
    for state in random_states("classic", 3, 2500)[::100]:
        d = view(state).to_dict()
        assert only_json_types(d)
        assert json.loads(json.dumps(d)) == d


def test_view_dict_follows_the_documented_schema() -> None:
    state = random_states("classic", 6, 5000)[-1]
    assert state.is_over
    d = view(state).to_dict()
    assert list(d) == [
        "format",
        "version",
        "rules",
        "options",
        "current_player",
        "move_count",
        "drawn",
        "passes",
        "exhausted",
        "played",
        "counters",
        "foundations",
        "tableau",
        "reserve_tops",
        "reserve_sizes",
        "hand_sizes",
        "wastes",
        "outcome",
        "is_over",
        "legal_moves",
        "known_hands",
        "known_reserve_cards",
        "from_deal",
        "turn_moves",
    ]
    assert d["format"] == "crapette-view" and d["version"] == 3 and d["turn_moves"] == []
    assert d["known_hands"] == [None if h is None else [str(c) for c in h] for h in view(state).known_hands]
    assert d["known_reserve_cards"] == [[str(c) for c in r] for r in view(state).known_reserve_cards]
    assert d["from_deal"] is True
    assert d["rules"] == "classic"
    assert d["options"]["load_targets"] == ["reserve", "waste"]
    assert d["options"]["scoring"] == "weighted:30:2:1:1:150"
    assert d["options"]["first_player"] == "lower-reserve" and d["options"]["endings"] == []
    assert d["counters"] == []
    assert d["options"]["move_limit"] is None
    assert len(d["foundations"]) == 8 and len(d["tableau"]) == 8 and len(d["wastes"]) == 2
    assert d["foundations"] == [[str(c) for c in f] for f in state.foundations]
    outcome = state.outcome
    assert outcome is not None and outcome.scores is not None
    assert d["outcome"] == {
        "winner": outcome.winner, "reason": outcome.reason.value, "scores": list(outcome.scores), "ending": None
    }
    assert d["is_over"] is True and d["legal_moves"] == []


def test_view_dict_of_casual_rules_has_no_scoring() -> None:
    d = view(new_game(RuleSet.casual(), seed=2)).to_dict()
    assert d["options"]["scoring"] is None
    assert d["options"]["opponent_tableau_build"] == "suit-up-or-down"
    assert d["outcome"] is None and d["is_over"] is False
    assert d["legal_moves"] == [str(m) for m in legal_moves(new_game(RuleSet.casual(), seed=2))]


def test_view_refuses_what_is_not_a_state() -> None:
    with pytest.raises(TypeError, match="GameState"):
        view("casual 0 0 -")  # type: ignore[arg-type]


# What a player with perfect memory knows ------------------------------------------


_turned_over = turned_over
_draw_or_end = draw_or_end


def test_view_shows_a_hand_formed_by_a_turnover_in_order() -> None:
    for rules in ("casual", "classic"):
        before, after = _turned_over(rules, 1)
        assert view(before).known_hands[0] == ()  # an empty hand is known
        known = view(after).known_hands[0]
        assert known is not None and len(known) == len(before.wastes[0]) - 1
        assert known == after.hands[0] == before.wastes[0][::-1][:-1]
        assert view(after).known_hands[1] in (None, after.hands[1])
        # The hand stays known while it shrinks by draws.
        state = after
        while state.hands[0] and state.current_player == 0:
            state = apply_move(state, _draw_or_end(state))
        assert view(state).known_hands[0] == state.hands[0]


def _loads(seed: int) -> list[tuple[GameState, GameState, int]]:
    """(state, state after, reserve owner) for each load onto a reserve in a random classic game."""
    states = random_states("classic", seed, 3000)
    found = []
    for before, after in zip(states, states[1:]):
        other = 1 - before.current_player
        if len(after.reserves[other]) == len(before.reserves[other]) + 1:
            found.append((before, after, other))
    return found


def test_view_keeps_a_card_loaded_onto_a_reserve_known_under_the_cards_that_cover_it() -> None:
    loads = [load for seed in range(6) for load in _loads(seed)]
    assert loads
    for before, after, owner in loads:
        had = len(view(before).known_reserve_cards[owner])
        known = view(after).known_reserve_cards[owner]
        assert len(known) == had + 1 and known == after.reserves[owner][-len(known) :]


def _ever_face_up(states: list[GameState]) -> list[set[Card]]:
    """Per state of a game followed from its deal, every card that was face up in it or before."""
    seen: set[Card] = set()
    out = []
    for state in states:
        for group in (state.foundations, state.tableau, state.wastes):
            for pile in group:
                seen.update(pile)
        seen.update(r[-1] for r in state.reserves if r)
        out.append(set(seen))
    return out


def test_view_knows_exactly_where_the_cards_ever_face_up_lie() -> None:
    # A reference model: a card nobody saw face up is never known, and every
    # card that was face up is still known where it lies.
    checked = 0
    for rules, seed in (("classic", 0), ("classic", 3), ("casual", 1)):
        states = random_states(rules, seed, 3000)
        for state, seen in list(zip(states, _ever_face_up(states)))[::7]:
            v = view(state)
            assert v.from_deal
            for p in (0, 1):
                hand = state.hands[p]
                assert (v.known_hands[p] is not None) == all(c in seen for c in hand)
                reserve = state.reserves[p]
                suffix = 0
                while suffix < len(reserve) and reserve[-1 - suffix] in seen:
                    suffix += 1
                assert v.known_reserve_cards[p] == reserve[len(reserve) - suffix :]
            checked += 1
    assert checked > 300


def test_view_of_a_reserve_play_keeps_the_known_cards_below_and_at_least_the_top() -> None:
    checked = 0
    for seed in range(6):
        states = random_states("classic", seed, 3000)
        for before, after in zip(states, states[1:]):
            p = before.current_player
            if len(after.reserves[p]) == len(before.reserves[p]) - 1:
                had = len(view(before).known_reserve_cards[p])
                left = len(after.reserves[p])
                assert len(view(after).known_reserve_cards[p]) == min(max(had - 1, 1), left)
                checked += had > 1
    assert checked


def test_view_of_a_state_built_from_its_fields_knows_what_the_fields_say() -> None:
    _, after = _turned_over("classic", 1)
    load = _loads(0)[0][1]
    for state in (after, load):
        memory = dict(hand_known=state.hand_known, reserve_known=state.reserve_known, from_deal=state.from_deal)
        for built in (
            parse_position(str(state)),
            GameState(state.rules, state.piles, state.current_player, state.move_count, state.drawn,
                      state.passes, state.exhausted, state.played, state.counters, **memory),
            GameState.from_piles(state.rules, foundations=state.foundations, tableau=state.tableau,
                                 reserves=state.reserves, hands=state.hands, wastes=state.wastes,
                                 current_player=state.current_player, move_count=state.move_count,
                                 drawn=state.drawn, passes=state.passes, exhausted=state.exhausted,
                                 played=state.played, **memory),
        ):
            assert built == state and view(built) == view(state)
        # Left out, the memory is empty: the view knows only what the piles show.
        blank = forget(state)
        v = view(blank)
        assert blank != state and not v.from_deal
        assert v.known_hands == tuple(() if not h else None for h in state.hands)
        assert v.known_reserve_cards == tuple(r[-1:] for r in state.reserves)
        assert v != view(state)


def test_view_equality_and_hash_see_what_is_known() -> None:
    _, after = _turned_over("casual", 1)
    known, forgot = view(after), view(forget(after))
    assert known != forgot and known.known_hands != forgot.known_hands
    assert len({known, forgot, view(after)}) == 2
    assert attrs.evolve(forgot, known_hands=known.known_hands, from_deal=True) == known


def test_a_pickled_state_keeps_what_is_known_and_an_old_pickle_knows_what_it_knew() -> None:
    import pickle

    from crapette._core import state as _state

    _, after = _turned_over("classic", 2)
    again = pickle.loads(pickle.dumps(after))
    assert again == after and view(again) == view(after)
    # A pickle of 0.2 named _raw_state with the nine fields of then, the outcome, the
    # engine's indexes and what the history made known (counts including the top).
    fields = tuple(getattr(after, name) for name in ("rules", "piles", "current_player", "move_count", "drawn",
                                                     "passes", "exhausted", "played", "counters"))
    old = _state._raw_state(*fields, after.outcome, None, None, None,
                            (*after.hand_known, after.reserve_known[0] + 1, after.reserve_known[1] + 1, True))
    assert old == after and view(old) == view(after)
    older = _state._restore(*fields, after.outcome)
    assert older == forget(after) and view(older).known_hands[0] is None and not view(older).from_deal


def test_determinize_keeps_the_known_cards_in_place_and_knows_what_the_view_knows() -> None:
    rng = random.Random(5)
    checked = 0
    for rules, seed in (("classic", 0), ("classic", 4), ("casual", 2)):
        for state in random_states(rules, seed, 3000)[::60]:
            v = view(state)
            world = determinize(v, rng)
            assert view(world) == v
            for p in (0, 1):
                if v.known_hands[p] is not None:
                    assert world.hands[p] == state.hands[p]
                known = len(v.known_reserve_cards[p])
                assert world.reserves[p][len(world.reserves[p]) - known :] == v.known_reserve_cards[p]
            checked += 1
    assert checked > 40


def test_determinize_of_a_game_followed_from_the_deal_gives_each_player_only_their_own_unseen_cards() -> None:
    rng = random.Random(1)
    for state in random_states("classic", 3, 2000)[::100]:
        v = view(state)
        assert v.from_deal
        for _ in range(3):
            world = determinize(v, rng)
            for p in (0, 1):
                assert all(c.deck == p for c in never_seen(world)
                           if c in world.hands[p] or c in world.reserves[p])
    # Remembering nothing, a classic position may hold either deck's cards face down.
    v = view(forget(new_game("classic", seed=3)))
    decks = {c.deck for _ in range(5) for c in determinize(v, rng).hands[0]}
    assert decks == {0, 1}


def test_determinize_depends_only_on_the_view_whatever_the_order_of_never_seen_cards() -> None:
    rng = random.Random(9)
    for state in random_states("classic", 6, 2000)[::100]:
        twin = reshuffle_hidden(state, rng)
        assert determinize(view(twin), random.Random(0)) == determinize(view(state), random.Random(0))
