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

Errors are ``{"error": "<what was wrong>"}`` with a 4xx status (400 malformed or
for another host name, 403 from another site, 404 no such game for this client, 409
out of turn or a sealed record used up, 413 too big, 415 not JSON, 422 illegal move,
429 too many new games or requests), or a 503 when the server is full or busy. A
refused request never changes a game. docs/web.rst says more.

Nothing hidden leaves the server during a game: no face-down card, no seed (the
seed is the whole deal; a finished game shows it), no undo past a card turned face
up, and a record saved mid-game is sealed (encrypted and signed) and bound to its
game (:class:`Seals`: it loads once, while its game has not moved on). A game belongs
to the client whose ``HttpOnly``, ``SameSite=Strict`` cookie made it, a name the
server signs (and renews with each new game); :class:`GameStore` says who may make
room for a new game, so that no client crowds out another; other sites' requests,
and requests for a host name the server was not started with, are refused, and the
page cannot be framed. The bots, the hints and the replay of a loaded record run in
worker processes (:class:`Workers`), never on the event loop, each bot move and hint
within a time limit, a client's jobs in turn with everyone else's. Slow or too many
connections are cut (:class:`GuardedProtocol`), requests are limited per second per
address and per client, and proxy headers count only from the proxies named.
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
from typing import Any, NamedTuple

try:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import ClientDisconnect, Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
    from uvicorn.protocols.http.h11_impl import H11Protocol
except ImportError as error:  # pragma: no cover - depends on the environment
    raise SystemExit(
        f"the web example needs Starlette and uvicorn ({error}): pip install \".[web]\""
    ) from None

from crapette import (
    Game,
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
    view,
)
from crapette.bots import BOT_NAMES, Bot, PlanningBot, make_bot
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
#: The longest a bot move or a hint thinks, in seconds, whatever the rules and the position:
#: then the planning bot plays the best plan it has found (``PlanningBot(seconds=...)``).
JOB_SECONDS = 2.0
#: The bot that gives hints: the turn planner, whatever the opponent, within the time limit.
HINT_BOT = PlanningBot(seconds=JOB_SECONDS)
#: The worker processes that run the bots, the hints and the replays of loaded records.
WORKERS = max(1, min(2, os.cpu_count() or 1))
#: The most jobs waiting for a worker; beyond it a request is refused with a 503 (try again).
MAX_PENDING = 32
#: The most jobs (bot moves, hints, replays) one client may have waiting or running; one a game.
JOBS_PER_CLIENT = 2
#: The most jobs the clients of one network address may have waiting or running together.
JOBS_PER_ADDRESS = 8
#: The most sealed records that may still be loaded, and for how long (see :class:`Seals`).
MAX_SEALS = 10_000
SEAL_SECONDS = 7 * 24 * 3600.0
#: The cookie that names a client.
COOKIE = "crapette-client"
#: The longest path a 404 message repeats.
SHOWN_PATH = 80

LOG = logging.getLogger("crapette.web")


@dataclass(frozen=True)
class Limits:
    """What one connection, address or client may ask of the server (the games have :class:`GameStore`'s limits).

    The defaults suit a server on its own; behind a reverse proxy, name the proxy
    (``proxies``: then its ``X-Forwarded-For`` gives each client's address) and the
    host name the players use (``hosts``).
    """

    #: A request must arrive whole, headers and body, within this many seconds (else the connection is closed).
    request_seconds: float = 10.0
    #: The most connections open at once; beyond, a new connection gets a 503 and is closed.
    connections: int = 256
    #: The most connections open at once from one address (a named proxy excepted).
    connections_per_address: int = 32
    #: Requests a second from one address (a burst of twice as many); beyond, a 429.
    address_rate: float = 50.0
    #: API requests a second from one client (one cookie; a burst of twice as many); beyond, a 429.
    client_rate: float = 20.0
    #: The host names the server answers to, besides the address it listens on (and ``localhost``
    #: on a loopback address): a request for any other name is refused, and so is a request from a
    #: page of any other name (an ``Origin`` check against these, not against the request's ``Host``).
    hosts: tuple[str, ...] = ()
    #: The addresses of the reverse proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` count;
    #: from any other address those headers are ignored.
    proxies: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if min(self.request_seconds, self.address_rate, self.client_rate) <= 0:
            raise ValueError("the time limit and the rates must be positive")
        if min(self.connections, self.connections_per_address) < 1:
            raise ValueError("the server takes at least one connection")
        names = tuple(name.strip().lower() for name in self.hosts)
        if not all(names) or any("/" in name or " " in name for name in names):
            raise ValueError(f"a host is a name or an address, got {self.hosts!r}")
        object.__setattr__(self, "hosts", names)

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
    #: The state, id and JSON of the game as last sent (see ``_game_response``).
    shown: tuple[Any, str, bytes] | None = None

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
    reverse proxy, name the proxy (:attr:`Limits.proxies`), so that each client has its
    own address rather than the proxy's.
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

    def remove(self, game_id: str) -> None:
        """Forget the game ``game_id`` (if it is held)."""
        self._sessions.pop(game_id, None)

    def reassign(self, owner: str, to: str) -> None:
        """Give every game of the client ``owner`` to the client ``to`` (a client's new name)."""
        for session in self._sessions.values():
            if hmac.compare_digest(session.owner, owner):
                session.owner = to

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
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if not body.strip() and not kind:
        return {}  # no body at all (a fetch() without one)
    if kind != "application/json":
        raise ApiError(415, f"the request body must be application/json, got {_show(kind or 'no type')}")
    if not body.strip():
        return {}
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


@dataclass
class _Job:
    """A job waiting for a worker: its client and address, its place in the queue, and the turn it waits for."""

    client: str
    address: str
    number: int
    turn: asyncio.Future[None]


class Workers:
    """A few worker processes for the slow work (bots, hints, replays), shared fairly between clients.

    :meth:`run` awaits ``function(*args)`` in a worker. Each job belongs to a client
    (and its network address) and, for a bot move or a hint, to a game, and the
    queue is fair:

    - a game has one job at a time, a client at most ``per_client`` jobs waiting
      or running, the clients of one address at most ``per_address``; beyond, a
      503 (try again in a moment), at once;
    - at most ``max_pending`` jobs wait in all (beyond, a 503 too);
    - only as many jobs as there are workers are handed to the pool, and when a
      worker is free the next job is that of the address, then of the client,
      with the fewest jobs running, then with the fewest jobs in all (the longest
      waiting among them): whoever sends many jobs, under one name or many,
      waits for its own, not everyone else.

    With the bots' time limit (:data:`JOB_SECONDS`), another client's job waits
    at most about that long for a worker, whatever one client sends. The
    function must be importable by the workers: the library's own (a bot's
    ``choose``, ``parse_record``), not this file's.
    """

    def __init__(
        self,
        workers: int = WORKERS,
        max_pending: int = MAX_PENDING,
        per_client: int = JOBS_PER_CLIENT,
        per_address: int = JOBS_PER_ADDRESS,
    ) -> None:
        if min(workers, max_pending, per_client, per_address) < 1:
            raise ValueError("workers need at least one worker, one place in the queue and one job a client")
        self.workers = workers
        self.max_pending = max_pending
        self.per_client = per_client
        self.per_address = per_address
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._queue: list[_Job] = []
        self._numbers = 0
        #: Jobs handed to the pool and not finished, in all, and by client and by address (keys "c:..." and "a:...").
        self.busy = 0
        self.running: dict[str, int] = {}
        #: Jobs waiting or running, by client and by address (the same keys), and the games with a job.
        self._jobs: dict[str, int] = {}
        self._games: set[str] = set()

    @property
    def pending(self) -> int:
        """The jobs waiting for a worker."""
        return len(self._queue)

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

    async def run(
        self, function: Callable[..., Any], *args: Any, client: str = "", address: str = "", game: str | None = None
    ) -> Any:
        """``function(*args)`` in a worker, for ``client`` at ``address`` (and ``game``), in its turn; see :class:`Workers`."""
        keys = (f"c:{client}", f"a:{address}")
        if game is not None and game in self._games:
            raise ApiError(503, "the server is still working out a bot move or a hint of this game; try again in a moment")
        if self._jobs.get(keys[0], 0) >= self.per_client:
            raise ApiError(503, f"the server is busy with your other bot moves or hints (at most {self.per_client} "
                                "at once); try again in a moment")
        if self._jobs.get(keys[1], 0) >= self.per_address:
            raise ApiError(503, f"the server is busy with the bot moves and hints of your address (at most "
                                f"{self.per_address} at once); try again in a moment")
        if len(self._queue) >= self.max_pending:
            raise ApiError(503, "the server is busy: too many bot moves waiting; try again in a moment")
        _count(self._jobs, keys, 1)
        if game is not None:
            self._games.add(game)
        try:
            await self._turn(keys)
            done: asyncio.Future[Any] | None = None
            try:
                done = asyncio.wrap_future(self._executor().submit(function, *args))
            finally:
                if done is None:  # not handed over: the worker is free again
                    self._release(keys)
                else:
                    # The worker is busy until the job ends, even if this request is cancelled meanwhile.
                    done.add_done_callback(lambda _: self._release(keys))
            return await asyncio.shield(done)
        except concurrent.futures.process.BrokenProcessPool:
            with self._lock:
                self._pool = None  # a worker died: the next job starts a new pool
            raise ApiError(503, "the server's worker stopped; try again") from None
        finally:
            _count(self._jobs, keys, -1)
            if game is not None:
                self._games.discard(game)

    async def _turn(self, keys: tuple[str, str]) -> None:
        """Wait until a worker is free for a job of ``keys`` (client, address), and take it."""
        if self.busy < self.workers and not self._queue:
            self._take(keys)
            return
        self._numbers += 1
        job = _Job(keys[0], keys[1], self._numbers, asyncio.get_running_loop().create_future())
        self._queue.append(job)
        try:
            await job.turn
        except asyncio.CancelledError:
            if job in self._queue:
                self._queue.remove(job)
            elif job.turn.done() and not job.turn.cancelled():
                self._release(keys)  # given a worker, then cancelled: hand it on
            raise

    def _take(self, keys: tuple[str, str]) -> None:
        self.busy += 1
        _count(self.running, keys, 1)

    def _release(self, keys: tuple[str, str]) -> None:
        self.busy -= 1
        _count(self.running, keys, -1)
        while self.busy < self.workers and self._queue:
            # The address, then the client, with the fewest jobs running goes first; then the one with
            # the fewest jobs in all (whoever sends many waits for its own); then the longest waiting.
            running, jobs = self.running, self._jobs
            job = min(self._queue, key=lambda j: (
                running.get(j.address, 0), running.get(j.client, 0), jobs.get(j.address, 0), jobs.get(j.client, 0), j.number
            ))
            self._queue.remove(job)
            self._take((job.client, job.address))
            job.turn.set_result(None)

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

def _count(counts: dict[str, int], keys: tuple[str, ...], step: int) -> None:
    """Add ``step`` to the count of each key, forgetting a count that falls to 0."""
    for key in keys:
        counts[key] = counts.get(key, 0) + step
        if not counts[key]:
            del counts[key]


# Sealed records -------------------------------------------------------------------

SEALED = "crapette-sealed-record:2:"
#: What every sealed record starts with, whatever the version.
SEALED_ANY = "crapette-sealed-record:"


def _crypt(key: bytes, nonce: bytes, data: bytes) -> bytes:
    """``data`` XOR a key stream of ``key`` and ``nonce`` (SHAKE-256): encrypts and decrypts."""
    stream = hashlib.shake_256(b"crapette-seal" + key + nonce).digest(len(data))
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def seal(text: str, key: bytes, name: str) -> str:
    """``text`` encrypted and signed with ``key``, under the seal ``name``: only a server with the key reads it back."""
    nonce = secrets.token_bytes(16)
    plain = zlib.compress(f"{name}\n{text}".encode("utf-8"))
    cipher = _crypt(key, nonce, plain)
    tag = hmac.new(key, nonce + cipher, hashlib.sha256).digest()
    return SEALED + base64.urlsafe_b64encode(nonce + tag + cipher).decode("ascii") + "\n"


def unseal(text: str, key: bytes) -> tuple[str, str]:
    """The seal's name and the text :func:`seal` sealed with ``key``; a 400 if it was changed or sealed elsewhere."""
    text = text.strip()
    if not text.startswith(SEALED):
        raise ApiError(400, "the sealed record was saved by an older version of this server: it cannot be loaded")
    try:
        raw = base64.urlsafe_b64decode(text[len(SEALED):].encode("ascii"))
    except ValueError:
        raise ApiError(400, "the sealed record is damaged") from None
    nonce, tag, cipher = raw[:16], raw[16:48], raw[48:]
    if not hmac.compare_digest(tag, hmac.new(key, nonce + cipher, hashlib.sha256).digest()):
        raise ApiError(400, "the sealed record was changed, or saved by another server (or before it restarted)")
    plain = _crypt(key, nonce, cipher)
    try:
        name, _, body = zlib.decompressobj().decompress(plain, MAX_BODY * 4).decode("utf-8").partition("\n")
    except (zlib.error, UnicodeDecodeError):
        raise ApiError(400, "the sealed record is damaged") from None
    return name, body


class Seals:
    """The sealed records that may still be loaded: each binds a game in progress to the point it was saved at.

    A record saved during a game holds the whole deal, so a copy of it must not
    take the game back to a point before cards it has turned face up since (its
    holder would replay knowing them). So a sealed record loads only while it is
    the last one saved of its game and the game has not changed since (a move,
    a bot move or an undo revokes it: :meth:`revoke`), only once, and loading it
    takes the game over (the game it came from is forgotten): there is never a
    second copy. At most ``limit`` seals are kept, each for ``seconds`` (the
    oldest go first), and none outlives the server: after a restart no sealed
    record loads.
    """

    def __init__(self, limit: int = MAX_SEALS, seconds: float = SEAL_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.seconds = seconds
        self.clock = clock
        self._open: OrderedDict[str, tuple[str, float]] = OrderedDict()  # seal -> (game id, when), oldest first
        self._of_game: dict[str, str] = {}  # game id -> its open seal

    def __len__(self) -> int:
        return len(self._open)

    def issue(self, game_id: str) -> str:
        """A new seal for the game ``game_id`` as it is now; the game's earlier seal no longer loads."""
        self.revoke(game_id)
        name = secrets.token_urlsafe(16)
        self._open[name] = (game_id, self.clock())
        self._of_game[game_id] = name
        while len(self._open) > self.limit:
            old, (game, _) = self._open.popitem(last=False)
            self._of_game.pop(game, None)
        return name

    def revoke(self, game_id: str) -> None:
        """The game ``game_id`` has changed (or ended here): its sealed record no longer loads."""
        name = self._of_game.pop(game_id, None)
        if name is not None:
            self._open.pop(name, None)

    def check(self, name: str) -> str:
        """The game the seal ``name`` was saved from, if it may be loaded; a 409 if not."""
        found = self._open.get(name)
        if found is None or found[1] < self.clock() - self.seconds:
            raise ApiError(
                409,
                "this sealed record can no longer be loaded: a record saved during a game loads once, only while "
                "its game has not moved on since it was saved (and no later save of it was made), and only on "
                "the server that saved it, until it restarts",
            )
        return found[0]

    def redeem(self, name: str) -> str:
        """Use the seal ``name`` up (see :meth:`check`); the game it was saved from."""
        game_id = self.check(name)
        self.revoke(game_id)
        return game_id

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
    # Of the choices' own type: 1.0 == 1 and True == 1 in Python, but neither is the seat 1.
    if type(value) not in {type(choice) for choice in choices} or value not in choices:
        raise ApiError(400, f"{key!r} must be one of {', '.join(map(str, choices))}, got {_brief(value)}")
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


class _Start(NamedTuple):
    """What a new-game request starts: the game, the tags of a loaded record, how it began, the game it takes over."""

    game: Game
    tags: dict[str, str]
    origin: str
    #: The seal of a sealed record (redeemed once the new game is kept: see :class:`Seals`), or None.
    seal: str | None = None


async def _start(request: Request, data: dict[str, Any]) -> _Start:
    """The game a new-game request asks for (see :class:`_Start`)."""
    position = _text(data, "position", MAX_POSITION_LENGTH)
    record = _text(data, "record", MAX_BODY)
    rules_text = _text(data, "rules", 1024)
    seed = data.get("seed")
    given = [name for name in ("position", "record") if data.get(name) is not None]
    if len(given) == 2 or (given and (rules_text is not None or seed is not None)):
        raise ApiError(400, "give either a deal (rules and seed), a position or a record, not several")
    try:
        if position is not None:
            return _Start(Game.from_state(parse_position(position)), {}, "position")
        if record is not None:
            sealed = None
            seals: Seals = request.app.state.seals
            if record.lstrip().startswith(SEALED_ANY):
                sealed, record = unseal(record, request.app.state.key)
                seals.check(sealed)  # before the work of the replay
            # Parsing and replaying a long record take a while: in a worker, as the bots.
            workers: Workers = request.app.state.workers
            asker = _asker(request)
            loaded = await workers.run(parse_record, record, **asker)
            if len(loaded.moves) > MAX_MOVES:
                raise ApiError(400, f"the record has {len(loaded.moves)} moves; this server keeps at most {MAX_MOVES}")
            game = await workers.run(Game.from_record, loaded, **asker)
            return _Start(game, dict(loaded.tags), "record", sealed)
        rules = parse_rules(rules_text or "classic")
    except (ParseError, InvalidRulesError, InvalidStateError, RecordError) as error:
        raise ApiError(400, str(error)) from None
    except ValueError as error:  # any other bad value, e.g. a number too long for int()
        raise ApiError(400, _show(str(error), 200)) from None
    if seed is None:
        seed = secrets.randbelow(RANDOM_SEEDS)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ApiError(400, f"'seed' must be a whole number from 0 to 2**64 - 1, got {_brief(seed)}")
    return _Start(Game(rules, seed), {}, "deal")
# Endpoints ----------------------------------------------------------------------

GAME_FIELDS = ("rules", "seed", "position", "record", "bot", "seat", "previous")


def _store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


def _client(request: Request) -> str:
    """The requesting client's token (set by :class:`Guard`)."""
    token: str = request.scope["state"]["client"]
    return token


def _asker(request: Request) -> dict[str, str]:
    """Who a job is for: the requesting client and its address (see :class:`Workers`)."""
    return {"client": _client(request), "address": request.client.host if request.client else ""}


def _session(request: Request) -> tuple[str, Session]:
    game_id = request.path_params["game_id"]
    return game_id, _store(request).get(game_id, _client(request))


def _renew_client(request: Request) -> None:
    """Give the requesting client a new name (its games with it), sent in this answer's cookie."""
    state = request.scope["state"]
    new = issue_client(request.app.state.key)
    _store(request).reassign(state["client"], new)
    state["client"] = state["new_client"] = new


def _game_response(game_id: str, session: Session, status_code: int = 200) -> Response:
    """:func:`game_json` as an answer, written once for each state of the game (a long game's JSON takes a while)."""
    state = session.game.state
    if session.shown is None or session.shown[0] is not state or session.shown[1] != game_id:
        session.shown = (state, game_id, JSONResponse(game_json(game_id, session)).body)
    return Response(session.shown[2], status_code=status_code, media_type="application/json")


def _changed(request: Request, game_id: str) -> None:
    """The game ``game_id`` has changed: a record sealed before no longer loads."""
    request.app.state.seals.revoke(game_id)


def _web_bot(name: str) -> Bot:
    """The bot ``name`` as this server plays it: the planning bot within the time limit of a job."""
    bot = make_bot(name, seed=secrets.randbelow(2**32))
    if isinstance(bot, PlanningBot):
        bot = PlanningBot(bot.seed, bot.playouts, seconds=JOB_SECONDS)
    return bot


async def new_game(request: Request) -> Response:
    _store(request).count_request(request.client.host if request.client else "")
    data = await read_json(request, GAME_FIELDS)
    # Every field is checked before a sealed record is used up.
    seat_given = _choice(data, "seat", (0, 1), None)
    bot_given = _choice(data, "bot", BOT_NAMES, None)
    previous_id = _text(data, "previous", 64)
    start = await _start(request, data)
    game, tags = start.game, start.tags
    seat = seat_given if seat_given is not None else int(tags["Seat"]) if tags.get("Seat") in ("0", "1") else 0
    tagged_bot = tags.get("Bot") if tags.get("Bot") in BOT_NAMES else "search"
    bot_name = bot_given if bot_given is not None else tagged_bot
    store = _store(request)
    owner = _client(request)
    previous = store.find(previous_id, owner) if previous_id else None
    session = Session(
        game=game,
        seat=seat,
        bot_name=bot_name,
        bot=_web_bot(bot_name),
        match=_new_match(game, seat, previous),
        owner=owner,
        address=request.client.host if request.client else "",
        origin=start.origin,
    )
    game_id = store.add(session)
    if start.seal is not None:
        try:
            taken = request.app.state.seals.redeem(start.seal)
        except ApiError:
            store.remove(game_id)  # another request loaded it first
            raise
        store.remove(taken)  # the game it was saved from goes on here, and only here
    # A new game, a new name for the client: a name someone else planted in the browser
    # (session fixation) owns nothing from now on. The client's games go with it.
    _renew_client(request)
    return _game_response(game_id, session, 201)


async def show_game(request: Request) -> Response:
    game_id, session = _session(request)
    return _game_response(game_id, session)


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
        _changed(request, game_id)
    return _game_response(game_id, session)


async def bot_move(request: Request) -> Response:
    game_id, session = _session(request)
    await read_json(request, ())
    async with session.lock:
        _check_can_move(session, "bot")
        # The search bot thinks for up to JOB_SECONDS: in a worker process, in its client's turn,
        # not on the event loop. Its move is a function of the view: nothing comes back but the move.
        workers: Workers = request.app.state.workers
        move = await workers.run(session.bot.choose, view(session.game.state), game=game_id, **_asker(request))
        session.game.push(move)
        _changed(request, game_id)
    return _game_response(game_id, session)


async def undo(request: Request) -> Response:
    game_id, session = _session(request)
    await read_json(request, ())
    async with session.lock:
        keep = session.undo_point()
        if keep is None:
            raise ApiError(409, session.undo_refusal())
        while len(session.game.history) > keep:
            session.game.undo()
        _changed(request, game_id)
    return _game_response(game_id, session)


async def hint(request: Request) -> Response:
    game_id, session = _session(request)
    _check_can_move(session, "you")
    state = session.game.state
    workers: Workers = request.app.state.workers
    # The view alone: following hints never leads back to a position of the turn.
    moves = await workers.run(HINT_BOT.hint, view(state), game=game_id, **_asker(request))
    texts = []
    # No move but the last reveals a card: each is worded where it is played. By position, not by
    # identity: moves are shared values, and a hint may repeat one (draw, play, draw again).
    for index, move in enumerate(moves):
        texts.append(describe_move(state, move, names=session.names))
        if index < len(moves) - 1:
            state = apply_move(state, move)
    return JSONResponse({"move": str(moves[0]), "moves": [str(move) for move in moves], "texts": texts})


async def record(request: Request) -> Response:
    game_id, session = _session(request)
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
        # The record holds the whole deal: during the game the player gets it sealed, and
        # bound to the game as it is now (see Seals): it loads once, if the game has not moved on.
        sealed = seal(body, request.app.state.key, request.app.state.seals.issue(game_id))
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


# Who asks, from where, how often ---------------------------------------------------

#: A client's name: 16 random bytes, then the server's signature of them (both base64url).
TOKEN = re.compile(rb"(?:^|;)\s*" + COOKIE.encode() + rb"=([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})\s*(?:;|$)")


def _signature(key: bytes, name: str) -> str:
    digest = hmac.new(key, b"crapette-client:" + name.encode("ascii"), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def issue_client(key: bytes) -> str:
    """A new client name, signed with ``key``: the server issues every client's name, no client picks one."""
    name = secrets.token_urlsafe(16)
    return f"{name}.{_signature(key, name)}"


def _client_from(cookie: bytes, key: bytes) -> str | None:
    """The client name the cookie header holds, if this server issued it (signed with ``key``); else None."""
    found = TOKEN.search(cookie)
    if found is None:
        return None
    name, signature = found.group(1).decode("ascii"), found.group(2).decode("ascii")
    return f"{name}.{signature}" if hmac.compare_digest(signature, _signature(key, name)) else None


class Rates:
    """Token buckets: each key may make ``rate`` requests a second, in bursts of twice as many."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic, keep: int = 20_000) -> None:
        self.rate = rate
        self.burst = 2 * rate
        self.clock = clock
        self.keep = keep
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)

    def allow(self, key: str) -> bool:
        """Take one request of ``key``'s bucket; False if it is empty."""
        now = self.clock()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > self.keep:  # forget the buckets full again (quiet for a while)
            full = self.burst / self.rate
            self._buckets = {k: (t, w) for k, (t, w) in self._buckets.items() if now - w < full}
        return True


_LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _host_name(text: str) -> str:
    """The host name of a ``Host`` header or an origin's host, without its port, in lower case."""
    text = text.strip().lower()
    if text.startswith("["):  # an IPv6 address: [::1]:8000
        return text[1 : text.find("]")] if "]" in text else text
    return text.rpartition(":")[0] if text.count(":") == 1 else text


class Guard:
    """ASGI middleware: which host, which site, which client, how often; and the security headers.

    In order: a request for a host name the server was not started for is refused
    (400: a page of another name that resolves to this server, DNS rebinding, gets
    nothing); the client is named by its signed cookie (an unsigned or forged one
    counts as none, and a new name is set in the answer); an API request from another
    site is refused (403, by ``Sec-Fetch-Site``, and by ``Origin`` against the
    server's own names, never against the request's ``Host``); an address over its
    :attr:`Limits.address_rate`, or a client over its :attr:`Limits.client_rate` of
    API requests, gets a 429. Every answer carries the security headers.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope["app"].state
        limits: Limits = state.limits
        headers = dict(scope.get("headers") or [])
        extra = _headers(scope["path"])
        given = _client_from(headers.get(b"cookie", b""), state.key)
        client = given or issue_client(state.key)
        scope.setdefault("state", {})["client"] = client
        if given is None:
            scope["state"]["new_client"] = client

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                added = list(extra)
                new = scope["state"].get("new_client")
                if new is not None:
                    added.append((b"set-cookie", f"{COOKIE}={new}; Path=/; HttpOnly; SameSite=Strict".encode()))
                message = {**message, "headers": list(message.get("headers", [])) + added}
            await send(message)

        status, refusal = self._refusal(scope, headers, limits, client)
        if refusal:
            retry = {"Retry-After": "1"} if status == 429 else None
            response = JSONResponse({"error": refusal}, status_code=status, headers=retry)
            await response(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    def _refusal(self, scope: Any, headers: dict[bytes, bytes], limits: Limits, client: str) -> tuple[int, str | None]:
        """The status and the reason a request is refused, or None."""
        names = _names(scope, limits)
        host = _host_name(headers.get(b"host", b"").decode("latin-1"))
        if host not in names:
            # The name is not repeated: it is the asker's, and could be anything.
            return 400, ("unknown host: this server answers only to the names it was started for "
                         "(--allowed-host NAME adds one)")
        site = self._cross_site(scope, headers, names)
        if site:
            return 403, site
        by_address, by_client = scope["app"].state.rates
        address = scope["client"][0] if scope.get("client") else ""
        if not by_address.allow(address):
            return 429, f"too many requests from your address: at most {limits.address_rate:g} a second"
        if scope["path"].startswith("/api/") and not by_client.allow(client):
            return 429, f"too many requests: at most {limits.client_rate:g} a second"
        return 200, None

    @staticmethod
    def _cross_site(scope: Any, headers: dict[bytes, bytes], names: frozenset[str]) -> str | None:
        """Why a request from another site is refused, or None."""
        if scope["method"] in ("GET", "HEAD") and not scope["path"].startswith("/api/"):
            return None  # the page itself may be linked to from anywhere
        site = headers.get(b"sec-fetch-site", b"same-origin").decode("latin-1")
        if site not in ("same-origin", "none"):
            return f"requests from other sites are refused (Sec-Fetch-Site: {_show(site)})"
        origin = headers.get(b"origin")
        if origin is not None:
            text = origin.decode("latin-1")
            scheme, sep, rest = text.partition("://")
            if not sep or scheme.lower() not in ("http", "https") or "/" in rest or _host_name(rest) not in names:
                return f"requests from other sites are refused (Origin: {_show(text)})"
        return None


def _names(scope: Any, limits: Limits) -> frozenset[str]:
    """The host names a request may name: the configured ones, the address it came in on, and on loopback localhost."""
    server = scope.get("server") or ("", None)
    address = str(server[0]).lower()
    names = {address, *(_host_name(name) for name in limits.hosts)}
    if address in _LOOPBACK or address.startswith("127."):
        names.update(_LOOPBACK)
    names.discard("")
    return frozenset(names)

@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> Any:
    yield
    app.state.workers.close()


def create_app(
    store: GameStore | None = None,
    *,
    workers: Workers | None = None,
    key: bytes | None = None,
    limits: Limits | None = None,
    seals: Seals | None = None,
) -> Starlette:
    """The web app; ``store`` holds its games, ``workers`` runs the bots (closed with the app), ``limits``
    says what a connection, an address and a client may ask (see :func:`uvicorn_config` for the
    connections), ``key`` signs the clients' names and seals mid-game records (default: a random key),
    ``seals`` keeps the sealed records that may be loaded."""
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
    app.state.key = key if key is not None else secrets.token_bytes(32)
    app.state.limits = limits if limits is not None else Limits()
    app.state.seals = seals if seals is not None else Seals()
    app.state.rates = (Rates(app.state.limits.address_rate), Rates(app.state.limits.client_rate))
    return app

# Running it -------------------------------------------------------------------


def _security_headers() -> bytes:
    return b"".join(name + b": " + value + b"\r\n" for name, value in _headers("/"))


class GuardedProtocol(H11Protocol):  # type: ignore[misc]
    """uvicorn's HTTP/1.1 protocol with limits on connections and on slow requests.

    A connection over :attr:`Limits.connections` in all, or over
    :attr:`Limits.connections_per_address` from one address (a named proxy
    excepted), gets a 503 at once and is closed. A request must arrive whole,
    headers and body, within :attr:`Limits.request_seconds` of the moment the
    connection was ready for it (slowloris: a client that sends a byte now and
    then holds nothing for long); else the connection is closed. uvicorn's own
    400, for a request it cannot read, carries the security headers too.
    :func:`uvicorn_config` makes the protocol for given :class:`Limits`.
    """

    limits: Limits = Limits()

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        limits = self.limits
        address = self.client[0] if self.client else ""
        same = 0
        if address not in limits.proxies:
            same = sum(1 for other in self.connections if (getattr(other, "client", None) or ("",))[0] == address)
        if len(self.connections) > limits.connections or same > limits.connections_per_address:
            self._refuse("too many connections: try again in a moment")
            return
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.limits.request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            LOG.info("client %s sent no whole request in %g s: connection closed",
                     self.client[0] if self.client else "?", self.limits.request_seconds)
            self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.more_body:
            self._disarm()  # the request is in whole: the time limit is the bot's now

    def on_response_complete(self) -> None:
        # The next request on this connection has its own time limit (armed first: uvicorn may
        # go on at once with a request that came in behind this one, and disarm it when whole).
        self._arm()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _refuse(self, message: str) -> None:
        body = json.dumps({"error": message}).encode()
        self.transport.write(
            b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"retry-after: 5\r\n" + _security_headers() + b"content-length: " + str(len(body)).encode()
            + b"\r\n\r\n" + body
        )
        self.transport.close()

    def send_400_response(self, msg: str) -> None:
        # uvicorn's answer to a request it cannot read, with the headers of every other answer.
        body = json.dumps({"error": f"a malformed HTTP request: {msg}"}).encode()
        self.transport.write(
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n"
            + _security_headers() + b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        self.transport.close()


def _limits_of(app: Any) -> Limits:
    """The :class:`Limits` of the web app ``app`` (through wrapping middleware, as the tests use)."""
    inner = app
    while inner is not None and not hasattr(getattr(inner, "state", None), "limits"):
        inner = getattr(inner, "app", None)
    return inner.state.limits if inner is not None else Limits()


def uvicorn_config(app: Any, **options: Any) -> uvicorn.Config:
    """uvicorn's settings for ``app``: :class:`GuardedProtocol` with the app's :class:`Limits`, and proxy
    headers believed only from the proxies named there (uvicorn believes them from 127.0.0.1 by default)."""
    limits = _limits_of(app)
    protocol = type("GuardedProtocol", (GuardedProtocol,), {"limits": limits})
    return uvicorn.Config(
        app,
        http=protocol,
        proxy_headers=bool(limits.proxies),
        forwarded_allow_ips=list(limits.proxies) or None,
        server_header=False,
        **{"log_level": "warning", **options},
    )


@contextlib.contextmanager
def serve_in_thread(app: Any, host: str = "127.0.0.1") -> Iterator[str]:
    """Run ``app`` on a free port of ``host`` in a background thread; yield its address.

    For tests and scripts: the server stops when the ``with`` block ends, and so
    do the app's worker processes.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # see main()
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(app, lifespan="off"))
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
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help="a host name the players use to reach the server, besides the address it listens "
                        "on (and localhost); requests for other names are refused (repeat for several)")
    parser.add_argument("--proxy", action="append", default=[], metavar="ADDRESS",
                        help="the address of a reverse proxy in front of the server, whose X-Forwarded-For "
                        "and X-Forwarded-Proto are believed (repeat for several; default: none)")
    parser.add_argument("--per-address", type=int, default=MAX_GAMES_PER_ADDRESS, metavar="N",
                        help=f"games the clients of one address may hold (default: {MAX_GAMES_PER_ADDRESS})")
    parser.add_argument("--creates-per-minute", type=int, default=CREATES_PER_MINUTE, metavar="N",
                        help=f"new games one address may make a minute (default: {CREATES_PER_MINUTE})")
    parser.add_argument("--address-rate", type=float, default=Limits.address_rate, metavar="N",
                        help=f"requests a second from one address (default: {Limits.address_rate:g})")
    parser.add_argument("--client-rate", type=float, default=Limits.client_rate, metavar="N",
                        help=f"API requests a second from one client (default: {Limits.client_rate:g})")
    args = parser.parse_args(argv)
    try:
        store = GameStore(per_address=args.per_address, creates_per_minute=args.creates_per_minute)
        limits = Limits(hosts=tuple(args.allowed_host), proxies=tuple(args.proxy),
                        address_rate=args.address_rate, client_rate=args.client_rate)
    except ValueError as error:
        parser.error(str(error))
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
    if args.host in ("0.0.0.0", "::") and not args.allowed_host:
        print("crapette: players reach the server by its address; add the names they use with --allowed-host",
              flush=True)
    uvicorn.Server(uvicorn_config(create_app(store, limits=limits))).run(sockets=[sock])


if __name__ == "__main__":
    main()
