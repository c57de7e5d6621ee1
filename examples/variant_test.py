"""Property-test a rule variant of your own with crapette's testing toolkit.

The variant here is the classic game with optional foundation plays and no
stack moves. Run the checks as a script (``python examples/variant_test.py``)
or with pytest (``pytest examples/variant_test.py``); they take a few seconds.
The toolkit needs Hypothesis: ``pip install hypothesis`` (the ``test`` extra installs it too).
"""

from __future__ import annotations

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from crapette import GameState, MoveStack, RuleSet, apply_move, legal_moves
from crapette.strategies import game_states, moves
from crapette.testing import check_ruleset, check_state

MY_RULES = attrs.evolve(RuleSet.classic(), foundation_plays="optional", stack_moves=False)


def test_the_engine_keeps_every_invariant_under_my_rules() -> None:
    # Games played mostly by the greedy bot, every invariant checked after every move.
    summary = check_ruleset(MY_RULES, games=3)
    assert summary.finished == 3 and summary.capped == 0


@settings(max_examples=30, deadline=None)
@given(game_states(rules=st.just(MY_RULES), max_moves=150))
def test_every_reachable_state_is_sound(state: GameState) -> None:
    check_state(state)


@settings(max_examples=30, deadline=None)
@given(game_states(rules=st.just(MY_RULES), max_moves=150), st.data())
def test_my_variant_never_moves_stacks_and_foundations_only_grow(
    state: GameState, data: st.DataObject
) -> None:
    assert not any(isinstance(move, MoveStack) for move in legal_moves(state))
    if not state.is_over:
        after = apply_move(state, data.draw(moves(state)))
        assert all(len(a) >= len(b) for a, b in zip(after.foundations, state.foundations))


if __name__ == "__main__":
    test_the_engine_keeps_every_invariant_under_my_rules()
    test_every_reachable_state_is_sound()
    test_my_variant_never_moves_stacks_and_foundations_only_grow()
    print("all checks passed for", MY_RULES.preset_name or "my variant")
