"""Play crapette in a browser: a small web server built on the public API of crapette.

Start it with::

    python examples/web/server.py

and open the address it prints. It needs the ``web`` extra (``pip install ".[web]"``:
Starlette and uvicorn).

The server holds the true state of every game; the page only ever receives the
public view (:func:`crapette.view`: the face-down cards are counts), the legal
moves and the moves played, and draws the table from them. Each browser tab
plays one game against a bot. The JSON API, all under ``/api/games``:

=====================================  ===============================================
``POST /api/games``                    a new game: a deal (``rules``, ``seed``), a
                                       position string (``position``) or a saved record
                                       (``record``); also ``bot``, ``seat`` and
                                       ``previous`` (the game before it, for the match)
``GET /api/games/{id}``                the game as the page sees it
``POST /api/games/{id}/moves``         ``{"move": "R0-F3"}``: the player's move
``POST /api/games/{id}/bot``           the bot plays its next move (one move a request)
``POST /api/games/{id}/undo``          take back the player's last move (and the bot's after it)
``GET /api/games/{id}/hint``           ``{"move": ...}``: what the search bot would play
``GET /api/games/{id}/record``         the game record (``?format=text`` for the text form)
=====================================  ===============================================

Errors are ``{"error": "<what was wrong>"}`` with a 4xx status: 400 for a malformed
request, 404 for an unknown game, 409 for a request out of turn, 413 for a body
over ``MAX_BODY`` bytes, 422 for an illegal move (the engine's reason). A refused
request never changes a game. Games live in memory: at most ``MAX_GAMES``, each
forgotten after ``IDLE_SECONDS`` without a request, and at most ``MAX_MOVES`` moves
each, so the memory a server uses stays bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import anyio.to_thread
    import uvicorn
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
except ImportError as error:  # pragma: no cover - depends on the environment
    raise SystemExit(
        f"the web example needs Starlette and uvicorn ({error}): pip install \".[web]\""
    ) from None

from crapette import (
    Game,
    IllegalMoveError,
    InvalidRulesError,
    InvalidStateError,
    Match,
    ParseError,
    RecordError,
    parse_position,
    parse_record,
    parse_rules,
)
from crapette.bots import BOT_NAMES, Bot, SearchBot, make_bot

STATIC = Path(__file__).resolve().parent / "static"

#: The most games held at once; a new game beyond it makes the server forget the one idle longest.
MAX_GAMES = 100
#: A game with no request for this many seconds is forgotten.
IDLE_SECONDS = 3600.0
#: The most moves a game may hold (about 1.5 KB of memory each: all the games fit in 500 MB).
MAX_MOVES = 3000
#: The largest request body accepted, in bytes (a saved record of MAX_MOVES moves fits).
MAX_BODY = 64 * 1024
#: The largest seed a new deal gets when the player gives none (small enough to type).
RANDOM_SEEDS = 1_000_000
#: The bot that gives hints: the strongest, whatever the opponent.
HINT_BOT = SearchBot()


class ApiError(Exception):
    """A request refused with ``status`` and a message for the player."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _show(text: str, limit: int = 40) -> str:
    """``text`` quoted, and cut short if long, for an error message."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


# Games --------------------------------------------------------------------------


@dataclass
class Session:
    """One browser tab's game: the game, who plays which seat, and the match so far."""

    game: Game
    #: The human's player number; the bot plays the other seat.
    seat: int
    bot_name: str
    bot: Bot
    #: The games of the match before this one (None when the rules have no scoring).
    match: Match | None
    last_used: float = 0.0
    #: Serializes the requests that change this game.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def turn(self) -> str:
        """``"over"``, ``"you"`` (the human is to move) or ``"bot"``."""
        state = self.game.state
        if state.is_over:
            return "over"
        return "you" if state.current_player == self.seat else "bot"

    def match_so_far(self) -> Match | None:
        """The match with this game's outcome added once the game is over."""
        match, outcome = self.match, self.game.outcome
        if match is None or outcome is None or outcome.scores is None or match.is_over:
            return match
        return match.add(outcome)

    def undo_point(self) -> int | None:
        """The number of moves to keep to take back the human's last move, or None if there is none."""
        states = self.game.states
        for index in range(len(self.game.history) - 1, -1, -1):
            if states[index].current_player == self.seat:
                return index
        return None


class GameStore:
    """The games in memory, by id: at most ``max_games``, each forgotten after ``idle_seconds`` unused."""

    def __init__(
        self,
        max_games: int = MAX_GAMES,
        idle_seconds: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_games < 1 or idle_seconds <= 0:
            raise ValueError("a store holds at least one game for a positive time")
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()  # least recently used first

    def __len__(self) -> int:
        self._expire()
        return len(self._sessions)

    def _expire(self) -> None:
        deadline = self.clock() - self.idle_seconds
        while self._sessions:
            oldest = next(iter(self._sessions.values()))
            if oldest.last_used > deadline:
                break
            self._sessions.popitem(last=False)

    def add(self, session: Session) -> str:
        """Keep ``session`` under a new id, forgetting the game idle longest if the store is full."""
        self._expire()
        while len(self._sessions) >= self.max_games:
            self._sessions.popitem(last=False)
        game_id = secrets.token_hex(12)  # lower-case hex: an id never reads as a card
        session.last_used = self.clock()
        self._sessions[game_id] = session
        return game_id

    def find(self, game_id: str) -> Session | None:
        """The game of ``game_id`` (and mark it used), or None."""
        self._expire()
        session = self._sessions.get(game_id)
        if session is not None:
            session.last_used = self.clock()
            self._sessions.move_to_end(game_id)
        return session

    def get(self, game_id: str) -> Session:
        """The game of ``game_id``; a 404 if there is none."""
        session = self.find(game_id)
        if session is None:
            raise ApiError(
                404,
                f"no game {_show(game_id, 24)}: it has ended on the server "
                f"(games are forgotten after {self.idle_seconds / 60:g} minutes unused) "
                "or never existed; start a new game",
            )
        return session


# Requests -----------------------------------------------------------------------


async def read_json(request: Request, allowed: tuple[str, ...]) -> dict[str, Any]:
    """The request's JSON object (an empty body is ``{}``), refusing big bodies and unknown keys."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise ApiError(413, f"request body too large: {declared} bytes, at most {MAX_BODY}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"request body too large: over {MAX_BODY} bytes")
    if not body.strip():
        return {}
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, "the request body is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ApiError(400, f"the request body is not valid JSON: {error}") from None
    except RecursionError:
        raise ApiError(400, "the request body is not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"the request body must be a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ApiError(
            400, f"unknown field {_show(unknown[0])}; the fields are: {', '.join(allowed)}"
        )
    return data


def _text(data: dict[str, Any], key: str, limit: int) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError(400, f"{key!r} must be a string, got {type(value).__name__}")
    if len(value) > limit:
        raise ApiError(400, f"{key!r} is too long ({len(value)} characters, at most {limit})")
    return value


def _choice(data: dict[str, Any], key: str, choices: tuple[Any, ...], default: Any) -> Any:
    value = data.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or value not in choices:
        raise ApiError(400, f"{key!r} must be one of {', '.join(map(str, choices))}, got {value!r}")
    return value


# The game as the page sees it -------------------------------------------------


def game_json(game_id: str, session: Session) -> dict[str, Any]:
    """What the page receives: the public view and the moves, never a face-down card."""
    game = session.game
    states = game.states
    match = session.match_so_far()
    return {
        "id": game_id,
        "seat": session.seat,
        "bot": session.bot_name,
        "seed": game.seed,
        "turn": session.turn,
        "view": game.view().to_dict(),
        "moves": [
            {"player": states[i].current_player, "move": str(move)}
            for i, move in enumerate(game.history)
        ],
        "can_undo": session.undo_point() is not None,
        "match": None
        if match is None
        else {
            "target": match.scoring.match_target,
            "totals": list(match.totals),
            "games": len(match.outcomes),
            "winner": match.winner,
        },
    }


def _new_match(game: Game, seat: int, previous: Session | None) -> Match | None:
    """The match this game belongs to: the previous game's, if it goes on under the same rules and seats."""
    rules = game.state.rules
    if rules.scoring is None:
        return None
    if previous is not None and previous.seat == seat and previous.game.state.rules == rules:
        match = previous.match_so_far()
        if match is not None and not match.is_over:
            return match
    return Match.for_rules(rules)


def _start(data: dict[str, Any]) -> tuple[Game, dict[str, str]]:
    """The game a new-game request asks for, and the tags of a loaded record."""
    position = _text(data, "position", 4096)
    record = _text(data, "record", MAX_BODY)
    rules_text = _text(data, "rules", 1024)
    seed = data.get("seed")
    given = [name for name in ("position", "record") if data.get(name) is not None]
    if len(given) == 2 or (given and (rules_text is not None or seed is not None)):
        raise ApiError(
            400, "give either a deal (rules and seed), a position or a record, not several"
        )
    try:
        if position is not None:
            return Game.from_state(parse_position(position)), {}
        if record is not None:
            loaded = parse_record(record)
            if len(loaded.moves) > MAX_MOVES:
                raise ApiError(
                    400, f"the record has {len(loaded.moves)} moves; this server keeps at most {MAX_MOVES}"
                )
            return Game.from_record(loaded), dict(loaded.tags)
        rules = parse_rules(rules_text or "classic")
    except (ParseError, InvalidRulesError, InvalidStateError, RecordError) as error:
        raise ApiError(400, str(error)) from None
    if seed is None:
        seed = secrets.randbelow(RANDOM_SEEDS)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ApiError(400, f"'seed' must be a whole number from 0 to 2**64 - 1, got {seed!r}")
    return Game(rules, seed), {}


# Endpoints ----------------------------------------------------------------------

GAME_FIELDS = ("rules", "seed", "position", "record", "bot", "seat", "previous")


def _store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


async def new_game(request: Request) -> Response:
    data = await read_json(request, GAME_FIELDS)
    game, tags = _start(data)
    tagged_seat = int(tags["Seat"]) if tags.get("Seat") in ("0", "1") else 0
    seat = _choice(data, "seat", (0, 1), tagged_seat)
    tagged_bot = tags.get("Bot") if tags.get("Bot") in BOT_NAMES else "search"
    bot_name = _choice(data, "bot", BOT_NAMES, tagged_bot)
    previous_id = _text(data, "previous", 64)
    store = _store(request)
    previous = store.find(previous_id) if previous_id else None
    session = Session(
        game=game,
        seat=seat,
        bot_name=bot_name,
        bot=make_bot(bot_name, seed=game.seed or 0),
        match=_new_match(game, seat, previous),
    )
    game_id = store.add(session)
    return JSONResponse(game_json(game_id, session), status_code=201)


async def show_game(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    return JSONResponse(game_json(game_id, _store(request).get(game_id)))


def _check_can_move(session: Session, who: str) -> None:
    state = session.game.state
    if state.outcome is not None:
        raise ApiError(409, f"the game is over ({state.outcome}): start a new game")
    if session.turn != who:
        if who == "you":
            raise ApiError(409, f"it is the computer's turn (player {1 - session.seat}): wait for its move")
        raise ApiError(409, f"it is your turn (player {session.seat}), not the computer's")
    if len(session.game.history) >= MAX_MOVES:
        raise ApiError(409, f"this game has reached {MAX_MOVES} moves, the most a game may hold here")


async def play_move(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    session = _store(request).get(game_id)
    data = await read_json(request, ("move",))
    text = _text(data, "move", 32)
    if text is None:
        raise ApiError(400, "give the move as {\"move\": \"R0-F3\"}")
    async with session.lock:
        _check_can_move(session, "you")
        try:
            session.game.push(text)
        except ParseError as error:
            raise ApiError(400, str(error)) from None
        except IllegalMoveError as error:
            raise ApiError(422, str(error)) from None
    return JSONResponse(game_json(game_id, session))


async def bot_move(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    session = _store(request).get(game_id)
    await read_json(request, ())
    async with session.lock:
        _check_can_move(session, "bot")
        # The search bot thinks for up to a few tenths of a second: not on the event loop.
        move = await anyio.to_thread.run_sync(session.bot.choose, session.game.state)
        session.game.push(move)
    return JSONResponse(game_json(game_id, session))


async def undo(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    session = _store(request).get(game_id)
    await read_json(request, ())
    async with session.lock:
        keep = session.undo_point()
        if keep is None:
            raise ApiError(409, "nothing to undo: you have not moved yet")
        while len(session.game.history) > keep:
            session.game.undo()
    return JSONResponse(game_json(game_id, session))


async def hint(request: Request) -> Response:
    session = _store(request).get(request.path_params["game_id"])
    _check_can_move(session, "you")
    state = session.game.state
    move = await anyio.to_thread.run_sync(HINT_BOT.choose, state)
    return JSONResponse({"move": str(move)})


async def record(request: Request) -> Response:
    session = _store(request).get(request.path_params["game_id"])
    form = request.query_params.get("format", "json")
    if form not in ("json", "text"):
        raise ApiError(400, f"format must be json or text, got {_show(form)}")
    names = ["you", f"{session.bot_name} bot"]
    if session.seat == 1:
        names.reverse()
    saved = session.game.to_record(
        players=names,
        date=time.strftime("%Y-%m-%d"),
        tags={"Seat": str(session.seat), "Bot": session.bot_name},
    )
    body = saved.to_json(indent=1) if form == "json" else str(saved) + "\n"
    name = f"crapette-{session.game.seed if session.game.seed is not None else 'position'}"
    suffix = ".json" if form == "json" else ".txt"
    return Response(
        body,
        media_type="application/json" if form == "json" else "text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}{suffix}"'},
    )


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return JSONResponse({"error": error.message}, status_code=error.status)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    messages = {404: f"no such address: {request.url.path}", 405: f"{request.method} is not allowed here"}
    message = messages.get(error.status_code, str(error.detail))
    return JSONResponse({"error": message}, status_code=error.status_code, headers=error.headers)


class SecurityHeaders:
    """Adds the headers every response carries: a strict content policy, and no caching of the API."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = [
            (b"content-security-policy", b"default-src 'self'"),
            (b"x-content-type-options", b"nosniff"),
        ]
        if scope["path"].startswith("/api/"):
            extra.append((b"cache-control", b"no-store"))

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(store: GameStore | None = None) -> Starlette:
    """The web app; ``store`` holds its games (a new :class:`GameStore` by default)."""
    game = "/api/games/{game_id}"
    app = Starlette(
        routes=[
            Route("/", page),
            Route("/api/games", new_game, methods=["POST"]),
            Route(game, show_game),
            Route(game + "/moves", play_move, methods=["POST"]),
            Route(game + "/bot", bot_move, methods=["POST"]),
            Route(game + "/undo", undo, methods=["POST"]),
            Route(game + "/hint", hint),
            Route(game + "/record", record),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={ApiError: api_error, HTTPException: http_error},
        middleware=[Middleware(SecurityHeaders)],
    )
    app.state.store = store if store is not None else GameStore()
    return app


# Running it -------------------------------------------------------------------


@contextlib.contextmanager
def serve_in_thread(app: Starlette, host: str = "127.0.0.1") -> Iterator[str]:
    """Run ``app`` on a free port of ``host`` in a background thread; yield its address.

    For tests and scripts: the server stops when the ``with`` block ends.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Play crapette against a bot in a browser.")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default: 8000; 0 picks a free one)")
    args = parser.parse_args(argv)
    sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as error:
        raise SystemExit(f"cannot listen on {args.host}:{args.port}: {error.strerror}; try --port 0") from None
    sock.listen(128)  # connections wait from now on, even before the server runs
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"crapette: open http://{shown}:{port}/ in a browser to play (Ctrl+C stops the server)", flush=True)
    uvicorn.Server(uvicorn.Config(create_app(), log_level="warning")).run(sockets=[sock])


if __name__ == "__main__":
    main()
