"""Rules of your own: a building rule and a scoring, registered by name, then played and checked.

The two parts take the first 25 lines of code below. Run the file
(``python examples/my_rules.py``): it plays a game under the classic rules with
both parts, saves and reloads its position and its record, and runs
crapette's invariant checks on the variant.
"""

from __future__ import annotations

import attrs

from crapette import Build, Card, Scoring, register


@register
class DownInSuit(Build):
    """One rank lower in the same suit: the 7 of hearts on the 8 of hearts."""

    name = "down-in-suit"
    description = "down in suit"

    def accepts(self, below: Card, card: Card) -> bool:
        return card.suit is below.suit and card.rank == below.rank - 1


@register
@attrs.frozen
class ReserveHeavy(Scoring):
    """Reserve cards cost three points, hand and waste cards one."""

    name = "reserve-heavy"

    def penalty(self, *, reserve: int, hand: int, waste: int) -> int:
        return 3 * reserve + hand + waste


def main() -> None:
    import random

    from crapette import GameRecord, RuleSet, apply_move, legal_moves, new_game, parse_position, parse_record
    from crapette.bots import GreedyBot
    from crapette.testing import check_ruleset

    rules = attrs.evolve(RuleSet.classic(), opponent_tableau_build=DownInSuit(), scoring=ReserveHeavy())
    print("rules:", rules)
    # Mostly the greedy bot's moves, some at random: uniform random play seldom ends a classic game.
    states = [new_game(rules, seed=3)]
    rng, bot = random.Random(3), GreedyBot()
    while not states[-1].is_over and len(states) < 2000:
        state = states[-1]
        move = bot.choose(state) if rng.random() < 0.9 else rng.choice(legal_moves(state))
        states.append(apply_move(state, move))
    final = states[-1]
    assert final.outcome is not None and final.outcome.scores is not None, "the game did not end"
    assert parse_position(str(final)) == final
    record = GameRecord.from_states(states, seed=3)
    assert parse_record(str(record)).replay() == final
    assert parse_record(record.to_json()) == record
    winner = "a draw" if final.outcome.winner is None else f"player {final.outcome.winner} wins"
    print(f"played {final.move_count} moves: {winner} ({final.outcome.reason}), scores {final.outcome.scores}")
    print("position and record read back exactly")
    print(check_ruleset(rules, games=3))


if __name__ == "__main__":
    main()
