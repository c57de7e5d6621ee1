"""crapette.analysis: a game reviewed turn segment by turn segment, its mistakes marked by the value they lost."""

from __future__ import annotations

import math
import random

import pytest

from crapette import GameRecord, GameState, RecordError, apply_move, legal_moves, new_game, parse_move, reveals
from crapette.analysis import MISTAKE, MISTAKE_CHANCE, Review, analyse, reviews, segments
from crapette.bots import GreedyBot, PlanningBot, RandomBot, TreeSearchBot
from crapette.evaluation import CardCount

BOT = PlanningBot(seed=1, playouts=300)

_RANKS = "A 2 3 4 5 6 7 8 9 T".split()


def last_cards() -> GameState:
    """Classic, player 0 to move: playing the reserve's Q♥ and the drawn Q♣ wins the game at once.

    Every foundation is at its ten; player 1 has only Q♠ on its reserve and the eight jacks on its waste.
    """
    return GameState.from_piles(
        "classic",
        foundations=[" ".join(f"{rank}{suit}{deck}" for rank in _RANKS) for deck in (0, 1) for suit in "HDCS"],
        tableau=["KS0 QD0", "KC0 QH1", "KH0 QS0", "KD0 QC1", "KS1 QD1", "KC1", "KH1", "KD1"],
        reserves=["QH0", "QS1"],
        wastes=["QC0", "JH0 JD0 JC0 JS0 JH1 JD1 JC1 JS1"],
        drawn=True,
        move_count=300,
    )


class Cards:
    """A chance to win from the cards left (a steep logistic of CardCount): a judgement that any net would share."""

    def evaluate(self, state: GameState, player: int, rng: random.Random | None = None) -> float:
        return 1 / (1 + math.exp(-CardCount().evaluate(state, player, rng) / 2))


# By the value (the default) ------------------------------------------------------------------------


@pytest.mark.parametrize("moves", [["end"], ["R0-T5", "end"], ["T2-W1", "end"]])
def test_ending_the_turn_instead_of_winning_is_marked_by_the_value_it_lost(moves: list[str]) -> None:
    record = GameRecord("classic", None, moves, start=last_cards())
    (review,) = analyse(record, bot=PlanningBot(seed=1, playouts=50))
    assert review.judge == "value" and review.mistake and [str(m) for m in review.played] == moves
    assert review.best_value == 1.0 and review.best_wins == 1.0  # the best path wins the game in every deal
    assert review.best[-1] != parse_move("end") and len(review.best) == 2
    assert 0.0 <= review.value < 1.0 - MISTAKE_CHANCE and review.wins == 0.0
    assert review.cost == round(review.best_value - review.value, 6) and review.cost > MISTAKE_CHANCE
    low, high = review.interval
    assert 0.0 <= review.margin < 0.01 and MISTAKE_CHANCE < low <= review.cost <= high  # nothing is revealed
    assert review.note.startswith(f"mistake: {' '.join(map(str, review.best))} was better (lost ")
    assert "% of winning chances: 100.0% against " in review.note


def test_the_winning_path_is_not_marked() -> None:
    record = GameRecord("classic", None, ["W0-T6", "R0-T5"], start=last_cards())
    (review,) = analyse(record, bot=PlanningBot(seed=1, playouts=50))
    assert not review.mistake and review.best == review.played and review.value == review.best_value == 1.0
    assert review.cost == 0.0 and review.margin == 0.0 and review.note == "" and review.wins == 1.0


def test_a_card_left_unplayed_is_marked_by_a_judgement_in_cards_with_its_interval() -> None:
    # Classic, seed 3: Q♣ onto K♥ empties T2 for the reserve's 6♣; moving Q♣ back and drawing wastes it.
    # Judged by a chance to win made of the cards left, the card kept on the reserve costs about a quarter.
    record = GameRecord("classic", seed=3, moves=["T2-T3", "T3-T2", "draw"])
    (review,) = analyse(record, bot=PlanningBot(seed=1, playouts=100), evaluator=Cards())
    assert review.mistake and [str(m) for m in review.best] == ["T2-T3", "R0-T2"]
    assert 0.15 < review.cost < 0.35 and review.margin > 0  # the card the reserve uncovers varies with the deal
    assert review.interval[0] > MISTAKE_CHANCE
    (good,) = analyse(GameRecord("classic", seed=3, moves=["T2-T3", "R0-T2"]), bot=PlanningBot(seed=1, playouts=100),
                      evaluator=Cards())
    assert not good.mistake and good.best == good.played and good.cost == 0.0


@pytest.mark.parametrize(
    ("best", "mistake"),
    [
        ([0.5, 0.7] * 20, True),  # a loss of 0.1, sure: the interval lies above 0
        ([0.2, 1.0] * 20, False),  # the same loss, unsure: the interval reaches below 0
        ([0.44, 0.44] * 20, False),  # sure, but below the threshold (0.04)
        ([0.36, 0.36] * 20, False),  # worse than the path played: no better path
    ],
)
def test_a_loss_is_a_mistake_when_it_is_over_the_threshold_and_sure(
    monkeypatch: pytest.MonkeyPatch, best: list[float], mistake: bool
) -> None:
    from crapette import analysis

    record = GameRecord("classic", seed=3, moves=["T2-T3", "T3-T2", "draw"])
    other = (parse_move("T2-T3"), parse_move("R0-T2"))

    def values(
        v: object, paths: list[object], deals: int, seed: int, judge: object
    ) -> tuple[list[list[float]], list[float]]:
        # The path played is worth 0.5 in every deal, T2-T3 R0-T2 what ``best`` says, deal by deal; any other 0.
        rows = [[0.5] * len(best) if p == record.moves else best[:] if p == other else [0.0] * len(best) for p in paths]
        return rows, [0.0] * len(paths)

    monkeypatch.setattr(analysis, "_values", values)
    (review,) = analyse(record, bot=BOT)
    assert review.mistake is mistake
    spread = [b - 0.5 for b in best]
    mean = sum(spread) / len(spread)
    if mean <= 0:
        assert review.best == review.played and review.cost == 0.0 and review.margin == 0.0
    else:
        sd = math.sqrt(sum((d - mean) ** 2 for d in spread) / (len(spread) - 1))
        assert review.cost == pytest.approx(mean)
        assert review.margin == pytest.approx(1.959964 * sd / math.sqrt(len(best)))
        assert (review.interval[0] > 0) == (review.margin < review.cost)


def test_the_unseen_cards_are_dealt_where_the_path_would_have_left_them() -> None:
    # Each deal is put under the position before a path's last move: the same as following the path in it.
    from crapette import analysis
    from crapette._views.view import dealer, view
    from crapette.bots.planner import segment_paths

    state = new_game("classic", seed=4)
    bots = (GreedyBot(), RandomBot(seed=3))
    checked = 0
    rng = random.Random(5)
    while checked < 40 and not state.is_over:
        v = view(state)
        deal = dealer(v)
        slots = [(pid, n) for _, _, own in deal.own for pid, n in own] + deal.shared
        start = deal.deal(None)
        for path in segment_paths(v)[:5]:
            world = deal.deal(rng)
            unseen = [(pid, n, world.piles[pid][:n]) for pid, n in slots]
            placed = analysis._dealt(analysis._follow(start, path[:-1]), unseen)
            assert placed == analysis._follow(world, path[:-1])
            checked += 1
        state = apply_move(state, bots[state.current_player].choose(state))
    assert checked >= 40


# By the playouts (judge="playout"), in cards -------------------------------------------------------


def test_a_segment_that_shuttles_then_draws_is_marked_with_the_planned_path() -> None:
    # Classic, seed 3: Q♣ onto K♥ empties T2 for the reserve's 6♣; moving Q♣ back and drawing wastes it.
    record = GameRecord("classic", seed=3, moves=["T2-T3", "T3-T2", "draw"])
    (review,) = analyse(record, bot=BOT, judge="playout")
    assert (review.index, review.end, review.player, review.judge) == (0, 2, 0, "playout")
    assert [str(m) for m in review.played] == ["T2-T3", "T3-T2", "draw"]
    assert [str(m) for m in review.best] == ["T2-T3", "R0-T2"]
    assert review.mistake and review.cost > MISTAKE and review.best_value > review.value
    assert review.note.startswith("mistake: T2-T3 R0-T2 was better (")


@pytest.mark.parametrize("judge", ["value", "playout"])
def test_the_planned_path_is_not_a_mistake(judge: str) -> None:
    record = GameRecord("classic", seed=3, moves=["T2-T3", "R0-T2"])
    (review,) = analyse(record, bot=BOT, judge=judge)
    assert not review.mistake and review.best == review.played and review.cost == 0.0 and review.note == ""


def test_segments_end_with_a_reveal_or_a_change_of_player() -> None:
    state = new_game("classic", seed=5)
    bot = RandomBot(seed=2)
    states = [state]
    while len(states) <= 120 and not state.is_over:
        state = apply_move(state, bot.choose(state))
        states.append(state)
    record = GameRecord.from_states(states, seed=5)
    found = list(segments(record))
    assert found[0][0] == 0
    covered = 0
    for index, start, moves in found:
        assert index == covered and start == states[index]  # the segments follow one another
        for i, move in enumerate(moves):
            before, after = states[index + i], states[index + i + 1]
            ends = reveals(before, move) or after.is_over or after.current_player != before.current_player
            assert ends == (i == len(moves) - 1)
        covered += len(moves)
    for i in range(covered, len(record.moves)):  # the moves left over end no segment
        before, after = states[i], states[i + 1]
        assert not reveals(before, record.moves[i]) and after.current_player == before.current_player


@pytest.mark.parametrize("judge", ["value", "playout"])
def test_only_segments_with_a_choice_are_reviewed_with_values_in_the_judgements_unit(judge: str) -> None:
    state = new_game("classic", seed=4)
    bots = (GreedyBot(), RandomBot(seed=3))
    states = [state]
    while len(states) <= 80:
        state = apply_move(state, bots[state.current_player].choose(state))
        states.append(state)
    record = GameRecord.from_states(states, seed=4)
    marks = analyse(record, bot=PlanningBot(seed=1, playouts=60), judge=judge)
    starts = {index: (start, moves) for index, start, moves in segments(record)}
    assert marks and all(m.index in starts for m in marks)
    for m in marks:
        start, moves = starts[m.index]
        assert m.played == moves and m.player == start.current_player and len(legal_moves(start)) >= 1
        assert m.best_value >= m.value and m.judge == judge and m.margin >= 0
        if judge == "value":  # chances to win; a mistake loses more than 4% of them, surely
            assert 0 <= m.value <= m.best_value <= 1
            assert m.mistake == (m.cost > MISTAKE_CHANCE and m.cost - m.margin > 0)
        else:
            assert m.mistake == (m.cost > MISTAKE) and m.margin == 0
    skipped = [s for i, (s, _) in starts.items() if i not in {m.index for m in marks}]
    assert all(len(legal_moves(s)) == 1 for s in skipped)  # a single way on is no decision


def test_the_weaker_bot_gets_more_mistakes_marked_per_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    # A few short games of greedy against random, seats swapped: the random bot errs more (by the value).
    from crapette import analysis

    # The best ranked 20 ways to end a segment, in fewer deals: quick on pure Python, the same marks here.
    monkeypatch.setattr(analysis, "MAX_CANDIDATES", 20)
    monkeypatch.setattr(analysis, "MIN_DEALS", 8)
    tally = {"greedy": [0, 0], "random": [0, 0]}
    planner = PlanningBot(seed=11, playouts=60)
    for game in range(4):
        names = ("greedy", "random") if game % 2 == 0 else ("random", "greedy")
        bots = {"greedy": GreedyBot(), "random": RandomBot(seed=game)}
        state = new_game("classic", seed=20 + game // 2)
        states = [state]
        while len(states) <= 150 and not state.is_over:
            state = apply_move(state, bots[names[state.current_player]].choose(state))
            states.append(state)
        for review in reviews(GameRecord.from_states(states, seed=20 + game // 2), bot=planner):
            tally[names[review.player]][0] += 1
            tally[names[review.player]][1] += review.mistake
    greedy, random_ = (tally[n][1] / tally[n][0] for n in ("greedy", "random"))
    assert tally["greedy"][0] >= 10 and tally["random"][0] >= 10
    assert random_ > greedy, tally


def test_progress_is_reported_and_reviews_come_one_at_a_time() -> None:
    record = GameRecord("classic", seed=3, moves=["T2-T3", "R0-T2", "draw"])
    seen: list[tuple[int, int]] = []
    marks = analyse(record, bot=PlanningBot(seed=1, playouts=30), progress=lambda done, total: seen.append((done, total)))
    assert seen == [(m.end + 1, 3) for m in marks] and seen
    assert tuple(reviews(record, bot=PlanningBot(seed=1, playouts=30))) == marks
    assert analyse(record, bot=PlanningBot(seed=1, playouts=30), players=1) == ()


@pytest.mark.parametrize("judge", ["value", "playout"])
def test_the_same_arguments_give_the_same_reviews(judge: str) -> None:
    record = GameRecord("classic", seed=3, moves=["T2-T3", "T3-T2", "draw"])
    first = analyse(record, bot=PlanningBot(seed=2, playouts=80), judge=judge)
    assert first == analyse(record, bot=PlanningBot(seed=2, playouts=80), judge=judge)


def test_a_tree_search_bot_and_every_move_are_deprecated() -> None:
    record = GameRecord("classic", seed=3, moves=["T2-T3", "R0-T2"])
    with pytest.warns(DeprecationWarning, match="PlanningBot"):
        old = analyse(record, bot=TreeSearchBot(seed=1, playouts=40))
    assert old == analyse(record, bot=PlanningBot(seed=1, playouts=40))
    with pytest.warns(DeprecationWarning, match="every_move"):
        analyse(record, bot=PlanningBot(seed=1, playouts=40), every_move=4)
    with pytest.warns(DeprecationWarning, match="cost_in_points"):
        assert old[0].cost_in_points == old[0].cost


def test_bad_arguments_and_illegal_records_are_refused() -> None:
    record = GameRecord("casual", seed=2, moves=["T3-T0", "R1-F0"])
    with pytest.raises(RecordError, match="illegal move R1-F0"):
        analyse(record, bot=PlanningBot(seed=1, playouts=20))
    with pytest.raises(TypeError, match="GameRecord"):
        analyse("casual")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="GameRecord"):
        list(segments("casual"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="PlanningBot"):
        analyse(GameRecord("casual", seed=1), bot="strong")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threshold"):
        analyse(GameRecord("casual", seed=1), threshold=-1)
    with pytest.raises(ValueError, match="share of winning chances"):
        analyse(GameRecord("casual", seed=1), threshold=2.0)  # cards, by the value
    assert analyse(GameRecord("casual", seed=1), threshold=2.0, judge="playout") == ()
    with pytest.raises(ValueError, match="judge"):
        analyse(GameRecord("casual", seed=1), judge="cards")
    with pytest.raises(ValueError, match="judge='value'"):
        analyse(GameRecord("casual", seed=1), judge="playout", evaluator=Cards())
    with pytest.raises(TypeError, match="evaluate"):
        analyse(GameRecord("casual", seed=1), evaluator=object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="judge"):
        Review(0, 0, parse_move("draw"), parse_move("draw"), 0.5, 0.5, False, judge="cards")
    with pytest.raises(ValueError, match="players"):
        analyse(GameRecord("casual", seed=1), players=2)


def test_a_review_takes_a_single_move_as_a_path_and_without_a_mistake_has_no_note() -> None:
    move = legal_moves(new_game("casual", seed=1))[0]
    review = Review(0, 0, move, move, 0.5, 0.5, False)
    assert review.played == (move,) == review.best and review.end == 0
    assert review.note == "" and review.cost == 0.0 and review.interval == (0.0, 0.0)
    assert review.judge == "playout" and review.margin == 0.0  # a review made by hand, as before 0.3.0's value


# By the playouts: games won apart from cards ---------------------------------------------------


def test_a_game_won_is_counted_apart_from_the_cards() -> None:
    # Casual, seed 1, greedy against random: player 1 wins by emptying its piles at move 272.
    state = new_game("casual", seed=1)
    states = [state]
    bots = (GreedyBot(), RandomBot(seed=2))
    while not state.is_over:
        state = apply_move(state, bots[state.current_player].choose(state))
        states.append(state)
    start = len(states) - 60
    tail = GameRecord("casual", None, GameRecord.from_states(states, seed=1).moves[start:], start=states[start])
    found = analyse(tail, bot=PlanningBot(seed=0, playouts=200), judge="playout")
    assert any(r.wins or r.best_wins for r in found)  # games end within the look-ahead here
    for review in found:
        assert abs(review.value) < 200 and abs(review.best_value) < 200  # cards: a win's bonus is not in them
        assert -1 <= review.wins <= 1 and -1 <= review.best_wins <= 1
        assert "10000" not in review.note and "cards against +1000" not in review.note


@pytest.mark.parametrize(
    ("played", "best", "mistake", "note"),
    [
        # A path that wins more often is better whatever the cards; the note says so without cards.
        ((-10.0, -10.0, 0.0), (6642.7, -12.0, 0.66), True,
         "mistake: R0-T2 was better (games won less lost in +66% of the deals against +0%)"),
        # Between paths that win as often, cards against the threshold of 2 cards.
        ((5.0, 5.0, 0.0), (6.5, 6.5, 0.0), False, ""),
        ((5.0, 5.0, 0.0), (8.0, 8.0, 0.0), True, "mistake: R0-T2 was better (+8.0 cards against +5.0, 3.0 lost)"),
        ((-9995.0, 5.0, -1.0), (-9992.0, 8.0, -1.0), True,
         "mistake: R0-T2 was better (+8.0 cards against +5.0, 3.0 lost)"),
        # A path that wins less often is no correction, however many cards it gains.
        ((5005.0, 5.0, 0.5), (5006.0, 206.0, 0.49), False, ""),
    ],
)
def test_the_threshold_compares_cards_with_cards(
    monkeypatch: pytest.MonkeyPatch,
    played: tuple[float, float, float],
    best: tuple[float, float, float],
    mistake: bool,
    note: str,
) -> None:
    from crapette import analysis

    def outcomes(v: object, paths: list[object], worlds: int, seed: int = 0) -> list[tuple[float, float, float]]:
        return [played if path == paths[0] else best if i == 1 else (-1e9, 0.0, -1.0) for i, path in enumerate(paths)]

    monkeypatch.setattr(analysis, "path_outcomes", outcomes)
    record = GameRecord("classic", seed=3, moves=["T2-T3", "T3-T2", "draw"])
    (review,) = analyse(record, bot=BOT, judge="playout")
    assert review.mistake is mistake and review.note.replace("T2-T3 R0-T2", "R0-T2") == note
    assert (review.value, review.wins) == (played[1], played[2])
    assert "6642" not in review.note
