"""Play one random game of each preset through the public API and print how it ended."""

import random

from crapette import RuleSet, apply_move, legal_moves, new_game

for rules in (RuleSet.casual(), RuleSet.classic()):
    state = new_game(rules, seed=2026)
    rng = random.Random(2026)
    while not state.is_over and state.move_count < 3000:
        state = apply_move(state, rng.choice(legal_moves(state)))
    print(f"{rules.preset_name:>7}: {state.move_count} moves, {state.outcome or 'stopped at 3000 moves'}")
