"""simulate(): seats, deals, the report, the move cap, equal results on any executor, progress,
and failures that keep the games that finished."""

from __future__ import annotations

import io
import json
import os
import pickle
import sys
import tracemalloc
import types
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from crapette import EndReason, GameState, IllegalMoveError, InvalidRulesError, Move, RuleSet, legal_moves, new_game
from crapette import parse_move
from crapette._play.progress import _Lines
from crapette.bots import Bot, GreedyBot, RandomBot
from crapette.protocol import Crapette
from crapette.simulation import (
    DEFAULT_MAX_MOVES,
    BotError,
    GameResult,
    IllegalBotMoveError,
    SimulationError,
    SimulationInterrupted,
    SimulationReport,
    play_game,
    simulate,
)

BOTS = (GreedyBot(), RandomBot(seed=1))


@pytest.fixture(scope="module")
def classic_report() -> SimulationReport:
    return simulate("classic", BOTS, games=8, seed=30)


@pytest.fixture(scope="module")
def casual_report() -> SimulationReport:
    return simulate("casual", BOTS, games=4, seed=30)


# Seats, deals and the report ---------------------------------------------------------------


def test_seats_swap_every_game_and_each_deal_is_played_twice(classic_report: SimulationReport) -> None:
    results = classic_report.results
    assert [r.index for r in results] == list(range(8))
    assert [r.deal for r in results] == [30, 30, 31, 31, 32, 32, 33, 33]
    assert [r.seats for r in results] == [(0, 1), (1, 0)] * 4


def test_the_first_player_is_the_one_the_deal_gives(classic_report: SimulationReport) -> None:
    for r in classic_report.results:
        assert r.first_player == new_game("classic", r.deal).current_player
        assert r.first_bot == r.seats[r.first_player]


def test_each_game_is_the_game_those_bots_play_on_that_deal(classic_report: SimulationReport) -> None:
    for r in classic_report.results[:4]:
        bots = (BOTS[r.seats[0]], BOTS[r.seats[1]])
        alone = play_game("classic", bots, deal=r.deal)
        assert alone.moves == r.moves
        assert alone.reason is r.reason
        assert (None if alone.winner is None else r.seats[alone.winner]) == r.winner


def test_the_totals_add_up(classic_report: SimulationReport) -> None:
    report = classic_report
    assert report.games == 8
    assert sum(report.wins) + report.draws == report.games
    assert sum(report.seat_wins) == sum(report.wins)
    assert report.emptied + report.stalemates + report.blocked + report.move_limits + report.capped == 8
    assert report.lengths == tuple(r.moves for r in report.results)
    assert report.mean_length == sum(report.lengths) / 8
    assert 0 <= report.first_mover_wins <= sum(report.wins)
    assert report.win_rate(0) == report.wins[0] / 8


def test_greedy_wins_every_classic_game_here_and_the_winner_scores(classic_report: SimulationReport) -> None:
    assert classic_report.wins == (8, 0)
    assert classic_report.points is not None
    assert classic_report.points[0] == sum(r.points[0] for r in classic_report.results if r.points)
    assert classic_report.points[0] >= 8 * 30
    assert classic_report.points[1] == 0


def test_points_follow_the_bots_not_the_seats(classic_report: SimulationReport) -> None:
    for r in classic_report.results:
        assert r.points is not None and r.winner is not None
        assert r.points[r.winner] > 0 and r.points[1 - r.winner] == 0


def test_rules_without_scoring_report_no_points(casual_report: SimulationReport) -> None:
    assert casual_report.points is None
    assert all(r.points is None for r in casual_report.results)


def test_the_first_mover_rate_counts_games_with_a_winner_only() -> None:
    results = (
        GameResult(0, 1, (0, 1), 0, 0, EndReason.EMPTIED, False, 10, None),
        GameResult(1, 1, (1, 0), 0, 0, EndReason.EMPTIED, False, 10, None),
        GameResult(2, 2, (0, 1), 1, None, EndReason.MOVE_LIMIT, False, 1000, None),
    )
    report = SimulationReport(RuleSet.casual(), ("a", "b"), 1, 100, results)
    assert report.first_mover_wins == 1
    assert report.first_mover_win_rate == 0.5
    assert report.seat_wins == (1, 1)
    assert report.wins == (2, 0) and report.draws == 1 and report.move_limits == 1


def test_the_report_says_the_same_in_json_and_in_the_table(classic_report: SimulationReport) -> None:
    data = json.loads(json.dumps(classic_report.to_dict(games=True)))
    assert data["wins"] == [8, 0]
    assert data["bots"] == ["GreedyBot()", "RandomBot(seed=1)"]
    assert data["rules"] == "classic"
    assert len(data["results"]) == 8
    assert data["lengths"]["max"] == max(classic_report.lengths)
    assert "results" not in classic_report.to_dict()
    table = classic_report.summary()
    assert "GreedyBot()" in table and "RandomBot(seed=1)" in table
    assert "8 games from seed 30" in table
    assert str(classic_report) == table


# Reproducible, and the same on every executor ---------------------------------------------


def test_the_same_arguments_give_an_equal_report(classic_report: SimulationReport) -> None:
    assert simulate("classic", BOTS, games=8, seed=30) == classic_report
    assert simulate("classic", BOTS, games=8, seed=31) != classic_report


def test_a_process_pool_gives_the_serial_report(casual_report: SimulationReport) -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        parallel = simulate("casual", BOTS, games=4, seed=30, executor=pool)
    assert parallel == casual_report


def test_a_dask_cluster_gives_the_serial_report(classic_report: SimulationReport) -> None:
    distributed = pytest.importorskip(
        "distributed", reason='needs Dask (pip install "dask[distributed]"); CI installs it and runs this test'
    )
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        report = simulate("classic", BOTS, games=8, seed=30, executor=client.get_executor())
    assert report == classic_report


class _CountingBot:
    """Plays the legal move numbered by how many moves it has made: a bot that keeps state."""

    def __init__(self) -> None:
        self.made = 0

    def choose(self, state: GameState) -> Move:
        moves = legal_moves(state)
        self.made += 1
        return moves[self.made % len(moves)]

    def __repr__(self) -> str:
        return "_CountingBot()"


def test_every_game_starts_with_fresh_bots_so_chunking_cannot_change_a_result() -> None:
    bots = (_CountingBot(), GreedyBot())
    whole = simulate("classic", bots, games=4, seed=3, max_moves=300)
    with ThreadPoolExecutor(max_workers=2) as pool:
        split = simulate("classic", bots, games=4, seed=3, executor=pool, max_moves=300)
    assert split == whole
    assert simulate("classic", bots, games=2, seed=4, max_moves=300).results[0] == attrs.evolve(
        whole.results[2], index=0
    )
    assert bots[0].made == 0


# The move cap ---------------------------------------------------------------------------------


def test_the_move_cap_stops_a_game_and_settles_it_by_the_scoring() -> None:
    report = simulate("classic", BOTS, games=2, seed=5, max_moves=40)
    assert report.capped == 2 and report.emptied == 0
    for r in report.results:
        assert r.capped and r.moves == 40 and r.reason is EndReason.MOVE_LIMIT
        assert r.points is not None
    assert report.max_moves == 40
    assert DEFAULT_MAX_MOVES == 5000


def test_the_rules_move_limit_is_not_counted_as_capped() -> None:
    rules = attrs.evolve(RuleSet.casual(), move_limit=30)
    report = simulate(rules, BOTS, games=2, seed=5)
    assert report.move_limits == 2 and report.capped == 0 and report.draws == 2
    assert all(not r.capped and r.moves == 30 for r in report.results)


class _Shuffler:
    """Moves a card between two tableau piles and back for ever, when it can."""

    def choose(self, state: GameState) -> Move:
        moves = legal_moves(state)
        for move in moves:
            if str(move).startswith("T") and "-T" in str(move):
                return move
        return moves[-1]

    def __repr__(self) -> str:
        return "_Shuffler()"


def test_a_simulation_ends_even_between_bots_that_would_play_for_ever() -> None:
    report = simulate("classic", (_Shuffler(), _Shuffler()), games=2, seed=0, max_moves=500)
    assert report.capped >= 1
    assert max(report.lengths) == 500


# Quiet unless asked, and progress when asked -----------------------------------------------


def test_simulate_prints_nothing_unless_asked(capsys: pytest.CaptureFixture[str]) -> None:
    simulate("classic", BOTS, games=2)
    assert capsys.readouterr() == ("", "")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_lines_now_and_then_when_stderr_is_not_a_terminal_and_needs_no_tqdm(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # not installed
    simulate("classic", BOTS, games=2, progress=True)
    out, err = capsys.readouterr()
    assert out == "" and "\r" not in err
    lines = err.splitlines()
    assert lines[0].startswith("simulating: 1/2 games (50%), ") and lines[0].endswith(" left")
    assert lines[-1].startswith("simulating: 2/2 games (100%), ") and err.endswith(" s\n")


def test_progress_on_a_terminal_without_tqdm_is_one_line_redrawn_then_cleared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    simulate("classic", BOTS, games=2, progress=True)
    shown = terminal.getvalue()
    assert shown.startswith("\rsimulating: 0/2 games (0%), ") and "\n" not in shown
    assert "\rsimulating: 2/2 games (100%), " in shown
    last = shown.rsplit("\r", 2)
    assert last[-1] == "" and last[-2].strip() == ""  # the line is blanked at the end


def test_progress_on_a_terminal_is_tqdms_bar_when_tqdm_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("tqdm", reason="needs tqdm (pip install tqdm)")
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    simulate("classic", BOTS, games=2, progress=True)
    assert "simulating" in terminal.getvalue() and "/2 [" in terminal.getvalue()


def test_progress_lines_come_each_tenth_of_the_games_and_at_least_every_ten_seconds() -> None:
    stream, now = io.StringIO(), [0.0]
    lines = _Lines(stream, total=100, terminal=False, clock=lambda: now[0])
    for done, time in ((0, 0), (5, 1), (10, 2), (15, 13), (19, 14), (35, 15), (100, 20)):
        now[0] = time
        lines.update(done)
    assert stream.getvalue().splitlines() == [
        "simulating: 10/100 games (10%), 2.0 s, about 18 s left",
        "simulating: 15/100 games (15%), 13 s, about 1 min 14 s left",
        "simulating: 35/100 games (35%), 15 s, about 28 s left",
        "simulating: 100/100 games (100%), 20 s",
    ]


def test_a_progress_function_is_told_the_games_done_and_the_total() -> None:
    seen: list[tuple[int, int]] = []
    simulate("classic", BOTS, games=3, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
    seen.clear()
    with ThreadPoolExecutor(max_workers=2) as pool:
        simulate("classic", BOTS, games=3, executor=pool, progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 3) and seen[-1] == (3, 3)
    assert [done for done, _ in seen] == sorted({done for done, _ in seen})


# Bad bots and bad arguments -------------------------------------------------------------------


class _Cheat:
    def choose(self, state: GameState) -> Move:
        return parse_move("R1-F0")

    def __repr__(self) -> str:
        return "_Cheat()"


class _Talker:
    def choose(self, state: GameState) -> str:
        return "draw"


def test_a_bot_that_plays_an_illegal_move_is_named() -> None:
    with pytest.raises(IllegalMoveError, match=r"_Cheat\(\) as player 0 chose an illegal move in game 0") as info:
        simulate("casual", (_Cheat(), GreedyBot()), games=1)
    error = info.value
    assert isinstance(error, IllegalBotMoveError) and isinstance(error, BotError)
    assert (error.bot, error.player, error.game, error.deal, error.move) == (0, 0, 0, 0, 0)
    assert isinstance(error.__cause__, IllegalMoveError) and error.report.games == 0


def test_a_bot_that_returns_no_move_is_named() -> None:
    with pytest.raises(IllegalBotMoveError, match="returned 'draw', not a Move") as info:
        play_game("casual", (_Talker(), GreedyBot()))  # type: ignore[arg-type]
    assert isinstance(info.value, IllegalMoveError) and info.value.bot == 0


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"games": 0}, ValueError, "games must be at least 1"),
        ({"games": 2.5}, TypeError, "games must be an int"),
        ({"seed": -1}, ValueError, "seed must be at least 0"),
        ({"seed": 2**64 - 1, "games": 3}, ValueError, "below 2\\*\\*64"),
        ({"max_moves": 0}, ValueError, "max_moves must be at least 1"),
        ({"executor": object()}, TypeError, "submit"),
        ({"bots": (GreedyBot(),)}, TypeError, "pair of bots"),
        ({"bots": (GreedyBot(), "random")}, TypeError, "choose"),
        ({"rules": "chess"}, InvalidRulesError, "unknown rule set"),
        ({"rules": 3}, TypeError, "RuleSet or a preset name"),
        ({"progress": "yes"}, TypeError, "progress must be True, False or a function progress"),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_message(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    arguments: dict[str, object] = {"rules": "classic", "bots": BOTS, "games": 2}
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        simulate(**arguments)  # type: ignore[arg-type]


# A simulation that stops early keeps the games that finished ---------------------------------


class _FailsOnDeal:
    """Plays as ``inner`` does, but does ``action`` at the first move of the game dealt from ``deal``.

    The actions: "raise" (a bug in the bot), "interrupt" (as if Ctrl-C came then), "exit" (the
    worker process it plays in dies; in this process it plays on).
    """

    def __init__(self, inner: Bot, deal: int, action: str) -> None:
        self.inner = inner
        self.start = new_game("classic", deal)
        self.action = action
        self.home = os.getpid()

    def choose(self, state: GameState) -> Move:
        if state.move_count == 0 and state == self.start:
            if self.action == "raise":
                raise ZeroDivisionError("boom")
            if self.action == "interrupt":
                raise KeyboardInterrupt
            if self.action == "exit" and os.getpid() != self.home:
                os._exit(3)
        return self.inner.choose(state)

    def __repr__(self) -> str:
        return f"_FailsOnDeal({self.inner!r})"


def _failing(action: str) -> tuple[_FailsOnDeal, _FailsOnDeal]:
    """BOTS, but games 4 and 5 of the classic_report (seed 30), dealt from seed 32, fail at their first move."""
    return (_FailsOnDeal(BOTS[0], 32, action), _FailsOnDeal(BOTS[1], 32, action))


# Game 4 is the first game dealt from 32; the first player of that deal plays bot number FIRST then.
FIRST = new_game("classic", 32).current_player


@pytest.fixture(scope="module")
def bot_error() -> BotError:
    """The error of the classic_report's simulation in which games 4 and 5 fail."""
    with pytest.raises(BotError) as info:
        simulate("classic", _failing("raise"), games=6, seed=30)
    return info.value


def test_a_bot_that_raises_is_named_with_the_game_the_deal_and_the_move_and_its_error_chained(
    bot_error: BotError,
) -> None:
    error = bot_error
    assert str(error) == (
        f"_FailsOnDeal({BOTS[FIRST]!r}) (bot {FIRST}, as player {FIRST}) failed in game 4 (deal 32) "
        "at move 0: ZeroDivisionError: boom"
    )
    assert (error.bot, error.player, error.game, error.deal, error.move, error.games) == (FIRST, FIRST, 4, 32, 0, (4,))
    assert isinstance(error.__cause__, ZeroDivisionError) and str(error.__cause__) == "boom"
    assert not isinstance(error, IllegalMoveError)


def test_a_simulation_that_fails_keeps_the_games_that_finished(
    classic_report: SimulationReport, bot_error: BotError
) -> None:
    report = bot_error.report
    assert report.results == classic_report.results[:4]
    assert report.bots == tuple(repr(bot) for bot in _failing("raise"))
    assert (report.rules, report.seed, report.max_moves) == (classic_report.rules, 30, DEFAULT_MAX_MOVES)
    assert "4 games from seed 30" in report.summary()


def test_a_simulation_that_fails_on_a_pool_keeps_the_games_that_finished(classic_report: SimulationReport) -> None:
    with ProcessPoolExecutor(max_workers=1) as pool, pytest.raises(BotError) as info:
        simulate("classic", _failing("raise"), games=6, seed=30, executor=pool)
    error = info.value
    assert (error.bot, error.game, error.deal, error.move) == (FIRST, 4, 32, 0)
    assert "ZeroDivisionError: boom" in str(error)
    assert error.__cause__ is not None  # the worker's traceback
    # One worker plays the games in order: 0 to 3 had finished; 5 may have too.
    indices = [r.index for r in error.report.results]
    assert indices[:4] == [0, 1, 2, 3] and 4 not in indices
    assert all(r == classic_report.results[r.index] for r in error.report.results)


def test_a_worker_that_dies_is_reported_with_the_games_it_was_playing(classic_report: SimulationReport) -> None:
    with ProcessPoolExecutor(max_workers=1) as pool, pytest.raises(SimulationError) as info:
        simulate("classic", _failing("exit"), games=6, seed=30, executor=pool)
    error = info.value
    assert not isinstance(error, BotError)
    assert isinstance(error.__cause__, BrokenProcessPool)
    assert 4 in error.games and set(error.games) <= {4, 5}
    games = "games 4-5" if 5 in error.games else "game 4"
    assert str(error).startswith(f"{games} failed on the executor: BrokenProcessPool: A process in the process pool ")
    assert error.report.results == classic_report.results[:4]


@given(seed=st.integers(0, 2**64 - 20), deal=st.integers(0, 5), action=st.sampled_from(["raise", "interrupt"]))
def test_a_simulation_stopped_at_any_game_keeps_exactly_the_games_before_it(seed: int, deal: int, action: str) -> None:
    bots = (RandomBot(seed=1), RandomBot(seed=2))
    failing = (_FailsOnDeal(bots[0], seed + deal, action), _FailsOnDeal(bots[1], seed + deal, action))
    with pytest.raises((BotError, SimulationInterrupted)) as info:
        simulate("classic", failing, games=12, seed=seed, max_moves=5)
    full = simulate("classic", bots, games=12, seed=seed, max_moves=5)
    assert info.value.report.results == full.results[: 2 * deal]


def test_ctrl_c_gives_back_the_games_played_so_far(classic_report: SimulationReport) -> None:
    with pytest.raises(SimulationInterrupted) as info:
        simulate("classic", _failing("interrupt"), games=6, seed=30)
    interrupted = info.value
    assert isinstance(interrupted, KeyboardInterrupt) and not isinstance(interrupted, Exception)
    assert str(interrupted) == "interrupted after 4 of 6 games"
    assert interrupted.report.results == classic_report.results[:4]


def _interrupt_after(games: int) -> Callable[[int, int], None]:
    def progress(done: int, total: int) -> None:
        if done >= games:
            raise KeyboardInterrupt

    return progress


def test_ctrl_c_on_an_executor_gives_back_the_games_played_so_far(classic_report: SimulationReport) -> None:
    with ThreadPoolExecutor(max_workers=2) as pool, pytest.raises(SimulationInterrupted) as info:
        simulate("classic", BOTS, games=6, seed=30, executor=pool, progress=_interrupt_after(3))
    results = info.value.report.results
    assert len(results) >= 3 and all(r == classic_report.results[r.index] for r in results)
    assert [r.index for r in results] == sorted(r.index for r in results)


def test_the_errors_travel_between_processes_with_everything_they_carry(bot_error: BotError) -> None:
    with pytest.raises(IllegalBotMoveError) as info:
        simulate("casual", (_Cheat(), GreedyBot()), games=1)
    for error in (bot_error, info.value):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)
        assert (again.bot, again.player, again.game, again.deal, again.move, again.games) == (
            error.bot, error.player, error.game, error.deal, error.move, error.games,
        )
        assert again.report == error.report
    interrupted = SimulationInterrupted("interrupted after 0 of 1 games", report=error.report)
    assert pickle.loads(pickle.dumps(interrupted)).report == error.report


def test_play_game_names_a_bot_that_raises() -> None:
    with pytest.raises(BotError, match=r"failed in game 0 \(deal 32\) at move 0: ZeroDivisionError: boom") as info:
        play_game("classic", _failing("raise"), deal=32)
    assert info.value.report.games == 0 and info.value.report.seed == 32


# Work goes to an executor a little at a time --------------------------------------------------


class _InlinePool(ThreadPoolExecutor):
    """Two workers, said to be; each task runs when it is submitted. Counts the tasks given out
    whose results have not been asked for yet."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.submitted = 0
        self.waiting = 0
        self.most_waiting = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        pool = self

        class Taken(Future[Any]):
            asked = False

            def result(self, timeout: float | None = None) -> Any:
                if not self.asked:
                    self.asked = True
                    pool.waiting -= 1
                return super().result(timeout)

        future = Taken()
        future.set_result(fn(*args, **kwargs))
        self.submitted += 1
        self.waiting += 1
        self.most_waiting = max(self.most_waiting, self.waiting)
        return future


def test_an_executor_gets_a_few_chunks_per_worker_at_a_time_not_every_game_at_once() -> None:
    bots = (RandomBot(seed=1), RandomBot(seed=2))
    with _InlinePool() as pool:
        report = simulate("classic", bots, games=300, seed=5, executor=pool, max_moves=2)
    assert pool.submitted == 75  # chunks of 300 // 64 = 4 games
    assert pool.most_waiting <= 8  # four chunks per worker
    assert report == simulate("classic", bots, games=300, seed=5, max_moves=2)


@pytest.mark.parametrize("workers", [0, 1])
def test_a_huge_simulation_stopped_early_took_no_memory_for_the_games_it_did_not_play(workers: int) -> None:
    bots = (RandomBot(seed=1), RandomBot(seed=2))
    pool = ThreadPoolExecutor(max_workers=workers) if workers else None
    tracemalloc.start()
    try:
        with pytest.raises(SimulationInterrupted) as info:
            simulate("classic", bots, games=10**6, executor=pool, max_moves=1, progress=_interrupt_after(20))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        if pool is not None:
            pool.shutdown()
    assert info.value.report.games >= 20
    assert peak < 2_000_000  # a list of a million tasks alone takes over 100 MB


_PARENT = os.getpid()


def _rebuilt_here_only() -> RandomBot:
    if os.getpid() != _PARENT:
        raise AttributeError("Can't get attribute 'NotebookBot' on <module '__main__'>")
    return _Homeless(seed=1)


class _Homeless(RandomBot):
    """A bot that a worker cannot unpickle, as one defined in a notebook after the pool started."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuilt_here_only, ())


def test_a_process_pool_that_cannot_unpickle_the_task_says_the_cause_and_the_fix() -> None:
    with ProcessPoolExecutor(max_workers=1) as pool, pytest.raises(SimulationError) as info:
        simulate("casual", (_Homeless(seed=1), RandomBot(seed=2)), games=2, executor=pool)
    message = str(info.value)
    assert isinstance(info.value.__cause__, BrokenProcessPool)
    assert "could not unpickle the task" in message and "__main__" in message
    assert "Fix: define them in a module the workers can import" in message


def test_a_broken_pool_names_what_is_defined_where_a_worker_cannot_import_it() -> None:
    from crapette.simulation import _broken_pool_hint

    module = types.ModuleType("made_at_run_time")
    exec("class Scorer:\n    def choose(self, state): ...\n", module.__dict__)
    sys.modules["made_at_run_time"] = module
    try:
        hint = _broken_pool_hint(Crapette("casual"), (module.Scorer(), RandomBot()))
    finally:
        del sys.modules["made_at_run_time"]
    assert "Scorer (in made_at_run_time)" in hint and "RandomBot" not in hint
