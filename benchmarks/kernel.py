"""Speed of the compiled kernel against the pure-Python engine, in one run (issue 32's figures).

Run ``python benchmarks/kernel.py`` (``--rounds N`` for more repeats, ``--json``
for machines). Every figure is measured both ways in the same process: the
kernel is switched off and on (``crapette.kernel.set_enabled``) between
blocks, the blocks alternate which goes first, and the times are the
process's CPU time, so that other work on a shared machine counts as little
as it can. Each figure is the total over the rounds; the ratio is the pure
Python time over the kernel's for the same work.

- random self-play through the public API (``new_game``, ``legal_moves``,
  ``apply_move``, ``random.Random(seed).choice``, up to 2000 moves), classic and
  casual, and OpenSpiel's ``solitaire`` stepped from Python the same way
  (every ``apply_action`` counts, chance outcomes included), where ``open_spiel``
  is installed (the ``openspiel`` extra);
- greedy playouts (the search bots' policy, ``fast_move``) played to the end of
  the game inside the kernel (``crapette.kernel.self_play``), and the same
  games in Python (``fast_move`` then ``apply_move``);
- ``turn_ends`` per call, on every position of greedy games;
- the planning bot's decision (``PlanningBot(seed=1)``, the ``search`` bot) and
  the flat search bot's, on positions of greedy games, with the same moves;
- ``simulate`` between the greedy and the random bot;
- the Gymnasium environment's ``step`` (where gymnasium is installed);
- ``crapette.selfplay.self_play`` with the greedy policy, games per second.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from crapette import GameState, apply_move, kernel, legal_moves, new_game, turn_ends
from crapette._play.greedy import fast_move
from crapette.bots import GreedyBot, PlanningBot, RandomBot, SearchBot, make_bot
from crapette.selfplay import self_play
from crapette.simulation import simulate

Block = Callable[[int], tuple[int, Any]]   # round -> (units of work, what it decided)


def interleaved(rounds: int, block: Block) -> dict[str, Any]:
    """Run ``block(round)`` with the kernel on and off, alternating which goes first; CPU seconds and units per mode."""
    totals = {"kernel": [0, 0.0], "python": [0, 0.0]}
    decided: dict[str, list[Any]] = {"kernel": [], "python": []}
    for r in range(rounds):
        order = ("kernel", "python") if r % 2 == 0 else ("python", "kernel")
        for mode in order:
            kernel.set_enabled(mode == "kernel")
            start = time.process_time()
            units, what = block(r)
            totals[mode][1] += time.process_time() - start
            totals[mode][0] += units
            decided[mode].append(what)
    kernel.set_enabled(True)
    k_units, k_time = totals["kernel"]
    p_units, p_time = totals["python"]
    return {
        "kernel_per_s": k_units / k_time,
        "python_per_s": p_units / p_time,
        "ratio": (k_units / k_time) / (p_units / p_time),
        "units": k_units,
        "same": decided["kernel"] == decided["python"],
    }


# -- the workloads ------------------------------------------------------------------------


def random_play(rules: str, games: int) -> Block:
    def block(r: int) -> tuple[int, Any]:
        moves, ends = 0, []
        for seed in range(r * games, (r + 1) * games):
            state = new_game(rules, seed=seed)
            choice = random.Random(seed).choice
            count = 0
            while not state.is_over and count < 2000:
                state = apply_move(state, choice(legal_moves(state)))
                count += 1
            moves += count
            ends.append(str(state))
        return moves, ends

    return block


def openspiel_solitaire(rounds: int, games: int) -> float | None:
    """OpenSpiel's Klondike stepped from Python, random choices: applied actions per CPU second."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("solitaire")
    steps, spent = 0, 0.0
    for r in range(rounds):
        start = time.process_time()
        for seed in range(r * games, (r + 1) * games):
            rng = random.Random(seed)
            state = game.new_initial_state()
            count = 0
            while not state.is_terminal() and count < 2000:
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                count += 1
            steps += count
        spent += time.process_time() - start
    return steps / spent


def greedy_positions(rules: str, games: int, every: int = 1, cap: int = 2000) -> list[GameState]:
    found = []
    for seed in range(games):
        state, bot = new_game(rules, seed=seed), GreedyBot()
        while not state.is_over and state.move_count < cap:
            if state.move_count % every == 0:
                found.append(state)
            state = apply_move(state, bot.choose(state))
    return found


def fast_playouts(rules: str, games: int, rounds: int) -> Block:
    # Dealt beforehand: the deal is Python's work, the playout the kernel's.
    dealt = [new_game(rules, seed) for seed in range(rounds * games)]

    def block(r: int) -> tuple[int, Any]:
        starts = dealt[r * games : (r + 1) * games]
        found = kernel.self_play(starts, [0] * len(starts), 1, 0.0, 5000, 0)
        if found is not None:
            return sum(game[2] for game in found), [game[2] for game in found]
        lengths = []
        for state in starts:
            count = 0
            while not state.is_over and count < 5000:
                state = apply_move(state, fast_move(state))
                count += 1
            lengths.append(count)
        return sum(lengths), lengths

    return block


def calls(positions: list[GameState], rounds: int, work: Callable[[GameState], Any]) -> Block:
    size = max(1, len(positions) // rounds)

    def block(r: int) -> tuple[int, Any]:
        chunk = positions[r * size : (r + 1) * size]
        return len(chunk), [work(state) for state in chunk]

    return block


def simulation(rules: str, games: int) -> Block:
    def block(r: int) -> tuple[int, Any]:
        report = simulate(rules, (GreedyBot(), RandomBot(seed=1)), games=games, seed=1000 * r)
        return games, (report.wins, sum(g.moves for g in report.results))

    return block


def planner_game(rules: str) -> Block:
    def block(r: int) -> tuple[int, Any]:
        report = simulate(rules, (make_bot("search:easy", seed=1), GreedyBot()), games=1, seed=r)
        return 1, (report.wins, report.results[0].moves)

    return block


def gymnasium_steps(rules: str, games: int) -> Block | None:
    try:
        from crapette.gymnasium import CrapetteEnv
    except ImportError:
        return None

    def block(r: int) -> tuple[int, Any]:
        env = CrapetteEnv(rules, opponent=GreedyBot())
        steps, lengths = 0, []
        for deal in range(r * games, (r + 1) * games):
            observation, _info = env.reset(options={"deal": deal})
            choice = random.Random(deal).choice
            done = False
            while not done:
                action = choice(observation["action_mask"].nonzero()[0].tolist())
                observation, _reward, terminated, truncated, _info = env.step(action)
                done = terminated or truncated
                steps += 1
            lengths.append(env.game_state.move_count)
        return steps, lengths

    return block


def self_play_games(rules: str, games: int) -> Block:
    def block(r: int) -> tuple[int, Any]:
        found = self_play(rules, games, seed=r * games)
        return games, [(g.moves, g.outcome) for g in found]

    return block


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rounds = args.rounds
    if not kernel.AVAILABLE:
        print(f"the kernel is not available: {kernel.REASON}", file=sys.stderr)
        return 1
    figures: dict[str, Any] = {"machine": f"{platform.machine()} {platform.processor()} Python {platform.python_version()}"}

    def note(name: str, result: dict[str, Any] | None, unit: str) -> None:
        if result is None:
            return
        figures[name] = dict(result, unit=unit)
        if not args.json:
            same = "" if result["same"] else "  DIFFERENT RESULTS"
            print(
                f"{name:<34} kernel {result['kernel_per_s']:>12,.1f}  python {result['python_per_s']:>10,.1f} {unit:<14}"
                f" ratio {result['ratio']:6.1f}x{same}",
                flush=True,
            )

    for rules in ("classic", "casual"):
        note(f"random self-play, API, {rules}", interleaved(rounds, random_play(rules, 6)), "moves/s")
    solitaire = openspiel_solitaire(rounds, 40)
    if solitaire is not None:
        figures["openspiel solitaire"] = {"per_s": solitaire, "unit": "actions/s"}
        classic = figures["random self-play, API, classic"]
        if not args.json:
            print(
                f"{'openspiel solitaire, from Python':<34} {solitaire:>19,.1f} actions/s"
                f"   classic kernel / solitaire {classic['kernel_per_s'] / solitaire:.2f}x,"
                f" classic python / solitaire {classic['python_per_s'] / solitaire:.2f}x",
                flush=True,
            )
    note("greedy playouts, classic", interleaved(rounds, fast_playouts("classic", 12, rounds)), "moves/s")
    positions = greedy_positions("classic", 3)
    note("turn_ends, classic", interleaved(rounds, calls(positions[::3], rounds, lambda s: len(turn_ends(s)))), "calls/s")
    sparse = [s for s in greedy_positions("classic", 2, every=9) if len(legal_moves(s)) > 1]
    note(
        "planning bot decision, classic",
        interleaved(rounds, calls(sparse[: 6 * rounds], rounds, lambda s: PlanningBot(seed=1).choose(s))),
        "decisions/s",
    )
    note(
        "search bot decision, classic",
        interleaved(rounds, calls(sparse[: 20 * rounds], rounds, lambda s: SearchBot(seed=1).choose(s))),
        "decisions/s",
    )
    note("greedy bot decision, classic", interleaved(rounds, calls(positions[::2], rounds, GreedyBot().choose)), "decisions/s")
    note("simulate greedy v random, classic", interleaved(rounds, simulation("classic", 4)), "games/s")
    note("simulate search:easy v greedy", interleaved(rounds, planner_game("classic")), "games/s")
    gym = gymnasium_steps("classic", 3)
    note("gymnasium steps v greedy, classic", interleaved(rounds, gym) if gym else None, "steps/s")
    note("self_play greedy, classic", interleaved(rounds, self_play_games("classic", 4)), "games/s")
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
