"""The web example against hostile clients (issue 23): ownership, other sites, bad input, load.

Each test runs a real server on 127.0.0.1; the load test is bounded (a fixed
number of requests) and asserts what every client saw, never timings.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web example needs the 'web' extra: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web example needs the 'web' extra: pip install '.[web]'")

from test_web_api import Client, app, load_server  # noqa: E402

from crapette import view  # noqa: E402

web = load_server()

SECURITY_HEADERS = ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Cache-Control")


@pytest.fixture(scope="module")
def server() -> Iterator[Client]:
    store = web.GameStore(per_client=50, per_address=10_000, creates_per_minute=10_000)
    with web.serve_in_thread(app(store)) as address:
        yield Client(address, store)


# Ownership --------------------------------------------------------------------------


def test_a_client_gets_an_unguessable_httponly_samesite_strict_cookie(server: Client) -> None:
    other = server.other()
    status, _, headers = other.request("GET", "/")
    cookie = headers["Set-Cookie"]
    name, _, rest = cookie.partition("=")
    token = rest.split(";")[0]
    name_part, _, signature = token.partition(".")
    assert status == 200 and name == web.COOKIE and len(name_part) == len(signature) == 22  # 16 bytes each
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert other.request("GET", "/")[2]["Set-Cookie"] is None  # kept, not renewed


@pytest.mark.parametrize(("method", "suffix", "body"), [
    ("GET", "", None), ("POST", "/moves", {"move": "draw"}), ("POST", "/bot", None),
    ("POST", "/undo", None), ("GET", "/hint", None), ("GET", "/record", None),
])
def test_another_client_can_neither_read_nor_move_in_a_game(
    server: Client, method: str, suffix: str, body: Any
) -> None:
    owner, intruder = server.other(), server.other()
    game = owner.new(rules="classic", seed=3, bot="random")
    intruder.request("GET", "/")  # the intruder has a cookie of its own
    status, error = intruder.refused(method, f"/api/games/{game['id']}{suffix}", body)
    assert status == 404 and error.startswith(f"no game '{game['id']}'")
    # A guessed or stolen-looking cookie is no better than none.
    forged = {"Cookie": f"{web.COOKIE}={'A' * 43}"}
    assert intruder.refused(method, f"/api/games/{game['id']}{suffix}", body, headers=forged)[0] == 404
    assert owner.ok("GET", f"/api/games/{game['id']}") == game


def test_another_client_cannot_use_a_game_as_the_previous_one_of_its_match(server: Client) -> None:
    owner, intruder = server.other(), server.other()
    game = owner.new(rules="classic", seed=3)
    theirs = intruder.new(rules="classic", seed=4, previous=game["id"])
    assert theirs["match"]["games"] == 0 and owner.ok("GET", f"/api/games/{game['id']}") == game


def test_a_client_flooding_new_games_evicts_only_its_own() -> None:
    store = web.GameStore(max_games=6, per_client=3, per_address=100, creates_per_minute=1000)
    with web.serve_in_thread(app(store)) as address:
        victim = Client(address, store)
        kept = victim.new(seed=1)
        flooder = victim.other()
        made = [flooder.new(seed=s) for s in range(40)]
        assert victim.ok("GET", f"/api/games/{kept['id']}") == kept
        assert sum(store.find(g["id"]) is not None for g in made) == 3  # its own last three
        # Fresh cookies for each request: the store fills, then refuses; the victim's game stays.
        codes = [victim.other().request("POST", "/api/games", {"seed": s})[0] for s in range(10)]
        assert 503 in codes and set(codes) <= {201, 503}
        assert victim.ok("GET", f"/api/games/{kept['id']}") == kept


def test_creation_is_limited_per_address() -> None:
    store = web.GameStore(per_client=100, per_address=5, creates_per_minute=8)
    with web.serve_in_thread(app(store)) as address:
        first = Client(address, store)
        for seed in range(5):
            first.other().new(seed=seed)
        status, error = first.other().refused("POST", "/api/games", {"seed": 9})
        assert status == 429 and "at most 5 at once" in error
        store.per_address = 100
        for seed in range(2):  # the refused request counted too: 8 in this minute
            first.other().new(seed=seed)
        status, error = first.other().refused("POST", "/api/games", {"record": "not even parsed"})
        assert status == 429 and "at most 8 a minute" in error


# Other sites ----------------------------------------------------------------------------


def test_a_text_plain_post_from_another_origin_is_refused(server: Client) -> None:
    before = len(server.store)
    headers = {"Origin": "http://evil.example", "Content-Type": "text/plain"}
    status, error = server.refused("POST", "/api/games", raw=b'{"seed": 1}', headers=headers)
    assert status == 403 and "Origin: 'http://evil.example'" in error
    assert len(server.store) == before


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}, {"Origin": "null"},
    {"Origin": "http://127.0.0.1.evil.example"},
])
def test_cross_site_requests_are_refused(server: Client, headers: dict[str, str]) -> None:
    game = server.new(seed=1)
    for method, suffix, body in (("POST", "/moves", {"move": "draw"}), ("GET", "", None), ("POST", "/undo", None)):
        assert server.refused(method, f"/api/games/{game['id']}{suffix}", body, headers=headers)[0] == 403
    assert server.ok("GET", f"/api/games/{game['id']}") == game


def test_a_text_plain_body_without_origin_is_refused(server: Client) -> None:
    status, error = server.refused("POST", "/api/games", raw=b'{"seed": 1}', headers={"Content-Type": "text/plain"})
    assert status == 415 and "must be application/json" in error


def test_a_same_origin_request_is_accepted(server: Client) -> None:
    headers = {"Origin": f"http://{server.host}:{server.port}", "Sec-Fetch-Site": "same-origin"}
    status, game, _ = server.request("POST", "/api/games", {"seed": 1}, headers=headers)
    assert status == 201 and game["turn"] in ("you", "bot")


def test_the_page_is_not_frameable(server: Client) -> None:
    for path in ("/", "/static/app.js", "/api/nothing"):
        headers = server.request("GET", path)[2]
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("path", ["/api/games/", "/static", "//evil.example/", "/api/games/x/"])
def test_the_host_header_is_never_echoed_into_a_redirect(server: Client, path: str) -> None:
    status, body, headers = server.request("GET", path, headers={"Host": "evil.example"})
    assert not 300 <= status < 400 and headers["Location"] is None
    assert "evil.example" not in json.dumps(body).replace(path, "")


# Bad input ---------------------------------------------------------------------------


HUGE = "1" * 4301


@pytest.mark.parametrize("where", ["seed", "seat", "move", "nested"])
def test_a_json_integer_over_4300_digits_is_a_400_with_the_security_headers(server: Client, where: str) -> None:
    game = server.new(rules="classic", seed=3, bot="random")
    if where == "move":
        path, raw = f"/api/games/{game['id']}/moves", f'{{"move": {HUGE}}}'
    elif where == "nested":
        path, raw = "/api/games", f'{{"rules": "classic", "seed": [{HUGE}]}}'
    else:
        path, raw = "/api/games", f'{{"{where}": {HUGE}}}'
    status, data, headers = server.request("POST", path, raw=raw.encode())
    assert status == 400 and "digits" in data["error"] and len(data["error"]) < 200
    for name in SECURITY_HEADERS:
        assert headers[name], name
    assert server.ok("GET", f"/api/games/{game['id']}") == game


def test_a_record_with_a_huge_seed_is_a_400(server: Client) -> None:
    record = '{"format": "crapette-record", "version": 1, "rules": "classic", "seed": ' + HUGE + ', "moves": []}'
    status, error = server.refused("POST", "/api/games", {"record": record})
    assert status == 400 and len(error) < 300


@pytest.mark.parametrize("raw", [b'{"seed": NaN}', b'{"seed": Infinity}', b'{"seed": 1e999}', b'{"seed": 1.5}'])
def test_non_integer_numbers_are_a_400(server: Client, raw: bytes) -> None:
    status, data, headers = server.request("POST", "/api/games", raw=raw)
    assert status == 400 and data["error"] and headers["X-Frame-Options"] == "DENY"


def test_the_404_page_bounds_the_path_it_echoes(server: Client) -> None:
    path = "/" + "a" * 5000
    status, error = server.refused("GET", path)
    assert status == 404 and error == f"no such address: /{'a' * (web.SHOWN_PATH - 1)}..."


def test_a_server_error_is_json_with_the_security_headers(monkeypatch: pytest.MonkeyPatch) -> None:
    store = web.GameStore()
    with web.serve_in_thread(app(store)) as address:
        client = Client(address, store)
        game = client.new(seed=1)

        def broken(*args: Any) -> Any:
            raise RuntimeError("a bug")

        monkeypatch.setattr(web, "_game_response", broken)
        status, data, headers = client.request("GET", f"/api/games/{game['id']}")
    assert status == 500 and data == {"error": "the server failed on this request (a bug: it is logged)"}
    for name in SECURITY_HEADERS:
        assert headers[name], name


def test_a_client_that_disconnects_mid_body_is_logged_in_one_line(
    server: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        with socket.create_connection((server.host, server.port)) as sock:
            sock.sendall(f"POST /api/games HTTP/1.1\r\nHost: {server.host}\r\nContent-Type: application/json\r\n"
                         "Content-Length: 1000\r\n\r\n{\"seed\": ".encode())
        for _ in range(100):
            if any("disconnected" in r.getMessage() for r in caplog.records):
                break
            threading.Event().wait(0.05)
    messages = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("disconnected while sending POST /api/games" in m for m in messages), messages
    assert not any(r.exc_info for r in caplog.records) and all("\n" not in m for m in messages)


# Load ---------------------------------------------------------------------------------


def test_many_clients_at_once_each_see_only_their_own_consistent_game() -> None:
    """A bounded load: 8 clients play 8 requests each at once, 2 of them against the search bot.

    (benchmarks/web_load.py measures the timings, with search:strong bots.)
    """
    store = web.GameStore()
    with web.serve_in_thread(app(store)) as address:
        base = Client(address, store)
        clients = [base.other() for _ in range(8)]
        errors: list[str] = []

        def play(index: int, client: Client) -> None:
            try:
                bot = "search" if index < 2 else "random"
                game = client.new(rules="classic", seed=index, bot=bot, seat=index % 2)
                path = f"/api/games/{game['id']}"
                for _ in range(8):
                    if game["turn"] == "over":
                        break
                    if game["turn"] == "bot":
                        status, data, _ = client.request("POST", path + "/bot")
                        if status == 503:  # the workers are busy: the page tries again later
                            continue
                        assert status == 200, data
                        game = data
                    else:
                        game = client.ok("POST", path + "/moves", {"move": game["view"]["legal_moves"][0]})
                    assert client.ok("GET", path) == game
                    assert game["view"] == view(store.find(game["id"]).game.state).to_dict()
                    assert game["seed"] is None or game["turn"] == "over"
            except Exception as error:  # noqa: BLE001 - reported below
                errors.append(f"client {index}: {error!r}")

        threads = [threading.Thread(target=play, args=(i, c)) for i, c in enumerate(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not any(thread.is_alive() for thread in threads)
        assert errors == []
        assert len(store) == 8


def test_favicon_ico_is_the_pages_icon(server: Client) -> None:
    status, text, headers = server.request("GET", "/favicon.ico")
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml") and text.startswith("<svg")
    assert '<link rel="icon" href="/static/favicon.svg"' in server.request("GET", "/")[1]
