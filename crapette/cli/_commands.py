"""The commands ``simulate``, ``show``, ``replay`` and ``analyse``."""

from __future__ import annotations

import argparse
import concurrent.futures
import itertools
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO

import attrs

from .. import (
    GameRecord,
    GameState,
    Move,
    RecordError,
    legal_moves,
    new_game,
    parse_position,
)
from .._play.progress import progress
from ..analysis import MISTAKE, MISTAKE_CHANCE, Review, reviews
from ..bots import PlanningBot
from ..simulation import (
    SimulationError,
    SimulationInterrupted,
    SimulationReport,
    simulate,
)
from ..svg import render, write_html
from ..text import render_text, verb_of
from ._args import bot_of
from ._common import MAX_LINE, Fail, colour_wanted, one_line
from ._files import read_record, shown_path, why_failed, write_file, writing


def _usable_cpus() -> int:
    """The number of CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _workers(asked: int, games: int) -> int:
    """The processes to run: at most the CPUs this process may use (saying so), and the games."""
    cpus = _usable_cpus()
    if asked > cpus:
        print(
            f"crapette simulate: --workers {asked} is more than the CPUs here ({cpus}): "
            f"running {cpus} worker{'s' if cpus != 1 else ''}",
            file=sys.stderr,
        )
    return min(asked, cpus, games)


def run_simulate(args: argparse.Namespace, out: IO[str]) -> int:
    bots = tuple(bot_of(choice, args.bot_seed, args.budget) for choice in args.bots)
    workers = _workers(args.workers, args.games)
    executor: concurrent.futures.Executor | None = None
    try:
        if workers > 1:
            executor = concurrent.futures.ProcessPoolExecutor(max_workers=workers)
        report = simulate(
            args.rules,
            bots,
            games=args.games,
            seed=args.seed,
            executor=executor,
            progress=args.progress,
            max_moves=args.max_moves,
        )
    except SimulationInterrupted as stop:
        _print_report(stop.report, args.json, out)
        print(f"crapette simulate: {stop}; the summary counts those games", file=sys.stderr)
        return 130
    except SimulationError as error:  # before ValueError: IllegalBotMoveError is one
        if error.report.games:
            _print_report(error.report, args.json, out)
        print(f"crapette simulate: {one_line(error)}", file=sys.stderr)
        return 1
    except (ValueError, TypeError) as exc:
        raise Fail(str(exc)) from None
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    _print_report(report, args.json, out)
    return 0


def _print_report(report: SimulationReport, as_json: bool, out: IO[str]) -> None:
    if as_json:
        print(json.dumps(report.to_dict(), indent=2), file=out)
    else:
        print(report.summary(), file=out)


def run_show(args: argparse.Namespace, out: IO[str]) -> int:
    if args.position:
        try:
            state = parse_position(" ".join(args.position))
        except ValueError as exc:
            message = str(exc)
            raise Fail(message if message.startswith("invalid position") else f"invalid position: {message}") from None
    else:
        state = new_game(args.rules, args.seed)
    print(render_text(state, colour=colour_wanted(args.colour, out)), file=out)
    moves = legal_moves(state) if args.moves and not state.is_over else ()
    if moves:
        print("legal moves: " + " ".join(str(m) for m in moves), file=out)
    if args.svg:
        write_file(args.svg, render(state, perspective=args.perspective, highlight=moves))
        print(f"wrote {shown_path(args.svg)}", file=out)
    return 0


def _playable(record: GameRecord) -> tuple[int, str]:
    """How many states of ``record`` replay (the moves up to the first illegal one), and why it stops there."""
    count = 0
    try:
        for _ in record.states():
            count += 1
    except RecordError as exc:
        return count, str(exc)
    return count, ""


def _head(record: GameRecord) -> str:
    """The first line of a replay or an analysis: the rules, the deal, the moves, the players, the result."""
    names = record.players or ("player 0", "player 1")
    head = f"{str(record.rules)}, " + (f"seed {record.seed}" if record.seed is not None else "from a position")
    head += f", {len(record.moves)} moves"
    if record.players:
        head += f", {names[0]} (player 0) against {names[1]} (player 1)"
    if record.result:
        head += f", result {record.result}"
    return head


def run_replay(args: argparse.Namespace, stdin: IO[str], out: IO[str]) -> int:
    record = read_record(args.record)
    # The states are made again for each use rather than kept: a replay's memory does not grow with the game.
    playable, problem = _playable(record)
    moves = record.moves[: playable - 1]

    def states() -> Iterator[GameState]:
        return itertools.islice(record.states(), playable)

    colour = colour_wanted(args.colour, out)
    names = record.players or ("player 0", "player 1")
    head = _head(record)
    print(head, file=out)
    if args.step:
        _step(states(), moves, names, colour, stdin, out)
    elif args.all:
        for i, (before, after) in enumerate(itertools.pairwise(states())):
            if i == 0:
                print(render_text(before, colour=colour, names=names), file=out)
            print(f"\nmove {i + 1}: {verb_of(names[before.current_player], 'play')} {moves[i]}", file=out)
            print(render_text(after, colour=colour, names=names), file=out)
        if not moves:
            print(render_text(record.initial_state(), colour=colour, names=names), file=out)
    else:
        turn: list[str] = []
        number = 0
        last = None
        for i, (before, after) in enumerate(itertools.pairwise(states())):
            turn.append(str(moves[i]))
            if after.current_player != before.current_player or i == len(moves) - 1:
                number += 1
                print(f"{number:>4}. {names[before.current_player]}: {' '.join(turn)}", file=out)
                turn = []
            last = after
        print(render_text(last or record.initial_state(), colour=colour, names=names), file=out)
    if args.svg_dir:
        folder = Path(args.svg_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as exc:
            why = why_failed(exc) if isinstance(exc, OSError) else "a folder name cannot hold a null character"
            raise Fail(f"cannot create {shown_path(folder)}: {why}") from None
        for i, state in enumerate(states()):
            highlight = (moves[i],) if i < len(moves) else ()
            write_file(folder / f"state-{i:05d}.svg", render(state, perspective=args.perspective, highlight=highlight))
        print(f"wrote {playable} pictures to {shown_path(folder)}", file=out)
    if args.html:
        _write_page(args.html, states(), moves, None, args.perspective, f"crapette: {head}")
        print(f"wrote {shown_path(args.html)}", file=out)
    if problem:
        raise Fail(f"the record stops being playable: {problem}")
    return 0


def _write_page(
    path: str,
    states: Iterable[GameState],
    moves: Sequence[Move],
    notes: Iterable[str | None] | None,
    perspective: int,
    title: str,
) -> None:
    """Write the HTML replay page to ``path`` as the states come, never holding it in memory."""
    with writing(path) as file:
        write_html(states, moves, file, notes=notes, perspective=perspective, title=title)


def _step(
    states: Iterable[GameState],
    moves: Sequence[Move],
    names: tuple[str, str],
    colour: bool,
    stdin: IO[str],
    out: IO[str],
) -> None:
    positions = iter(states)
    state = next(positions)
    print(render_text(state, colour=colour, names=names), file=out)
    for i, (move, after) in enumerate(zip(moves, positions)):
        out.write(f"[Enter: move {i + 1} of {len(moves)}, q: stop] ")
        out.flush()
        line = stdin.readline(MAX_LINE)
        if not line or line.strip().lower() in ("q", "quit"):
            print(file=out)
            return
        print(f"move {i + 1}: {verb_of(names[state.current_player], 'play')} {move}", file=out)
        print(render_text(after, colour=colour, names=names), file=out)
        state = after


def run_analyse(args: argparse.Namespace, out: IO[str]) -> int:
    """Print the marks of an analysis as they come; on Ctrl-C or an illegal move, what was found so far."""
    record = read_record(args.record)
    playable, problem = _playable(record)
    moves = record.moves[: playable - 1]
    bot = (
        PlanningBot(seed=args.seed, playouts=args.playouts)
        if args.playouts is not None
        else PlanningBot.at_level(args.level, seed=args.seed)
    )
    names = record.players or ("player 0", "player 1")
    by_value = args.judge == "value"
    threshold = args.threshold if args.threshold is not None else MISTAKE_CHANCE if by_value else MISTAKE
    if by_value and threshold > 1:
        raise Fail(f"--threshold is a share of winning chances for --judge value: from 0 to 1 (or 0% to 100%), "
                   f"got {threshold:g}")
    if not args.json:
        print(_head(record), file=out)
        if by_value:
            print(f"judging by the learned value, {bot.playouts} values a turn segment; a mistake loses more "
                  f"than {threshold:.1%} of winning chances against the best, surely (95%)", file=out)
        else:
            print(f"planning with {bot.playouts} playouts a turn segment, a mistake wins the game in fewer "
                  f"deals, or as many and loses more than {threshold:g} cards", file=out)
    found: list[Review] = []
    truncated = attrs.evolve(record, moves=moves) if problem else record
    shown = progress(args.progress, len(moves), unit="move", verb="analysing")
    interrupted = False
    try:
        for review in reviews(truncated, bot=bot, threshold=threshold, players=args.player, judge=args.judge):
            found.append(review)
            shown.update(review.end + 1)
            if not args.json and (review.mistake or args.all):
                shown.clear()
                print(_review_line(review, names), file=out, flush=True)
        shown.update(len(moves))  # the moves after the last segment that ends are replayed too
    except KeyboardInterrupt:
        interrupted = True
    finally:
        shown.close()
    if args.json:
        print(json.dumps(_analysis_json(record, bot, args.judge, threshold, found, interrupted), indent=2), file=out)
    else:
        for line in _analysis_summary(found, names, args.player):
            print(line, file=out)
    if args.html:
        notes = [""] * len(moves)
        for review in found:
            notes[review.index] = review.note
        title = f"crapette analysis: {_head(record)}"
        _write_page(args.html, itertools.islice(record.states(), playable), moves, notes, args.perspective, title)
        print(f"wrote {shown_path(args.html)}", file=sys.stderr if args.json else out)
    if interrupted:
        done = found[-1].end + 1 if found else 0
        raise KeyboardInterrupt(f"analysed {done} of {len(moves)} moves")
    if problem:
        raise Fail(f"the record stops being playable (the moves before were analysed): {problem}")
    return 0


def _moves_text(moves: Sequence[Move]) -> str:
    return " ".join(str(move) for move in moves)


def _review_line(review: Review, names: tuple[str, str]) -> str:
    where = f"{review.index + 1}" if review.end == review.index else f"{review.index + 1}-{review.end + 1}"
    text = f"move {where:>4} ({names[review.player]}): {_moves_text(review.played):<8}"
    if review.mistake:
        return f"{text}  {review.note}"
    text += f"  {_worth(review, review.value, review.wins)}"
    if review.best == review.played:
        return text
    text += f", best {_moves_text(review.best)} {_worth(review, review.best_value, review.best_wins)}"
    if review.judge == "value":
        text += f" ({_lost(review)})"
    return text


def _worth(review: Review, value: float, wins: float) -> str:
    """A path's value as the analysis gives it: the chance to win; or cards, and games won less lost where any ended."""
    if review.judge == "value":
        return f"{value:.1%} to win"
    return f"{value:+.1f} cards" + (f", games won less lost {wins:+.0%}" if wins else "")


def _lost(review: Review) -> str:
    """What a path lost by the value: "lost 12.0% ±3.1%"."""
    return f"lost {review.cost:.1%} ±{review.margin:.1%}"


def _analysis_summary(found: Sequence[Review], names: tuple[str, str], only: int | None) -> list[str]:
    lines = []
    for player in (0, 1) if only is None else (only,):
        mine = [r for r in found if r.player == player]
        mistakes = [r for r in mine if r.mistake]
        line = f"{names[player]}: {len(mine)} turn segment{'s' if len(mine) != 1 else ''} with a choice, "
        line += f"{len(mistakes)} mistake{'s' if len(mistakes) != 1 else ''}"
        if mistakes:
            worst = max(mistakes, key=lambda r: (r.wins_lost if r.judge != "value" else 0.0, r.cost))
            if worst.judge == "value":
                lost = f"{worst.cost:.1%} ±{worst.margin:.1%} of winning chances"
            elif worst.wins_lost:
                lost = f"{worst.wins_lost:.0%} of the deals in games won less lost"
            else:
                lost = f"{worst.cost:.1f} cards"
            line += f" (the worst: move {worst.index + 1}, {lost} lost)"
        lines.append(line)
    return lines


def _analysis_json(
    record: GameRecord, bot: PlanningBot, judge: str, threshold: float, found: Sequence[Review], interrupted: bool
) -> dict[str, object]:
    return {
        "rules": str(record.rules),
        "seed": record.seed,
        "moves": len(record.moves),
        "judge": judge,
        "playouts": bot.playouts,
        "threshold": threshold,
        "complete": not interrupted,
        "reviews": [
            {
                "index": r.index,
                "end": r.end,
                "player": r.player,
                "played": _moves_text(r.played),
                "best": _moves_text(r.best),
                "value": round(r.value, 4),
                "best_value": round(r.best_value, 4),
                "cost": r.cost,
                "margin": round(r.margin, 4),
                "wins": round(r.wins, 4),
                "best_wins": round(r.best_wins, 4),
                "mistake": r.mistake,
            }
            for r in found
        ],
    }
