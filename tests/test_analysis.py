"""crapette.analysis: the turn planner reviews a game turn segment by turn segment and marks its mistakes."""

from __future__ import annotations

import pytest

from crapette import GameRecord, RecordError, apply_move, legal_moves, new_game, reveals
from crapette.analysis import MISTAKE, Review, analyse, reviews, segments
from crapette.bots import GreedyBot, PlanningBot, RandomBot, TreeSearchBot

BOT = PlanningBot(seed=1, playouts=300)


def test_a_segment_that_shuttles_then_draws_is_marked_with_the_planned_path() -> None:
    # Classic, seed 3: Q♣ onto K♥ empties T2 for the reserve's 6♣; moving Q♣ back and drawing wastes it.
    record = GameRecord("classic", seed=3, moves=["T2-T3", "T3-T2", "draw"])
    (review,) = analyse(record, bot=BOT)
    assert (review.index, review.end, review.player) == (0, 2, 0)
    assert [str(m) for m in review.played] == ["T2-T3", "T3-T2", "draw"]
    assert [str(m) for m in review.best] == ["T2-T3", "R0-T2"]
    assert review.mistake and review.cost > MISTAKE and review.best_value > review.value
    assert review.note.startswith("mistake: T2-T3 R0-T2 was better (")


def test_the_planned_path_is_not_a_mistake() -> None:
    record = GameRecord("classic", seed=3, moves=["T2-T3", "R0-T2"])
    (review,) = analyse(record, bot=BOT)
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


def test_only_segments_with_a_choice_are_reviewed_and_values_are_in_cards() -> None:
    state = new_game("classic", seed=4)
    bots = (GreedyBot(), RandomBot(seed=3))
    states = [state]
    while len(states) <= 80:
        state = apply_move(state, bots[state.current_player].choose(state))
        states.append(state)
    record = GameRecord.from_states(states, seed=4)
    marks = analyse(record, bot=PlanningBot(seed=1, playouts=60))
    starts = {index: (start, moves) for index, start, moves in segments(record)}
    assert marks and all(m.index in starts for m in marks)
    for m in marks:
        start, moves = starts[m.index]
        assert m.played == moves and m.player == start.current_player and len(legal_moves(start)) >= 1
        assert m.best_value >= m.value and m.mistake == (m.cost > MISTAKE)
    skipped = [s for i, (s, _) in starts.items() if i not in {m.index for m in marks}]
    assert all(len(legal_moves(s)) == 1 for s in skipped)  # a single way on is no decision


def test_the_weaker_bot_gets_more_mistakes_marked_per_decision() -> None:
    # A few short games of greedy against random, seats swapped: the random bot errs more.
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


def test_the_same_arguments_give_the_same_reviews() -> None:
    record = GameRecord("classic", seed=3, moves=["T2-T3", "T3-T2", "draw"])
    assert analyse(record, bot=PlanningBot(seed=2, playouts=80)) == analyse(record, bot=PlanningBot(seed=2, playouts=80))


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
    with pytest.raises(ValueError, match="players"):
        analyse(GameRecord("casual", seed=1), players=2)


def test_a_review_takes_a_single_move_as_a_path_and_without_a_mistake_has_no_note() -> None:
    move = legal_moves(new_game("casual", seed=1))[0]
    review = Review(0, 0, move, move, 0.5, 0.5, False)
    assert review.played == (move,) == review.best and review.end == 0
    assert review.note == "" and review.cost == 0.0


# Units: games won apart from cards -------------------------------------------------------------


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
    found = analyse(tail, bot=PlanningBot(seed=0, playouts=200))
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
    (review,) = analyse(record, bot=BOT)
    assert review.mistake is mistake and review.note.replace("T2-T3 R0-T2", "R0-T2") == note
    assert (review.value, review.wins) == (played[1], played[2])
    assert "6642" not in review.note
