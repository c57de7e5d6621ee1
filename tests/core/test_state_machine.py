"""A Hypothesis state machine that walks random games, undoes and replays them.

At every step it checks the invariants of the current state, that every
earlier state is unchanged, and that positions, game records (JSON and text)
and action numbers round-trip.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from crapette import (
    ALL_CARDS,
    GameRecord,
    GameState,
    IllegalMoveError,
    Move,
    NUM_ACTIONS,
    RuleSet,
    action_to_move,
    apply_move,
    explain_illegal,
    legal_action_mask,
    legal_moves,
    move_to_action,
    new_game,
    parse_position,
    parse_record,
    validate,
)
from crapette.strategies import moves, presets, rulesets
from crapette.testing import check_state

ALL_MOVES: tuple[Move, ...] = tuple(action_to_move(i) for i in range(NUM_ACTIONS))
SEEDS = st.integers(min_value=0, max_value=(1 << 64) - 1)


class GameWalk(RuleBasedStateMachine):
    """One game at a time: play, undo, start again; check everything after each step."""

    def __init__(self) -> None:
        super().__init__()
        self.seed = 0
        self.states: list[GameState] = []
        self.positions: list[str] = []
        self.moves: list[Move] = []

    @property
    def state(self) -> GameState:
        return self.states[-1]

    def _start(self, state: GameState, seed: int) -> None:
        self.seed = seed
        self.states = [state]
        self.positions = [str(state)]
        self.moves = []

    def _play(self, move: Move) -> None:
        before = self.state
        text = self.positions[-1]
        after = apply_move(before, move)
        assert str(before) == text, f"{move} changed the state it was applied to"
        assert after.move_count == before.move_count + 1
        self.states.append(after)
        self.positions.append(str(after))
        self.moves.append(move)

    @initialize(rules=presets() | rulesets(), seed=SEEDS)
    def deal(self, rules: RuleSet, seed: int) -> None:
        self._start(new_game(rules, seed), seed)

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def play_a_move(self, data: st.DataObject) -> None:
        self._play(data.draw(moves(self.state), label="move"))

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data(), count=st.integers(min_value=2, max_value=40))
    def play_several_moves(self, data: st.DataObject, count: int) -> None:
        for _ in range(count):
            legal = legal_moves(self.state)
            if not legal:
                break
            self._play(legal[data.draw(st.integers(0, len(legal) - 1), label="choice")])

    @rule(data=st.data())
    def an_illegal_move_is_refused(self, data: st.DataObject) -> None:
        state = self.state
        legal = set(legal_moves(state))
        move = data.draw(st.sampled_from(ALL_MOVES).filter(lambda m: m not in legal), label="illegal")
        with pytest.raises(IllegalMoveError):
            apply_move(state, move)
        assert explain_illegal(state, move)
        assert str(state) == self.positions[-1]

    @precondition(lambda self: len(self.states) > 1)
    @rule(data=st.data())
    def undo_then_go_on(self, data: st.DataObject) -> None:
        # Keeping the earlier states is all an undo takes: they never change.
        keep = data.draw(st.integers(1, len(self.states) - 1), label="keep")
        del self.states[keep:], self.positions[keep:], self.moves[keep - 1 :]

    @precondition(lambda self: self.state.is_over)
    @rule(seed=SEEDS)
    def deal_the_next_game(self, seed: int) -> None:
        self._start(new_game(self.state.rules, seed), seed)

    @rule()
    def the_game_record_round_trips(self) -> None:
        record = GameRecord(self.state.rules, self.seed, self.moves)
        assert GameRecord.from_json(record.to_json()) == record
        assert parse_record(str(record)) == record
        assert list(record.states()) == self.states
        assert GameRecord.from_states(self.states, seed=self.seed).moves == record.moves

    @invariant()
    def the_state_keeps_its_invariants(self) -> None:
        state = self.state
        validate(state)
        assert sorted(c.index for pile in state.piles for c in pile) == list(range(len(ALL_CARDS)))
        legal = legal_moves(state)
        assert state.is_over == (state.outcome is not None) == (not legal)
        check_state(state, illegal_samples=3)

    @invariant()
    def the_position_round_trips(self) -> None:
        state = self.state
        back = parse_position(self.positions[-1])
        assert back == state and hash(back) == hash(state)
        assert legal_moves(back) == legal_moves(state)

    @invariant()
    def action_numbers_round_trip(self) -> None:
        legal = legal_moves(self.state)
        for move in legal:
            assert action_to_move(move_to_action(move)) is move
        mask = legal_action_mask(self.state)
        assert [action_to_move(i) for i, ok in enumerate(mask) if ok] == sorted(
            legal, key=move_to_action
        )

    @invariant()
    def earlier_states_are_unchanged(self) -> None:
        for state, text in zip(self.states[-6:], self.positions[-6:]):
            assert str(state) == text

    def teardown(self) -> None:
        for state, text in zip(self.states, self.positions):
            assert str(state) == text


GameWalk.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestGameWalk = GameWalk.TestCase
