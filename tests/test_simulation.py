"""simulate(): seats, deals, the report, the move cap, and equal results on any executor."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import attrs
import distributed
import pytest

from crapette import EndReason, GameState, IllegalMoveError, InvalidRulesError, Move, RuleSet, legal_moves, new_game
from crapette import parse_move
from crapette.bots import GreedyBot, RandomBot
from crapette.simulation import DEFAULT_MAX_MOVES, GameResult, SimulationReport, play_game, simulate

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


# Quiet unless asked -----------------------------------------------------------------------


def test_simulate_prints_nothing_unless_asked(capsys: pytest.CaptureFixture[str]) -> None:
    simulate("classic", BOTS, games=2)
    assert capsys.readouterr() == ("", "")


def test_simulate_shows_a_progress_bar_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    simulate("classic", BOTS, games=2, progress=True)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "simulating" in captured.err and "/2 [" in captured.err


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
    with pytest.raises(IllegalMoveError, match=r"_Cheat\(\) as player 0 chose an illegal move in game 0"):
        simulate("casual", (_Cheat(), GreedyBot()), games=1)


def test_a_bot_that_returns_no_move_is_named() -> None:
    with pytest.raises(TypeError, match="returned 'draw', not a Move"):
        play_game("casual", (_Talker(), GreedyBot()))


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
    ],
)
def test_bad_arguments_are_refused_with_a_clear_message(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    arguments: dict[str, object] = {"rules": "classic", "bots": BOTS, "games": 2}
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        simulate(**arguments)  # type: ignore[arg-type]
