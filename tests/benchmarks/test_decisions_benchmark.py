"""The decision benchmark (benchmarks/decisions.py): its scoring on a hand-made data set, its deals, and the shipped data."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from crapette import Draw, EndTurn, GameState, Move, Pass, legal_moves, new_game, reveals, view
from crapette._core.state import get_fields
from crapette.bots.planner import segment_paths
from crapette.evaluation import CardCount

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import decisions  # noqa: E402


def _key(state: GameState) -> tuple[object, ...]:
    """What a candidate's end shows whatever the deal: the cards that moved are face up, the rest counted.

    Not the player to move: a turn ends by itself after a draw that cannot be played.
    """
    return (state.foundations, state.tableau, tuple(len(pile) for pile in (*state.reserves, *state.hands, *state.wastes)))


def _candidates(seed: int, count: int) -> tuple[str, list[tuple[Move, ...]], list[tuple[object, ...]]]:
    """A deal's first position, ``count`` of its candidates whose ends differ in what every deal shows, and those ends."""
    v = view(new_game("classic", seed=seed))
    state = decisions.canonical(v)
    paths, keys = [], []
    for path in segment_paths(v):
        key = _key(decisions.follow(state, path))
        if key not in keys:
            paths.append(path)
            keys.append(key)
        if len(paths) == count:
            break
    return str(state), paths, keys


class Prefers:
    """An evaluator that likes only the ends it is given."""

    def __init__(self, keys: set[tuple[object, ...]]) -> None:
        self.keys = keys

    def evaluate(self, state: GameState, player: int, rng: random.Random) -> float:
        return 1.0 if _key(state) in self.keys else 0.0


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[tuple[object, ...]]]:
    """Two positions with hand-made reference values, and the ends of the candidates ``Prefers`` should pick."""
    text_a, paths_a, keys_a = _candidates(1, 3)
    text_b, paths_b, keys_b = _candidates(3, 2)
    data = {
        "format": decisions.FORMAT,
        "version": decisions.VERSION,
        "rules": "classic",
        "rollouts": 1,
        "policy": "greedy",
        "positions": [
            # The evaluator picks the second candidate: 0.2 below the best.
            {"position": text_a, "candidates_total": 40, "candidates": [
                [decisions.path_text(p), v, 0.0] for p, v in zip(paths_a, (0.6, 0.4, 0.5))]},
            # Here the second candidate is the best: no loss.
            {"position": text_b, "candidates_total": 2, "candidates": [
                [decisions.path_text(p), v, 0.0] for p, v in zip(paths_b, (0.3, 0.7))]},
        ],
    }
    path = tmp_path_factory.mktemp("decisions") / "tiny.json"
    path.write_text(decisions.dump(data), encoding="utf-8")
    return path, {keys_a[1], keys_b[1]}


def test_an_evaluator_that_prefers_a_known_candidate_gets_its_known_loss(tiny: tuple[Path, set[tuple[object, ...]]]) -> None:
    path, keys = tiny
    header, positions = decisions.load(path)
    assert header["rules"] == "classic" and "positions" not in header
    assert [len(p.paths) for p in positions] == [3, 2] and positions[0].total == 40
    (result,) = decisions.score(positions, [("prefers", Prefers(keys))], deals=3)
    assert result.losses == pytest.approx([0.2, 0.0])
    assert result.hits == [False, True]
    summary = result.summary()
    assert summary["mean_loss"] == pytest.approx(10.0)
    assert summary["best_share"] == 0.5
    low, high = summary["mean_loss_interval"]
    assert low < 10.0 < high


def test_first_random_and_the_named_evaluators_run(tiny: tuple[Path, set[tuple[object, ...]]]) -> None:
    path, keys = tiny
    _, positions = decisions.load(path)
    names = ["first", "random", "cardcount", "fitted", "playout"]
    evaluators = [(name, decisions.make_evaluator(name)) for name in names]
    evaluators.append(("prefers", Prefers(keys)))
    scores = decisions.score(positions, evaluators, deals=2, seed=1)
    first, chance = scores[0], scores[1]
    assert first.losses == pytest.approx([0.0, 0.4]) and first.hits == [True, False]
    for result in scores:
        assert len(result.losses) == 2 and all(0.0 <= loss <= 0.4 + 1e-9 for loss in result.losses)
    assert chance.losses == decisions.score(positions, [("random", "random")], deals=2, seed=1)[0].losses
    # The figures of each against the first named, paired by position.
    difference = scores[-1].summary(first)["difference"]
    assert difference["from"] == "first" and difference["points"] == pytest.approx(-10.0)
    table = decisions._table([s.summary(first) for s in scores])
    assert all(name in table for name in names)


def test_make_evaluator_takes_module_names_and_refuses_unknown_ones() -> None:
    assert isinstance(decisions.make_evaluator("crapette.evaluation:CardCount"), CardCount)
    assert decisions.make_evaluator("rollout") == decisions.GreedyRollout()
    assert decisions.make_evaluator("random") == "random"
    with pytest.raises(ValueError, match="unknown evaluator"):
        decisions.make_evaluator("cards")
    with pytest.raises(ValueError, match="cannot load"):
        decisions.make_evaluator("crapette.evaluation:Nothing")
    with pytest.raises(ValueError, match="no evaluate"):
        decisions.make_evaluator("crapette.evaluation:WIN")


def test_load_refuses_a_position_that_shows_more_than_its_view(tmp_path: Path) -> None:
    state = new_game("classic", seed=3)   # the real deal, not its view's canonical state
    paths = segment_paths(view(state))[:2]
    data = {"format": decisions.FORMAT, "version": decisions.VERSION, "positions": [
        {"position": str(state), "candidates": [[decisions.path_text(p), 0.5, 0.0] for p in paths]}]}
    path = tmp_path / "leaky.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="canonical"):
        decisions.load(path)
    path.write_text(json.dumps({"format": "something else"}), encoding="utf-8")
    with pytest.raises(ValueError, match="not a decision data set"):
        decisions.load(path)


def test_the_stratified_deals_show_the_view_and_cycle_through_the_first_revealed_card() -> None:
    v = view(new_game("classic", seed=11))
    worlds, stratified = decisions.worlds_for(v, 94, random.Random(2))
    assert stratified == "H0"   # the top of the mover's face-down hand: what a draw reveals
    for world in worlds:
        assert view(world) == v
        GameState(*get_fields(world))   # valid: the constructor checks every invariant
    tops = [world.hands[0][-1] for world in worlds]
    # Any of the 47 unseen cards of deck 0 (12 under the reserve's top, 35 in the hand)
    # may lie there: each is dealt there twice in 94 worlds.
    assert len(set(tops)) == 47 and all(tops.count(card) == 2 for card in set(tops))


def test_summarize_pairs_the_errors_with_the_best_candidate() -> None:
    values, errors = decisions.summarize([[1.0, 0.0, 1.0, 0.5], [1.0, 1.0, 1.0, 0.5], [1.0, 1.0, 1.0, 0.5]])
    assert values == [0.625, 0.875, 0.875]
    assert errors[1] == 0.0 and errors[2] == 0.0   # the best, and one that always matches it
    assert errors[0] == pytest.approx(0.25)         # differences 0, 1, 0, 0: sd 0.5 over 2


@pytest.mark.parametrize(("rules", "count"), [("classic", 300), ("casual", 200)])
def test_the_shipped_data_loads_and_every_candidate_is_legal(rules: str, count: int) -> None:
    header, positions = decisions.load(BENCHMARKS / "data" / f"decisions-{rules}.json")
    assert header["rules"] == rules and header["rollouts"] >= 256
    assert len(positions) >= count
    assert all(str(position.state.rules) == rules for position in positions)
    for position in positions:
        assert 2 <= len(position.paths) <= min(position.total, header["max_candidates"])
        assert all(0.0 <= value <= 1.0 for value in position.values)
        assert min(position.values) < position.best   # positions where nothing matters are dropped
        assert position.errors[position.values.index(position.best)] == 0.0
        assert all(error >= 0.0 for error in position.errors)
        start = position.state
        for path in position.paths:
            state = start
            for i, move in enumerate(path):
                assert move in legal_moves(state), (str(start), decisions.path_text(path))
                # The moves before the last reveal nothing and keep the turn (a draw from a hand
                # whose order is known may be one); the last leaves the turn segment or ends the game.
                leaves = type(move) in (EndTurn, Pass) or reveals(state, move)
                exit = leaves or type(move) is Draw
                state = decisions.follow(state, [move])
                if i < len(path) - 1:
                    assert not leaves, (str(start), decisions.path_text(path))
                else:
                    assert exit or state.is_over, (str(start), decisions.path_text(path))
