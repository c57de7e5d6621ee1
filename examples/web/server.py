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
``GET /api/games/{id}/hint``           ``{"move": ..., "moves": [...], "texts": [...]}``: the
                                       planner's moves to the end of the turn segment
                                       (``move``: the first), and each in words
``GET /api/games/{id}/record``         the game record (``?format=text`` for the text form)
=====================================  ===============================================

Errors are ``{"error": "<what was wrong>"}`` with a 4xx status (400 malformed, 403
from another site, 404 no such game for this client, 409 out of turn, 413 too big,
415 not JSON, 422 illegal move, 429 too many new games), or a 503 when the server is
full or busy. A refused request never changes a game. docs/web.rst says more.

Nothing hidden leaves the server during a game: no face-down card, no seed (the
seed is the whole deal; a finished game shows it), no undo past a card turned face
up, and a record saved mid-game is sealed (encrypted and signed). A game belongs to
the client whose ``HttpOnly``, ``SameSite=Strict`` cookie made it; :class:`GameStore`
says who may make room for a new game, so that no client crowds out another; other
sites' requests are refused and the page cannot be framed. The bots and the replay
of a loaded record run in worker processes (:class:`Workers`), never on the event loop.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import concurrent.futures
import contextlib
import hashlib
import hmac
import json
import logging
import multiprocessing
import os
import re
import secrets
import socket
import threading
import time
import zlib
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import ClientDisconnect, Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
except ImportError as error:  # pragma: no cover - depends on the environment
    raise SystemExit(
        f"the web example needs Starlette and uvicorn ({error}): pip install \".[web]\""
    ) from None

from crapette import (
    Game,
    GameRecord,
    IllegalMoveError,
    InvalidRulesError,
    InvalidStateError,
    MAX_POSITION_LENGTH,
    Match,
    ParseError,
    RecordError,
    apply_move,
    parse_position,
    parse_record,
    parse_rules,
)
from crapette.bots import BOT_NAMES, Bot, PlanningBot, choose_remembering, make_bot
from crapette.wording import describe_end, describe_illegal, describe_move, describe_played

STATIC = Path(__file__).resolve().parent / "static"

#: The most games held at once (see :class:`GameStore` for who makes room for whom).
MAX_GAMES = 100
#: The most games one client (one cookie) holds; its next game replaces its own least recently used.
MAX_GAMES_PER_CLIENT = 4
#: The most games the clients of one network address hold together.
MAX_GAMES_PER_ADDRESS = 24
#: The most games one network address may make in a minute (more is a 429).
CREATES_PER_MINUTE = 30
#: A full server lets a new game replace another client's game only if it was unused this long.
RECLAIM_SECONDS = 600.0
#: A game with no request for this many seconds is forgotten.
IDLE_SECONDS = 3600.0
#: The most moves a game may hold (about 1.5 KB of memory each: all the games fit in 500 MB).
MAX_MOVES = 3000
#: The largest request body accepted, in bytes (a saved record of MAX_MOVES moves fits).
MAX_BODY = 64 * 1024
#: The seeds a new deal draws from when the player gives none: too many to try them all
#: against the cards in sight (a seed is the whole deal).
RANDOM_SEEDS = 2**64
#: The bot that gives hints: the turn planner, whatever the opponent.
HINT_BOT = PlanningBot()
#: The worker processes that run the bots and replay loaded records.
WORKERS = max(1, min(2, os.cpu_count() or 1))
#: The most jobs waiting for a worker; beyond it a request is refused with a 503 (try again).
MAX_PENDING = 32
#: The cookie that names a client.
COOKIE = "crapette-client"
#: The longest path a 404 message repeats.
SHOWN_PATH = 80

LOG = logging.getLogger("crapette.web")


class ApiError(Exception):
    """A request refused with ``status`` and a message for the player."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _brief(value: Any, limit: int = 40) -> str:
    """``repr(value)``, cut short if long."""
    text = repr(value) if not isinstance(value, str) or len(value) <= limit else repr(value[:limit])
    return text if len(text) <= limit + 2 else text[:limit] + "..."


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
    #: The client that made the game (its cookie's token) and its network address.
    owner: str = ""
    address: str = ""
    #: How the game began: "deal", "position" or "record".
    origin: str = "deal"
    last_used: float = 0.0
    #: Serializes the requests that change this game.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The moves worded so far (see :meth:`texts`), each with its move.
    worded: list[tuple[Any, str]] = field(default_factory=list)

    @property
    def turn(self) -> str:
        """``"over"``, ``"you"`` (the human is to move) or ``"bot"``."""
        state = self.game.state
        if state.is_over:
            return "over"
        return "you" if state.current_player == self.seat else "bot"

    @property
    def names(self) -> tuple[str, str]:
        """The players as the page's sentences name them."""
        return ("you", "the computer") if self.seat == 0 else ("the computer", "you")

    def texts(self) -> list[str]:
        """Each move of the game in words (crapette.wording), worded once and kept while the moves stand."""
        history, worded = self.game.history, self.worded
        kept = 0
        while kept < len(worded) and kept < len(history) and worded[kept][0] is history[kept]:
            kept += 1
        del worded[kept:]
        if kept < len(history):
            states = self.game.states
            for i in range(kept, len(history)):
                worded.append((history[i], describe_played(states[i], history[i], states[i + 1], names=self.names)))
        return [text for _, text in worded]

    def match_so_far(self) -> Match | None:
        """The match with this game's outcome added once the game is over."""
        match, outcome = self.match, self.game.outcome
        if match is None or outcome is None or outcome.scores is None or match.is_over:
            return match
        return match.add(outcome)

    def undo_point(self) -> int | None:
        """The number of moves to keep to take back the human's last move, or None if it cannot be.

        None if the human has not moved, or if their last move or one after it
        turned a card face up (see :attr:`crapette.Game.undoable`).
        """
        game = self.game
        states, moves = game.states, len(game.history)
        for index in range(moves - 1, -1, -1):
            if states[index].current_player == self.seat:
                return index if moves - index <= game.undoable else None
        return None

    def undo_refusal(self) -> str:
        """Why the human's last move cannot be taken back."""
        game = self.game
        if not any(state.current_player == self.seat for state in game.states[:-1]):
            return "nothing to undo: you have not moved yet"
        return (
            "you cannot take back your last move: a card has been turned face up since "
            "(a draw, or a reserve card uncovered), and taking it back would show it again"
        )


class GameStore:
    """The games in memory, by id, and who may make room for a new one, so that no client
    can wipe out another's game: a game unused for ``idle_seconds`` is forgotten; a
    client holds at most ``per_client`` games (its next one replaces its own least
    recently used); one address makes at most ``creates_per_minute`` games a minute and
    holds at most ``per_address`` (a 429 beyond, unless one of them has been unused
    for ``reclaim_seconds``); and when all ``max_games`` places are taken, only a game
    unused for ``reclaim_seconds`` makes room, or the new game gets a 503. Behind a
    proxy every client has the proxy's address: raise the per-address limits there.
    """

    def __init__(
        self,
        max_games: int = MAX_GAMES,
        idle_seconds: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        *,
        per_client: int = MAX_GAMES_PER_CLIENT,
        per_address: int = MAX_GAMES_PER_ADDRESS,
        creates_per_minute: int = CREATES_PER_MINUTE,
        reclaim_seconds: float = RECLAIM_SECONDS,
    ) -> None:
        if max_games < 1 or idle_seconds <= 0 or min(per_client, per_address, creates_per_minute) < 1:
            raise ValueError("a store holds at least one game for a positive time")
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.per_client = per_client
        self.per_address = per_address
        self.creates_per_minute = creates_per_minute
        self.reclaim_seconds = reclaim_seconds
        self._sessions: OrderedDict[str, Session] = OrderedDict()  # least recently used first
        self._created: dict[str, deque[float]] = {}  # address -> times of its recent new games

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

    def _oldest(self, keep: Callable[[Session], bool]) -> str | None:
        return next((key for key, session in self._sessions.items() if keep(session)), None)

    def count_request(self, address: str) -> None:
        """Count a request for a new game from ``address`` (before any work); a 429 past the limit."""
        now = self.clock()
        times = self._created.setdefault(address, deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= self.creates_per_minute:
            raise ApiError(429, f"too many new games from your address: at most {self.creates_per_minute} a minute")
        times.append(now)
        if len(self._created) > 4 * self.max_games:  # forget the addresses quiet for a minute
            self._created = {a: t for a, t in self._created.items() if t and t[-1] > now - 60}

    def add(self, session: Session) -> str:
        """Keep ``session`` under a new id, making room as the policy says; a 429 or 503 if it may not."""
        self._expire()
        owner, address = session.owner, session.address
        old = self.clock() - self.reclaim_seconds
        evict: list[str] = []
        own = [key for key, kept in self._sessions.items() if kept.owner == owner]
        if len(own) >= self.per_client:
            evict = own[: len(own) - self.per_client + 1]
        elif sum(kept.address == address for kept in self._sessions.values()) >= self.per_address:
            idle = self._oldest(lambda kept: kept.address == address and kept.last_used <= old)
            if idle is None:
                raise ApiError(429, f"too many games from your address: at most {self.per_address} at once")
            evict = [idle]
        elif len(self._sessions) >= self.max_games:
            idle = self._oldest(lambda kept: kept.last_used <= old)
            if idle is None:
                raise ApiError(503, "the server is full: every game is in play; try again in a few minutes")
            evict = [idle]
        for key in evict:
            del self._sessions[key]
        game_id = secrets.token_hex(12)  # lower-case hex: an id never reads as a card
        session.last_used = self.clock()
        self._sessions[game_id] = session
        return game_id

    def find(self, game_id: str, owner: str | None = None) -> Session | None:
        """The game of ``game_id`` (and mark it used), or None; None too if ``owner`` did not make it."""
        self._expire()
        session = self._sessions.get(game_id)
        if session is None or (owner is not None and not hmac.compare_digest(session.owner, owner)):
            return None
        session.last_used = self.clock()
        self._sessions.move_to_end(game_id)
        return session

    def get(self, game_id: str, owner: str | None = None) -> Session:
        """The game of ``game_id`` if ``owner`` made it; a 404 if not (the same 404 as for no game)."""
        session = self.find(game_id, owner)
        if session is None:
            raise ApiError(
                404,
                f"no game {_show(game_id, 24)}: it has ended on the server "
                f"(games are forgotten after {self.idle_seconds / 60:g} minutes unused) "
                "or never existed; start a new game",
            )
        return session


# Requests -----------------------------------------------------------------------


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > 30:
        raise ApiError(400, f"the request body is not valid JSON here: a number of {len(text)} digits")
    return int(text)


def _json_constant(text: str) -> Any:
    raise ApiError(400, f"the request body is not valid JSON: {text} is not a JSON value")


async def read_json(request: Request, allowed: tuple[str, ...]) -> dict[str, Any]:
    """The request's JSON object (an empty body is ``{}``), refusing big bodies and unknown keys."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise ApiError(413, f"request body too large: {declared} bytes, at most {MAX_BODY}")
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise ApiError(413, f"request body too large: over {MAX_BODY} bytes")
    except ClientDisconnect:
        client = request.client.host if request.client else "?"
        LOG.warning("client %s disconnected while sending %s %s", client, request.method, request.url.path[:SHOWN_PATH])
        raise ApiError(400, "the request body was cut short") from None
    if not body.strip():
        return {}
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(415, f"the request body must be application/json, got {_show(kind or 'no type')}")
    try:
        data = json.loads(body.decode("utf-8"), parse_int=_json_int, parse_constant=_json_constant)
    except UnicodeDecodeError:
        raise ApiError(400, "the request body is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ApiError(400, f"the request body is not valid JSON: {error}") from None
    except RecursionError:
        raise ApiError(400, "the request body is not valid JSON: nested too deeply") from None
    except ValueError as error:  # e.g. a float out of range; an int too long is caught by _json_int
        raise ApiError(400, f"the request body is not valid JSON: {_show(str(error), 80)}") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"the request body must be a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field {_show(unknown[0])}; the fields are: {', '.join(allowed)}")
    return data


# Off the event loop ---------------------------------------------------------------


class Workers:
    """A few worker processes for the slow work (bots, replays), with a bounded queue.

    :meth:`run` awaits ``function(*args)`` in a worker; with ``MAX_PENDING`` jobs
    already waiting it refuses at once (503), so a burst of slow bots cannot pile
    up unbounded work, and the event loop only ever waits for the answer. The
    function must be importable by the workers: the library's own (a bot's
    ``choose``, ``parse_record``), not this file's.
    """

    def __init__(self, workers: int = WORKERS, max_pending: int = MAX_PENDING) -> None:
        self.workers = workers
        self.max_pending = max_pending
        self.pending = 0
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # spawn, not fork: the server has threads, and a forked child could inherit a held lock.
                # The workers run at a lower priority: the event loop answers first.
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=os.nice, initargs=(10,),
                )
            return self._pool

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        if self.pending >= self.max_pending:
            raise ApiError(503, "the server is busy: too many bot moves waiting; try again in a moment")
        self.pending += 1
        try:
            pool = self._executor()
            return await asyncio.get_running_loop().run_in_executor(pool, function, *args)
        except concurrent.futures.process.BrokenProcessPool:
            with self._lock:
                self._pool = None  # a worker died: the next job starts a new pool
            raise ApiError(503, "the server's worker stopped; try again") from None
        finally:
            self.pending -= 1

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


# Sealed records -------------------------------------------------------------------

SEALED = "crapette-sealed-record:1:"


def _crypt(key: bytes, nonce: bytes, data: bytes) -> bytes:
    """``data`` XOR a key stream of ``key`` and ``nonce`` (SHAKE-256): encrypts and decrypts."""
    stream = hashlib.shake_256(b"crapette-seal" + key + nonce).digest(len(data))
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def seal(text: str, key: bytes) -> str:
    """``text`` encrypted and signed with ``key``: only a server with the key reads it back."""
    nonce = secrets.token_bytes(16)
    plain = zlib.compress(text.encode("utf-8"))
    cipher = _crypt(key, nonce, plain)
    tag = hmac.new(key, nonce + cipher, hashlib.sha256).digest()
    return SEALED + base64.urlsafe_b64encode(nonce + tag + cipher).decode("ascii") + "\n"


def unseal(text: str, key: bytes) -> str:
    """The text :func:`seal` sealed with ``key``; a 400 if it was changed or sealed by another server."""
    try:
        raw = base64.urlsafe_b64decode(text.strip()[len(SEALED):].encode("ascii"))
    except ValueError:
        raise ApiError(400, "the sealed record is damaged") from None
    nonce, tag, cipher = raw[:16], raw[16:48], raw[48:]
    if not hmac.compare_digest(tag, hmac.new(key, nonce + cipher, hashlib.sha256).digest()):
        raise ApiError(400, "the sealed record was changed, or saved by another server (set CRAPETTE_WEB_KEY to keep one key)")
    plain = _crypt(key, nonce, cipher)
    try:
        return zlib.decompressobj().decompress(plain, MAX_BODY * 4).decode("utf-8")
    except (zlib.error, UnicodeDecodeError):
        raise ApiError(400, "the sealed record is damaged") from None


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
    """What the page receives: the public view and the moves, never a face-down card.

    Nor the seed while the game goes on: the seed is the whole deal.
    """
    game = session.game
    states = game.states
    texts = session.texts()
    match = session.match_so_far()
    return {
        "id": game_id,
        "seat": session.seat,
        "bot": session.bot_name,
        "origin": session.origin,
        "seed": game.seed if game.is_over else None,
        "turn": session.turn,
        "view": game.view().to_dict(),
        "moves": [
            {"player": states[i].current_player, "move": str(move), "text": texts[i]}
            for i, move in enumerate(game.history)
        ],
        "can_undo": session.undo_point() is not None,
        "end": None if game.outcome is None else describe_end(game.outcome, names=session.names),
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


async def _start(request: Request, data: dict[str, Any]) -> tuple[Game, dict[str, str], str]:
    """The game a new-game request asks for, the tags of a loaded record, and how it began."""
    position = _text(data, "position", MAX_POSITION_LENGTH)
    record = _text(data, "record", MAX_BODY)
    rules_text = _text(data, "rules", 1024)
    seed = data.get("seed")
    given = [name for name in ("position", "record") if data.get(name) is not None]
    if len(given) == 2 or (given and (rules_text is not None or seed is not None)):
        raise ApiError(400, "give either a deal (rules and seed), a position or a record, not several")
    try:
        if position is not None:
            return Game.from_state(parse_position(position)), {}, "position"
        if record is not None:
            if record.lstrip().startswith(SEALED):
                record = unseal(record, request.app.state.key)
            # Parsing and replaying a long record take a while: in a worker, as the bots.
            workers = request.app.state.workers
            loaded = await workers.run(parse_record, record)
            if len(loaded.moves) > MAX_MOVES:
                raise ApiError(400, f"the record has {len(loaded.moves)} moves; this server keeps at most {MAX_MOVES}")
            return await workers.run(Game.from_record, loaded), dict(loaded.tags), "record"
        rules = parse_rules(rules_text or "classic")
    except (ParseError, InvalidRulesError, InvalidStateError, RecordError) as error:
        raise ApiError(400, str(error)) from None
    except ValueError as error:  # any other bad value, e.g. a number too long for int()
        raise ApiError(400, _show(str(error), 200)) from None
    if seed is None:
        seed = secrets.randbelow(RANDOM_SEEDS)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ApiError(400, f"'seed' must be a whole number from 0 to 2**64 - 1, got {_brief(seed)}")
    return Game(rules, seed), {}, "deal"


# Endpoints ----------------------------------------------------------------------

GAME_FIELDS = ("rules", "seed", "position", "record", "bot", "seat", "previous")


def _store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


def _client(request: Request) -> str:
    """The requesting client's token (set by :class:`Guard`)."""
    token: str = request.scope["state"]["client"]
    return token


def _session(request: Request) -> tuple[str, Session]:
    game_id = request.path_params["game_id"]
    return game_id, _store(request).get(game_id, _client(request))


async def new_game(request: Request) -> Response:
    _store(request).count_request(request.client.host if request.client else "")
    data = await read_json(request, GAME_FIELDS)
    game, tags, origin = await _start(request, data)
    tagged_seat = int(tags["Seat"]) if tags.get("Seat") in ("0", "1") else 0
    seat = _choice(data, "seat", (0, 1), tagged_seat)
    tagged_bot = tags.get("Bot") if tags.get("Bot") in BOT_NAMES else "search"
    bot_name = _choice(data, "bot", BOT_NAMES, tagged_bot)
    previous_id = _text(data, "previous", 64)
    store = _store(request)
    owner = _client(request)
    previous = store.find(previous_id, owner) if previous_id else None
    session = Session(
        game=game,
        seat=seat,
        bot_name=bot_name,
        bot=make_bot(bot_name, seed=secrets.randbelow(2**32)),
        match=_new_match(game, seat, previous),
        owner=owner,
        address=request.client.host if request.client else "",
        origin=origin,
    )
    game_id = store.add(session)
    return JSONResponse(game_json(game_id, session), status_code=201)


async def show_game(request: Request) -> Response:
    game_id, session = _session(request)
    return JSONResponse(game_json(game_id, session))


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
    game_id, session = _session(request)
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
            raise ApiError(422, describe_illegal(error)) from None
    return JSONResponse(game_json(game_id, session))


async def bot_move(request: Request) -> Response:
    game_id, session = _session(request)
    await read_json(request, ())
    async with session.lock:
        _check_can_move(session, "bot")
        # The search bot thinks for up to a second: in a worker process, not on the event loop.
        # The bot comes back with it: the planning bot remembers the plan of its turn.
        move, session.bot = await request.app.state.workers.run(choose_remembering, session.bot, session.game.state)
        session.game.push(move)
    return JSONResponse(game_json(game_id, session))


async def undo(request: Request) -> Response:
    game_id, session = _session(request)
    await read_json(request, ())
    async with session.lock:
        keep = session.undo_point()
        if keep is None:
            raise ApiError(409, session.undo_refusal())
        while len(session.game.history) > keep:
            session.game.undo()
    return JSONResponse(game_json(game_id, session))


async def hint(request: Request) -> Response:
    _, session = _session(request)
    _check_can_move(session, "you")
    state = session.game.state
    moves = await request.app.state.workers.run(HINT_BOT.hint, state)
    texts = []
    for move in moves:  # no move but the last reveals a card: each is worded where it is played
        texts.append(describe_move(state, move, names=session.names))
        if move is not moves[-1]:
            state = apply_move(state, move)
    return JSONResponse({"move": str(moves[0]), "moves": [str(move) for move in moves], "texts": texts})


async def record(request: Request) -> Response:
    _, session = _session(request)
    form = request.query_params.get("format", "json")
    if form not in ("json", "text"):
        raise ApiError(400, f"format must be json or text, got {_show(form)}")
    names = ["you", f"{session.bot_name} bot"]
    if session.seat == 1:
        names.reverse()
    game = session.game
    saved = game.to_record(
        players=names,
        date=time.strftime("%Y-%m-%d"),
        tags={"Seat": str(session.seat), "Bot": session.bot_name},
    )
    body = saved.to_json(indent=1) if form == "json" else str(saved) + "\n"
    if not game.is_over:
        # The record holds the whole deal: during the game the player gets it sealed.
        sealed = seal(body, request.app.state.key)
        return Response(
            sealed,
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="crapette-game-in-progress.txt"'},
        )
    name = f"crapette-{game.seed if game.seed is not None else 'position'}"
    suffix = ".json" if form == "json" else ".txt"
    return Response(
        body,
        media_type="application/json" if form == "json" else "text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}{suffix}"'},
    )


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def favicon(request: Request) -> Response:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


def _headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every response carries: a strict content policy, no framing, no caching of the API."""
    headers = [
        (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"cross-origin-resource-policy", b"same-origin"),
    ]
    if path.startswith("/api/"):
        headers.append((b"cache-control", b"no-store"))
    return headers


async def api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    headers = {"Retry-After": "5"} if error.status in (429, 503) else None
    return JSONResponse({"error": error.message}, status_code=error.status, headers=headers)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    path = request.url.path
    shown = path if len(path) <= SHOWN_PATH else path[:SHOWN_PATH] + "..."
    messages = {404: f"no such address: {shown}", 405: f"{request.method} is not allowed here"}
    message = messages.get(error.status_code, str(error.detail)[:200])
    return JSONResponse({"error": message}, status_code=error.status_code, headers=error.headers)


async def server_error(request: Request, error: Exception) -> Response:
    """A bug: logged in full here, a plain message to the client, with the usual headers."""
    LOG.error("%s %s failed", request.method, request.url.path[:SHOWN_PATH], exc_info=error)
    response = JSONResponse({"error": "the server failed on this request (a bug: it is logged)"}, status_code=500)
    response.raw_headers.extend(_headers(request.url.path))
    return response


TOKEN = re.compile(rb"(?:^|;)\s*" + COOKIE.encode() + rb"=([A-Za-z0-9_-]{43})\s*(?:;|$)")


class Guard:
    """ASGI middleware: names the client (the random token of its cookie, set on the first
    answer), refuses other sites' API requests (by ``Sec-Fetch-Site`` and ``Origin``)
    with a 403, and adds the security headers to every answer."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        extra = _headers(scope["path"])
        found = TOKEN.search(headers.get(b"cookie", b""))
        token = found.group(1).decode() if found else secrets.token_urlsafe(32)
        if not found:
            extra.append((b"set-cookie", f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict".encode()))
        scope.setdefault("state", {})["client"] = token

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        refusal = self._cross_site(scope, headers)
        if refusal:
            response = JSONResponse({"error": refusal}, status_code=403)
            await response(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    @staticmethod
    def _cross_site(scope: Any, headers: dict[bytes, bytes]) -> str | None:
        """Why a request from another site is refused, or None."""
        if scope["method"] in ("GET", "HEAD") and not scope["path"].startswith("/api/"):
            return None  # the page itself may be linked to from anywhere
        site = headers.get(b"sec-fetch-site", b"same-origin").decode("latin-1")
        if site not in ("same-origin", "none"):
            return f"requests from other sites are refused (Sec-Fetch-Site: {_show(site)})"
        origin = headers.get(b"origin")
        if origin is not None:
            host = headers.get(b"host", b"").decode("latin-1")
            expected = f"{scope.get('scheme', 'http')}://{host}"
            if origin.decode("latin-1") != expected:
                return f"requests from other sites are refused (Origin: {_show(origin.decode('latin-1'))})"
        return None


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> Any:
    yield
    app.state.workers.close()


def create_app(store: GameStore | None = None, *, workers: Workers | None = None, key: bytes | None = None) -> Starlette:
    """The web app; ``store`` holds its games, ``workers`` runs the bots (closed with the app),
    ``key`` seals mid-game records (default: ``CRAPETTE_WEB_KEY`` in hex, or a random key)."""
    game = "/api/games/{game_id}"
    app = Starlette(
        routes=[
            Route("/", page),
            Route("/favicon.ico", favicon),
            Route("/api/games", new_game, methods=["POST"]),
            Route(game, show_game),
            Route(game + "/moves", play_move, methods=["POST"]),
            Route(game + "/bot", bot_move, methods=["POST"]),
            Route(game + "/undo", undo, methods=["POST"]),
            Route(game + "/hint", hint),
            Route(game + "/record", record),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={ApiError: api_error, HTTPException: http_error, Exception: server_error},
        middleware=[Middleware(Guard)],
        lifespan=_lifespan,
    )
    app.router.redirect_slashes = False  # a redirect would echo the Host header
    app.state.store = store if store is not None else GameStore()
    app.state.workers = workers if workers is not None else Workers()
    env_key = os.environ.get("CRAPETTE_WEB_KEY")
    app.state.key = key if key is not None else bytes.fromhex(env_key) if env_key else secrets.token_bytes(32)
    return app


# Running it -------------------------------------------------------------------


@contextlib.contextmanager
def serve_in_thread(app: Any, host: str = "127.0.0.1") -> Iterator[str]:
    """Run ``app`` on a free port of ``host`` in a background thread; yield its address.

    For tests and scripts: the server stops when the ``with`` block ends, and so
    do the app's worker processes.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # see main()
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
        inner = app
        while inner is not None and not hasattr(getattr(inner, "state", None), "workers"):
            inner = getattr(inner, "app", None)  # through wrapping middleware, as the tests use
        if inner is not None:
            inner.state.workers.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Play crapette against a bot in a browser.")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default: 8000; 0 picks a free one)")
    parser.add_argument("--per-address", type=int, default=MAX_GAMES_PER_ADDRESS, metavar="N",
                        help=f"games the clients of one address may hold (default: {MAX_GAMES_PER_ADDRESS}; raise it behind a proxy)")
    parser.add_argument("--creates-per-minute", type=int, default=CREATES_PER_MINUTE, metavar="N",
                        help=f"new games one address may make a minute (default: {CREATES_PER_MINUTE})")
    args = parser.parse_args(argv)
    store = GameStore(per_address=args.per_address, creates_per_minute=args.creates_per_minute)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    # IPPROTO_TCP, not 0: asyncio turns Nagle's algorithm off only on sockets that say TCP,
    # and with it on every JSON answer would wait 40 ms for the client's delayed ACK.
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as error:
        raise SystemExit(f"cannot listen on {args.host}:{args.port}: {error.strerror}; try --port 0") from None
    sock.listen(128)  # connections wait from now on, even before the server runs
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"crapette: open http://{shown}:{port}/ in a browser to play (Ctrl+C stops the server)", flush=True)
    uvicorn.Server(uvicorn.Config(create_app(store), log_level="warning")).run(sockets=[sock])


if __name__ == "__main__":
    main()
