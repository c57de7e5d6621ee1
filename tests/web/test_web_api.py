"""The web example (examples/web/server.py) over HTTP, without a browser.

Each test talks to a real server on 127.0.0.1 through the standard library's
HTTP client, and checks what a page would see: the public view only, the
engine's reasons for illegal moves, and a clear 4xx for every bad request,
which never changes a game.
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web example needs the 'web' extra: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web example needs the 'web' extra: pip install '.[web]'")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from crapette import (  # noqa: E402
    ALL_CARDS,
    GameRecord,
    GameState,
    RuleSet,
    apply_move,
    explain_illegal,
    new_game,
    parse_card,
    parse_move,
    parse_record,
    position_key,
    reveals,
    view,
)
from crapette.bots import PlanningBot  # noqa: E402
from crapette.wording import describe_played, symbols  # noqa: E402

SERVER_PATH = Path(__file__).resolve().parents[2] / "examples" / "web" / "server.py"


def load_server() -> ModuleType:
    """The web example's server module (loaded once, from its file)."""
    name = "crapette_web_server"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, SERVER_PATH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


web = load_server()

#: A card in notation, as the view writes it.
CARD = re.compile(r"\b[A2-9TJQK][SHDC][01]\b")


def hidden_cards(state: GameState) -> set[str]:
    """The cards of ``state`` nobody has seen: each reserve below its known top cards, and the
    hands not formed by turning the waste over (what the game's history made known may be shown)."""
    hidden = set()
    for p in (0, 1):
        reserve = state.reserves[p]
        hidden.update(str(c) for c in reserve[: max(0, len(reserve) - 1 - state.reserve_known[p])])
        if not state.hand_known[p]:
            hidden.update(str(c) for c in state.hands[p])
    return hidden


def assert_hides(text: str, state: GameState) -> None:
    shown = set(CARD.findall(text)) & hidden_cards(state)
    assert not shown, f"face-down cards in a response: {sorted(shown)}"


def near_end() -> GameState:
    """A classic position where player 0 wins in four moves: R0-F0, R0-F1, draw, W0-F2.

    Player 0 has KD0 under KH0 in the reserve and KS0 in the hand; player 1 has
    KS1 in the reserve and KC1 in the hand; every other card is on the foundations.
    Face down: KD0, KS0 and KC1.
    """

    def run(suit: str, deck: int, high: int) -> list[Any]:
        return [parse_card(f"{rank}{suit}{deck}") for rank in "A23456789TJQK"[:high]]

    return GameState.from_piles(
        RuleSet.classic(),
        foundations=[run("H", 0, 12), run("D", 0, 12), run("S", 0, 12), run("C", 0, 13),
                     run("H", 1, 13), run("D", 1, 13), run("S", 1, 12), run("C", 1, 12)],
        reserves=[[parse_card("KD0"), parse_card("KH0")], [parse_card("KS1")]],
        hands=[[parse_card("KS0")], [parse_card("KC1")]],
    )


class Client:
    """Requests to one server; every answer is (status, JSON or text, headers)."""

    def __init__(self, address: str, store: Any) -> None:
        self.host, port = address.removeprefix("http://").split(":")
        self.port = int(port)
        self.store = store
        #: The client's cookie, as a browser keeps it: set by the server's first answer.
        self.cookie: str | None = None

    def other(self) -> Client:
        """Another client of the same server: no cookie yet."""
        return Client(f"http://{self.host}:{self.port}", self.store)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
        chunked: bool = False,
        as_text: bool = False,
    ) -> tuple[int, Any, http.client.HTTPMessage]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            data: Any = raw if raw is not None else None if body is None else json.dumps(body).encode()
            if chunked:
                data = iter([data[i : i + 8192] for i in range(0, len(data), 8192)])
            sent = dict(headers or {})
            if data is not None and not any(key.lower() == "content-type" for key in sent):
                sent["Content-Type"] = "application/json"
            own = not any(key.lower() == "cookie" for key in sent)
            if self.cookie and own:
                sent["Cookie"] = self.cookie
            connection.request(method, path, body=data, headers=sent, encode_chunked=chunked)
            response = connection.getresponse()
            text = response.read().decode()
            cookie = response.getheader("set-cookie")
            if cookie and own:  # as a browser keeps it: the server names the client, and renames it
                self.cookie = cookie.split(";")[0]
            kind = response.getheader("content-type", "")
            parsed = kind.startswith("application/json") and not as_text
            return response.status, json.loads(text) if parsed else text, response.msg
        finally:
            connection.close()

    def ok(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        code, data, _ = self.request(method, path, body)
        assert code == status, data
        return data

    def new(self, **body: Any) -> dict[str, Any]:
        data: dict[str, Any] = self.ok("POST", "/api/games", body, status=201)
        return data

    def state(self, game: dict[str, Any]) -> GameState:
        """The true state of a game, as the server holds it."""
        session = self.store.find(game["id"])
        assert session is not None
        state: GameState = session.game.state
        return state

    def states(self, game: dict[str, Any]) -> list[GameState]:
        """Every state of a game so far, as the server holds them."""
        session = self.store.find(game["id"])
        assert session is not None
        return list(session.game.states)

    def refused(self, method: str, path: str, body: Any = None, **options: Any) -> tuple[int, str]:
        """Send a request that must be refused; return its status and message."""
        code, data, _ = self.request(method, path, body, **options)
        assert 400 <= code < 500, (code, data)
        assert isinstance(data, dict) and set(data) == {"error"} and data["error"], data
        return code, data["error"]


def app(store: Any, **limits: Any) -> Any:
    """The web app over ``store``, for tests that send requests as fast as they can from one address."""
    options = {"address_rate": 1e6, "client_rate": 1e6, **limits}
    return web.create_app(store, limits=web.Limits(**options))


@pytest.fixture(scope="module")
def server() -> Iterator[Client]:
    # One client makes every game of this module: room for all of them.
    store = web.GameStore(per_client=10_000, per_address=10_000, creates_per_minute=10_000)
    with web.serve_in_thread(app(store)) as address:
        yield Client(address, store)


def unchanged(client: Client, game: dict[str, Any]) -> None:
    """The game is as ``game`` shows it: same view, same moves."""
    now = client.ok("GET", f"/api/games/{game['id']}")
    assert now == game


def bot_starts(client: Client, **body: Any) -> dict[str, Any]:
    """A casual game in which the human plays player 1, so the bot moves first."""
    return client.new(rules="casual", seed=body.pop("seed", 1), seat=1, bot="random", **body)


# New games --------------------------------------------------------------------


def test_a_new_game_sends_the_public_view_and_nothing_face_down(server: Client) -> None:
    game = server.new(rules="classic", seed=5, bot="greedy")
    state = new_game("classic", seed=5)
    assert game["view"] == view(state).to_dict()
    assert (game["seed"], game["bot"], game["seat"], game["moves"], game["can_undo"]) == (None, "greedy", 0, [], False)
    assert game["turn"] == ("you" if state.current_player == 0 else "bot")
    assert game["match"] == {"target": 150, "totals": [0, 0], "games": 0, "winner": None}
    assert server.state(game) == state
    assert_hides(json.dumps(game), state)


def test_a_new_game_without_settings_is_a_classic_deal_against_the_search_bot(server: Client) -> None:
    game = server.new()
    assert game["view"]["rules"] == "classic" and game["bot"] == "search" and game["seat"] == 0
    seed = server.store.find(game["id"]).game.seed
    assert game["seed"] is None and isinstance(seed, int) and 0 <= seed < 2**64 == web.RANDOM_SEEDS
    assert server.state(game) == new_game("classic", seed=seed)


def test_a_rules_text_sets_the_rules(server: Client) -> None:
    game = server.new(rules="casual(move_limit=40)", seed=3)
    assert game["view"]["rules"] == "casual(move_limit=40)"
    assert game["view"]["options"]["move_limit"] == 40
    assert game["match"] is None  # casual games are not scored


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"rules": "poker"}, "unknown preset 'poker'"),
        ({"rules": "classic(move_limit=-3)"}, "move_limit"),
        ({"rules": 5}, "'rules' must be a string, got int"),
        ({"seed": -1}, "'seed' must be a whole number from 0 to 2**64 - 1, got -1"),
        ({"seed": 2**64}, "'seed' must be a whole number"),
        ({"seed": "12"}, "'seed' must be a whole number"),
        ({"seed": True}, "'seed' must be a whole number"),
        ({"seed": 1.5}, "'seed' must be a whole number"),
        ({"bot": "chess"}, "'bot' must be one of random, greedy, montecarlo, plan, plan:easy, plan:normal, plan:strong, search, search:easy, search:normal, search:strong, got 'chess'"),
        ({"seat": 2}, "'seat' must be one of 0, 1, got 2"),
        ({"seat": "0"}, "'seat' must be one of 0, 1"),
        ({"colour": "red"}, "unknown field 'colour'"),
        ({"position": "classic 0 0 nonsense"}, "invalid position"),
        ({"position": "x" * 20000}, "'position' is too long"),
        ({"position": str(near_end()), "seed": 3}, "either a deal"),
        ({"record": "{"}, "invalid record JSON"),
        ({"record": '[Rules "classic"]\n[Seed "3"]\n\n1. T9-F0 *'}, "invalid pile 'T9'"),
        ({"record": '[Rules "casual"]\n[Seed "1"]\n\n1. R0-T4 *'}, "KD0 does not go on JS1"),
    ],
)
def test_a_bad_new_game_request_is_a_400_and_starts_nothing(
    server: Client, body: dict[str, Any], message: str
) -> None:
    before = len(server.store)
    status, error = server.refused("POST", "/api/games", body)
    assert status == 400
    assert message in error
    assert len(server.store) == before


def test_a_position_string_sets_up_a_position_and_its_face_down_cards_stay_hidden(server: Client) -> None:
    state = near_end()
    game = server.new(position=str(state), bot="greedy")
    assert game["seed"] is None
    assert game["view"] == view(state).to_dict()
    assert_hides(json.dumps(game), state)
    assert hidden_cards(state) == {"KD0", "KS0", "KC1"}


# Bad requests about a game ---------------------------------------------------------

ENDPOINTS = [
    ("GET", ""),
    ("POST", "/moves"),
    ("POST", "/bot"),
    ("POST", "/undo"),
    ("GET", "/hint"),
    ("GET", "/record"),
]


@pytest.mark.parametrize(("method", "suffix"), ENDPOINTS)
def test_an_unknown_game_id_is_a_404(server: Client, method: str, suffix: str) -> None:
    body = {"move": "draw"} if suffix == "/moves" else None
    status, error = server.refused(method, f"/api/games/no-such-game{suffix}", body)
    assert status == 404
    assert error.startswith("no game 'no-such-game': it has ended on the server")


def test_unknown_addresses_and_methods_are_refused_as_json(server: Client) -> None:
    game = server.new(seed=1)
    assert server.refused("GET", "/api/nothing") == (404, "no such address: /api/nothing")
    assert server.refused("GET", "/static/nothing.js") == (404, "no such address: /static/nothing.js")
    assert server.refused("GET", "/api/games") == (405, "GET is not allowed here")
    assert server.refused("DELETE", f"/api/games/{game['id']}") == (405, "DELETE is not allowed here")
    unchanged(server, game)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"move": "R0-X9"}, "invalid move 'R0-X9': invalid pile 'X9'"),
        ({"move": "H0-T1"}, "source H0 cannot be a move's source"),
        ({"move": "T0-T1x1"}, "a stack move carries 2 to 13 cards, got 1"),
        ({"move": ""}, "invalid move ''"),
        ({"move": "x" * 33}, "'move' is too long (33 characters, at most 32)"),
        ({"move": 3}, "'move' must be a string, got int"),
        ({"move": ["draw"]}, "'move' must be a string, got list"),
        ({}, 'give the move as {"move": "R0-F3"}'),
        ({"move": "draw", "player": 1}, "unknown field 'player'; the fields are: move"),
    ],
)
def test_a_malformed_move_is_a_400_and_changes_nothing(
    server: Client, body: dict[str, Any], message: str
) -> None:
    game = server.new(rules="casual", seed=1)
    status, error = server.refused("POST", f"/api/games/{game['id']}/moves", body)
    assert status == 400 and message in error, error
    unchanged(server, game)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"{", "the request body is not valid JSON: Expecting property name"),
        (b'{"move": "draw",}', "the request body is not valid JSON"),
        (b"[1, 2]", "the request body must be a JSON object, got list"),
        (b'"draw"', "the request body must be a JSON object, got str"),
        (b"\xff\xfe{}", "the request body is not UTF-8 text"),
        (b"[" * 60000, "the request body is not valid JSON"),
    ],
)
def test_a_body_that_is_not_a_json_object_is_a_400_and_changes_nothing(
    server: Client, raw: bytes, message: str
) -> None:
    game = server.new(rules="casual", seed=1)
    for path in (f"/api/games/{game['id']}/moves", f"/api/games/{game['id']}/undo", "/api/games"):
        status, error = server.refused("POST", path, raw=raw, headers={"Content-Type": "application/json"})
        assert status == 400 and error.startswith(message), error
    unchanged(server, game)


@pytest.mark.parametrize("chunked", [False, True], ids=["with-length", "chunked"])
def test_an_oversized_body_is_a_413_and_changes_nothing(server: Client, chunked: bool) -> None:
    game = server.new(rules="casual", seed=1)
    before = len(server.store)
    big = json.dumps({"move": "draw", "padding": "x" * web.MAX_BODY}).encode()
    for path in (f"/api/games/{game['id']}/moves", "/api/games"):
        status, error = server.refused("POST", path, raw=big, chunked=chunked)
        assert status == 413 and error.startswith("request body too large"), error
    assert len(server.store) == before
    unchanged(server, game)


def test_a_record_of_max_moves_fits_in_a_body() -> None:
    record = GameRecord("classic", seed=2**64 - 1, moves=["T0-T7x13"] * web.MAX_MOVES)  # the longest moves
    for text in (record.to_json(indent=1), str(record)):
        assert len(json.dumps({"record": text})) < web.MAX_BODY


def test_a_move_while_the_bot_is_to_move_is_a_409_and_changes_nothing(server: Client) -> None:
    game = bot_starts(server)
    assert game["turn"] == "bot"
    status, error = server.refused("POST", f"/api/games/{game['id']}/moves", {"move": "draw"})
    assert (status, error) == (409, "it is the computer's turn (player 0): wait for its move")
    assert server.refused("GET", f"/api/games/{game['id']}/hint")[0] == 409
    unchanged(server, game)


def test_a_move_of_the_other_players_cards_is_refused_with_the_engines_reason(server: Client) -> None:
    game = server.new(rules="casual", seed=1, seat=0)
    status, error = server.refused("POST", f"/api/games/{game['id']}/moves", {"move": "R1-T0"})
    assert (status, error) == (422, "illegal move R1-T0: R1 is player 1's reserve and player 0 is to move")
    unchanged(server, game)


@pytest.mark.parametrize("move", ["R0-T4", "T1-T2", "end", "pass", "R0-W1", "W0-F0"])
def test_an_illegal_move_is_a_422_with_the_engines_reason(server: Client, move: str) -> None:
    game = server.new(rules="casual", seed=1)
    state = server.state(game)
    status, error = server.refused("POST", f"/api/games/{game['id']}/moves", {"move": move})
    assert (status, error) == (422, symbols(f"illegal move {move}: {explain_illegal(state, parse_move(move))}"))
    unchanged(server, game)


def test_the_reason_names_cards_as_the_table_shows_them(server: Client) -> None:
    game = server.new(rules="casual", seed=1)
    status, error = server.refused("POST", f"/api/games/{game['id']}/moves", {"move": "R0-T4"})
    assert (status, error) == (422, "illegal move R0-T4: K♦ does not go on J♠: T4 builds up or down in suit for player 0")


# Playing --------------------------------------------------------------------------


def test_a_legal_move_is_played(server: Client) -> None:
    game = server.new(rules="casual", seed=1)
    after = server.ok("POST", f"/api/games/{game['id']}/moves", {"move": "T1-T0"})
    expected = apply_move(new_game("casual", seed=1), parse_move("T1-T0"))
    assert after["view"] == view(expected).to_dict()
    assert after["moves"] == [{"player": 0, "move": "T1-T0", "text": "2♦ onto 3♣"}]
    assert after["can_undo"] is True


def test_every_move_comes_with_its_words(server: Client) -> None:
    game = bot_starts(server, seed=4)
    while game["turn"] == "bot":
        game = server.ok("POST", f"/api/games/{game['id']}/bot")
    states = server.states(game)
    names = ("you", "the computer") if game["seat"] == 0 else ("the computer", "you")
    for i, entry in enumerate(game["moves"]):
        assert entry["text"] == describe_played(states[i], parse_move(entry["move"]), states[i + 1], names=names)
    undone = server.ok("POST", f"/api/games/{game['id']}/moves", {"move": game["view"]["legal_moves"][0]})
    assert [m["text"] for m in undone["moves"][:-1]] == [m["text"] for m in game["moves"]]


def test_the_bot_plays_one_move_a_request_until_it_is_the_players_turn(server: Client) -> None:
    game = bot_starts(server, seed=4)
    count = 0
    while game["turn"] == "bot":
        before = server.state(game)
        game = server.ok("POST", f"/api/games/{game['id']}/bot")
        count += 1
        assert game["view"]["move_count"] == count
        assert len(game["moves"]) == count and game["moves"][-1]["player"] == 0
        assert apply_move(before, parse_move(game["moves"][-1]["move"])) == server.state(game)
    assert game["turn"] == "you"
    status, error = server.refused("POST", f"/api/games/{game['id']}/bot")
    assert (status, error) == (409, "it is your turn (player 1), not the computer's")
    unchanged(server, game)


def test_undo_takes_back_the_players_last_move_that_revealed_nothing(server: Client) -> None:
    game = server.new(rules="classic", seed=1, bot="random")  # player 0 moves first: R0-T5 T7-T1 draw
    path = f"/api/games/{game['id']}"
    status, error = server.refused("POST", path + "/undo")
    assert (status, error) == (409, "nothing to undo: you have not moved yet")
    moved = server.ok("POST", path + "/moves", {"move": "T7-T1"})
    assert moved["can_undo"]
    undone = server.ok("POST", path + "/undo")
    assert undone == game
    assert server.state(undone) == new_game("classic", seed=1)


def test_web_draw_undo_draw_again_is_not_possible(server: Client) -> None:
    game = server.new(rules="classic", seed=3, bot="random")  # player 0 moves first and may draw
    path = f"/api/games/{game['id']}"
    drawn = server.ok("POST", path + "/moves", {"move": "draw"})
    assert not drawn["can_undo"]
    status, error = server.refused("POST", path + "/undo")
    assert status == 409 and "a card has been turned face up since" in error
    unchanged(server, drawn)


def test_web_undoing_a_reserve_play_that_uncovered_a_card_is_impossible(server: Client) -> None:
    game = server.new(rules="classic", seed=1, bot="random")
    path = f"/api/games/{game['id']}"
    server.ok("POST", path + "/moves", {"move": "R0-T5"})  # uncovers the next reserve card
    server.ok("POST", path + "/moves", {"move": "T7-T1"})
    undone = server.ok("POST", path + "/undo")  # T7-T1 revealed nothing: it comes back
    assert [m["move"] for m in undone["moves"]] == ["R0-T5"] and not undone["can_undo"]
    status, error = server.refused("POST", path + "/undo")
    assert status == 409 and "taking it back would show it again" in error
    unchanged(server, undone)


def test_web_undoing_past_the_bots_draw_is_impossible(server: Client) -> None:
    game = bot_starts(server, seed=4)
    path = f"/api/games/{game['id']}"
    while game["turn"] == "bot":
        game = server.ok("POST", path + "/bot")
    while game["turn"] == "you":
        game = server.ok("POST", path + "/moves", {"move": game["view"]["legal_moves"][-1]})
    while game["turn"] == "bot":
        game = server.ok("POST", path + "/bot")
    assert any(m["move"] == "draw" and m["player"] == 0 for m in game["moves"][-10:])
    assert not game["can_undo"]
    status, error = server.refused("POST", path + "/undo")
    assert status == 409 and "taking it back would show it again" in error
    unchanged(server, game)


def test_no_seed_in_responses_during_a_game(server: Client) -> None:
    seed = 987_654_321_987
    game = server.new(rules="classic(move_limit=20)", seed=seed, bot="random")
    path = f"/api/games/{game['id']}"
    texts = []
    while game["turn"] != "over":
        game = server.ok("POST", path + ("/bot" if game["turn"] == "bot" else "/moves"),
                         None if game["turn"] == "bot" else {"move": game["view"]["legal_moves"][0]})
        if game["turn"] != "over":
            texts.append(json.dumps(game))
            texts.append(server.request("GET", path)[1] and json.dumps(server.ok("GET", path)))
            assert game["seed"] is None
    assert texts and not any(str(seed) in text for text in texts)
    assert game["seed"] == seed  # a finished game shows its seed


def test_a_hint_is_a_legal_move_and_changes_nothing(server: Client) -> None:
    game = server.new(rules="classic", seed=8)
    while game["turn"] == "bot":
        game = server.ok("POST", f"/api/games/{game['id']}/bot")
    hint = server.ok("GET", f"/api/games/{game['id']}/hint")
    assert hint["move"] in game["view"]["legal_moves"] and hint["moves"][0] == hint["move"]
    unchanged(server, game)


def test_a_hint_is_the_planned_path_to_the_end_of_the_turn_segment(server: Client) -> None:
    # Classic, seed 3: the planner moves Q♣ onto K♥, then fills the empty pile from the reserve.
    game = server.new(rules="classic", seed=3)
    assert game["turn"] == "you"
    hint = server.ok("GET", f"/api/games/{game['id']}/hint")
    assert hint["moves"] == [str(m) for m in PlanningBot().hint(new_game("classic", seed=3))]
    assert len(hint["moves"]) > 1
    state = new_game("classic", seed=3)
    for move in hint["moves"][:-1]:  # nothing is revealed before the last move
        assert not reveals(state, parse_move(move))
        state = apply_move(state, parse_move(move))
    last = parse_move(hint["moves"][-1])
    assert reveals(state, last) or type(last).__name__ in ("EndTurn", "Pass")
    assert hint["texts"][:2] == ["Q♣ onto K♥", "6♣ onto an empty pile"] and len(hint["texts"]) == len(hint["moves"])
    unchanged(server, game)


def test_following_the_hints_never_returns_to_a_position_of_the_same_turn(server: Client) -> None:
    # Classic, seed 6: hints planned afresh at each move used to send cards to and fro
    # (T2-T1 T1-T2); with the turn's states the hint never leads back to one of them.
    game = server.new(rules="classic", seed=6, bot="greedy")
    path = f"/api/games/{game['id']}"
    seen: set[object] = set()
    followed = 0
    while followed < 40 and game["turn"] != "over":
        if game["turn"] == "bot":
            game = server.ok("POST", path + "/bot")
            seen = set()
            continue
        key = position_key(server.state(game))
        if key in seen:
            pytest.fail(f"back to a position of the turn after {followed} hints")
        seen.add(key)
        hint = server.ok("GET", path + "/hint")
        game = server.ok("POST", path + "/moves", {"move": hint["move"]})
        followed += 1
    assert followed == 40


def test_a_finished_game_refuses_moves_with_a_409(server: Client) -> None:
    game = server.new(position=str(near_end()))
    path = f"/api/games/{game['id']}"
    for move in ("R0-F0", "R0-F1", "draw", "W0-F2"):
        game = server.ok("POST", path + "/moves", {"move": move})
    assert game["turn"] == "over"
    assert game["view"]["outcome"] == {"winner": 0, "reason": "emptied", "scores": [33, 0], "ending": None}
    for method, suffix, body in (("POST", "/moves", {"move": "pass"}), ("POST", "/bot", None), ("GET", "/hint", None)):
        status, error = server.refused(method, path + suffix, body)
        assert (status, error) == (409, "the game is over (player 0 wins (emptied), 33-0): start a new game")
    unchanged(server, game)


def test_the_match_totals_run_on_into_the_next_game(server: Client) -> None:
    game = server.new(position=str(near_end()))
    path = f"/api/games/{game['id']}"
    for move in ("R0-F0", "R0-F1", "draw", "W0-F2"):
        game = server.ok("POST", path + "/moves", {"move": move})
    assert game["match"] == {"target": 150, "totals": [33, 0], "games": 1, "winner": None}
    following = server.new(rules="classic", seed=2, previous=game["id"])
    assert following["match"] == {"target": 150, "totals": [33, 0], "games": 1, "winner": None}
    # Another seat, other rules or an unknown previous game start a new match.
    for body in ({"seat": 1}, {"rules": "casual"}, {"rules": "classic(move_limit=500)"}, {"previous": "gone"}):
        settings_ = {"rules": "classic", "seed": 2, "previous": game["id"], **body}
        match = server.new(**settings_)["match"]
        assert match is None or match["totals"] == [0, 0], (body, match)


def test_a_game_may_hold_at_most_max_moves(server: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web, "MAX_MOVES", 2)
    game = server.new(rules="casual", seed=1)
    path = f"/api/games/{game['id']}/moves"
    game = server.ok("POST", path, {"move": "T1-T0"})
    game = server.ok("POST", path, {"move": "T0-T1"})
    status, error = server.refused("POST", path, {"move": "T1-T0"})
    assert (status, error) == (409, "this game has reached 2 moves, the most a game may hold here")
    unchanged(server, game)
    record = GameRecord("casual", seed=1, moves=["T1-T0", "T0-T1", "T1-T0"]).to_json()
    status, error = server.refused("POST", "/api/games", {"record": record})
    assert (status, error) == (400, "the record has 3 moves; this server keeps at most 2")


# Records --------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["json", "text"])
def test_a_saved_record_loads_back_as_the_same_game(server: Client, form: str) -> None:
    game = server.new(rules="casual(move_limit=14)", seed=6, seat=1, bot="random")
    path = f"/api/games/{game['id']}"
    while game["turn"] != "over":
        if game["turn"] == "bot":
            game = server.ok("POST", path + "/bot")
        else:
            game = server.ok("POST", path + "/moves", {"move": game["view"]["legal_moves"][0]})
    status, text, headers = server.request("GET", path + f"/record?format={form}", as_text=True)
    assert status == 200
    assert headers["Content-Disposition"].startswith('attachment; filename="crapette-6.')
    record = parse_record(text)
    assert record.replay() == server.state(game)
    assert record.players == ("random bot", "you")
    loaded = server.new(record=text)
    assert (loaded["view"], loaded["moves"], loaded["seed"]) == (game["view"], game["moves"], 6)
    assert (loaded["seat"], loaded["bot"]) == (1, "random")  # from the record's tags
    assert server.new(record=text, seat=0)["seat"] == 0


@pytest.mark.parametrize("form", ["json", "text"])
def test_a_record_saved_during_a_game_is_sealed_and_loads_back(server: Client, form: str) -> None:
    game = bot_starts(server, seed=6)
    path = f"/api/games/{game['id']}"
    while game["turn"] == "bot" or len(game["moves"]) < 12:
        if game["turn"] == "bot":
            game = server.ok("POST", path + "/bot")
        else:
            game = server.ok("POST", path + "/moves", {"move": game["view"]["legal_moves"][0]})
    status, text, headers = server.request("GET", path + f"/record?format={form}", as_text=True)
    assert status == 200 and text.startswith(web.SEALED)
    assert "seed" not in text.lower() and not CARD.findall(text)
    assert headers["Content-Disposition"] == 'attachment; filename="crapette-game-in-progress.txt"'
    before = server.state(game)
    loaded = server.new(record=text)
    assert (loaded["view"], loaded["moves"], loaded["seed"]) == (game["view"], game["moves"], None)
    assert server.state(loaded) == before
    # The game goes on in the loaded copy only: the one it was saved from is gone, and the record is used up.
    assert server.refused("GET", path)[0] == 404
    assert server.refused("POST", "/api/games", {"record": text})[0] == 409
    changed = text[:-10] + ("A" if text[-10] != "A" else "B") + text[-9:]
    status, error = server.refused("POST", "/api/games", {"record": changed})
    assert status == 400 and "sealed record" in error


def test_a_record_of_an_unknown_format_is_a_400(server: Client) -> None:
    game = server.new(seed=1)
    assert server.refused("GET", f"/api/games/{game['id']}/record?format=pgn") == (
        400,
        "format must be json or text, got 'pgn'",
    )


# Hidden cards and memory -----------------------------------------------------------


@settings(max_examples=6, deadline=None)
@given(rules=st.sampled_from(["casual", "classic"]), seed=st.integers(0, 2**64 - 1), seat=st.sampled_from([0, 1]),
       picks=st.lists(st.integers(0, 50), min_size=40, max_size=80))
def test_no_response_ever_shows_a_face_down_card(
    server: Client, rules: str, seed: int, seat: int, picks: list[int]
) -> None:
    game = server.new(rules=rules, seed=seed, seat=seat, bot="random")
    path = f"/api/games/{game['id']}"
    for pick in picks:
        if game["turn"] == "over":
            break
        if game["turn"] == "bot":
            game = server.ok("POST", path + "/bot")
        else:
            legal = game["view"]["legal_moves"]
            game = server.ok("POST", path + "/moves", {"move": legal[pick % len(legal)]})
        state = server.state(game)
        assert game["view"] == view(state).to_dict()
        assert_hides(json.dumps(game), state)
        if pick % 7 == 0 and game["turn"] == "you":
            assert_hides(json.dumps(server.ok("GET", path + "/hint")), state)
        if pick % 11 == 0 and game["can_undo"] and game["turn"] != "bot":
            game = server.ok("POST", path + "/undo")
            assert_hides(json.dumps(game), server.state(game))


def test_the_page_and_its_files_hold_no_card_and_set_a_content_policy(server: Client) -> None:
    for path in ("/", "/static/app.js", "/static/style.css"):
        status, text, headers = server.request("GET", path)
        assert status == 200
        assert not CARD.findall(text), path
        assert headers["Content-Security-Policy"].startswith("default-src 'self'; frame-ancestors 'none'")
        assert headers["X-Frame-Options"] == "DENY"
    status, _, headers = server.request("GET", f"/api/games/{server.new(seed=1)['id']}")
    assert headers["Cache-Control"] == "no-store"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_game_is_forgotten_after_idle_seconds_without_a_request() -> None:
    clock = Clock()
    store = web.GameStore(idle_seconds=600, clock=clock)
    with web.serve_in_thread(app(store)) as address:
        client = Client(address, store)
        kept, dropped = client.new(seed=1), client.new(seed=2)
        clock.now += 400
        client.ok("GET", f"/api/games/{kept['id']}")  # a request keeps a game alive
        clock.now += 201
        assert client.ok("GET", f"/api/games/{kept['id']}")["id"] == kept["id"]
        status, error = client.refused("GET", f"/api/games/{dropped['id']}")
        assert status == 404 and "games are forgotten after 10 minutes unused" in error
        assert len(store) == 1
        clock.now += 601
        assert len(store) == 0


def test_a_full_store_lets_a_new_game_replace_only_a_game_unused_for_reclaim_seconds() -> None:
    clock = Clock()
    store = web.GameStore(max_games=3, clock=clock, reclaim_seconds=300)
    with web.serve_in_thread(app(store)) as address:
        first = Client(address, store)
        players = [first] + [first.other() for _ in range(3)]
        games = []
        for seed, player in enumerate(players[:3]):
            games.append(player.new(seed=seed))
            clock.now += 1
        status, refusal, headers = players[3].request("POST", "/api/games", {"seed": 3})
        assert status == 503 and "the server is full" in refusal["error"]  # every game is in play
        assert headers["Retry-After"] and headers["X-Frame-Options"] == "DENY"
        clock.now += 300
        players[0].ok("GET", f"/api/games/{games[0]['id']}")  # now games[1] is unused longest
        players[3].new(seed=3)
        assert len(store) == 3
        assert players[1].refused("GET", f"/api/games/{games[1]['id']}")[0] == 404
        for player, game in ((players[0], games[0]), (players[2], games[2])):
            assert player.ok("GET", f"/api/games/{game['id']}")["id"] == game["id"]


def test_a_store_needs_room_for_a_game() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        web.GameStore(max_games=0)


def test_every_card_of_the_near_end_position_is_there() -> None:
    state = near_end()
    assert sorted(map(str, ALL_CARDS)) == sorted(str(c) for pile in state.piles for c in pile)


def test_the_documented_command_starts_the_server_and_prints_its_address() -> None:
    process = subprocess.Popen(
        [sys.executable, str(SERVER_PATH), "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        printed = re.fullmatch(r"crapette: open (http://127\.0\.0\.1:(\d+)/) in a browser to play \(Ctrl\+C stops the server\)\n", line)
        assert printed, line
        client = Client(printed.group(1).rstrip("/"), store=None)
        status, page, _ = client.request("GET", "/")
        assert status == 200 and "<title>crapette</title>" in page
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_command_says_when_it_cannot_listen() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, str(SERVER_PATH), "--port", str(port)], capture_output=True, text=True, timeout=60
        )
    assert result.returncode == 1
    assert result.stderr.startswith(f"cannot listen on 127.0.0.1:{port}: ")
    assert result.stderr.rstrip().endswith("try --port 0")


def test_a_game_started_from_a_position_mid_turn_remembers_the_turns_positions(server: Client) -> None:
    # Classic seed 1 under revisits=false: after T7-T1, T1-T7 would recreate the deal.
    game = server.new(rules="classic(revisits=false)", seed=1, seat=0, bot="random")
    game = server.ok("POST", f"/api/games/{game['id']}/moves", {"move": "T7-T1"})
    assert game["view"]["legal_moves"] == ["R0-T5", "R0-T7"] and game["view"]["turn_moves"] == ["T7-T1"]
    loaded = server.new(position=str(server.state(game)), seat=0, bot="random")
    assert loaded["view"] == game["view"]
    assert server.state(loaded) == server.state(game)
