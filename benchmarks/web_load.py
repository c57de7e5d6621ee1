"""Load on the web example: requests/s, GET latency with and without slow bots, memory.

Run ``python benchmarks/web_load.py`` (it needs the ``web`` extra). It starts
``examples/web/server.py`` in a process of its own on 127.0.0.1 (with the
per-address limits raised: every client here comes from one address), then,
for ``--seconds`` each, runs four scenarios from this process. In each, one
probe client GETs a game of its own every 20 ms, as a player's page would, and
its latency is measured (p50, p99, max):

* ``readers``: ``--readers`` more clients, each with its own game (and cookie),
  GET it in a loop on a kept-alive connection: the requests per second;
* ``idle``: the probe alone;
* ``slow bots``: ``--bots`` clients play against ``search:strong`` (about a
  second a move on one core), asking for bot moves as fast as they come;
* ``uploads``: ``--uploaders`` clients load a saved record of
  ``--record-moves`` moves in a loop.

For each it prints the GET requests per second, the probe's latency (p50, p99,
max), the bot moves or uploads done, and the resident memory of the server
and its worker processes (from ``/proc``, so on Linux).

Then, on a server of its own that believes ``X-Forwarded-For`` from 127.0.0.1
(so that the two sides have addresses of their own), the ``hostile`` scenario:
32 clients from one address ask for hints on a crafted position (classic,
``revisits=false``, ``stack_limit=unlimited``, long runs in four houses) over
and over, 32 at once, while a victim from another address plays against the
search bot; it prints the victim's bot-move latency (p50, max) beside the
probe's GETs. ``--server PATH`` measures another version of ``server.py``
(the options it lacks are left out). The figures depend on the machine and
what else runs on it: see docs/web.rst for a measured run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from crapette import Game

SERVER = Path(__file__).resolve().parents[1] / "examples" / "web" / "server.py"


class Client:
    """One client: its own cookie (as the server renews it), a kept-alive connection, maybe an address of its own."""

    def __init__(self, port: int, address: str | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        self.cookie = ""
        self.address = address

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if self.address:
            headers["X-Forwarded-For"] = self.address
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        text = response.read()
        cookie = response.getheader("set-cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        kind = response.getheader("content-type", "")
        return response.status, json.loads(text) if kind.startswith("application/json") else text


def rss_kb(pid: int) -> int:
    """The resident memory of ``pid`` and its children, in KB (0 where /proc is missing)."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for one in pids:
        try:
            status = Path(f"/proc/{one}/status").read_text()
        except OSError:
            continue
        found = re.search(r"VmRSS:\s+(\d+) kB", status)
        total += int(found.group(1)) if found else 0
    return total


def reader(port: int, stop: threading.Event, latencies: list[float], pause: float = 0.0, address: str | None = None) -> None:
    """GET a game of its own until ``stop``, ``pause`` seconds apart; each latency in ``latencies``."""
    client = Client(port, address)
    status, game = client.request("POST", "/api/games", {"rules": "classic", "bot": "random"})
    assert status == 201, game
    path = f"/api/games/{game['id']}"
    while not stop.is_set():
        start = time.perf_counter()
        status, _ = client.request("GET", path)
        latencies.append(time.perf_counter() - start)
        assert status == 200
        if pause:
            time.sleep(pause)


def bot_player(port: int, stop: threading.Event, done: list[int], seed: int) -> None:
    client = Client(port)
    status, game = client.request("POST", "/api/games", {"rules": "classic", "seed": seed, "bot": "search:strong", "seat": 1})
    assert status == 201, game
    path = f"/api/games/{game['id']}"
    while not stop.is_set() and game["turn"] != "over":
        if game["turn"] == "bot":
            status, answer = client.request("POST", path + "/bot")
            if status == 503:  # the workers are busy: try again, as the page does
                time.sleep(0.2)
                continue
            assert status == 200, answer
            game = answer
            done.append(1)
        else:
            status, game = client.request("POST", path + "/moves", {"move": game["view"]["legal_moves"][0]})
            assert status == 200, game


def uploader(port: int, stop: threading.Event, done: list[int], record: str) -> None:
    client = Client(port)
    while not stop.is_set():
        status, answer = client.request("POST", "/api/games", {"record": record})
        assert status in (201, 503), answer
        if status == 201:
            done.append(1)


def crafted_position() -> str:
    """The position of the attack on the hints: long runs of alternating colours in four houses."""
    from crapette import GameState

    def run(suits: str, deck: int) -> str:
        return " ".join(f"{rank}{suits[i % 2]}{deck}" for i, rank in enumerate("KQJT98765432"))

    return str(GameState.from_piles(
        "classic(revisits=false,stack_limit=unlimited)",
        tableau={0: run("HS", 0), 1: run("SH", 0), 2: run("DC", 1), 3: run("CD", 1)},
        rest="hand",
    ))


def hinter(port: int, stop: threading.Event, done: list[int], position: str) -> None:
    """A hostile client (of address 10.6.6.6): hints on the crafted position, over and over."""
    client = Client(port, "10.6.6.6")
    status, game = client.request("POST", "/api/games", {"position": position, "bot": "search:strong"})
    assert status == 201, game
    while not stop.is_set():
        status, _ = client.request("GET", f"/api/games/{game['id']}/hint")
        if status == 200:
            done.append(1)
        else:
            stop.wait(0.2)


def victim(port: int, stop: threading.Event, waits: list[float]) -> None:
    """A client (of address 10.0.0.1) playing the search bot: the time each bot move takes."""
    client = Client(port, "10.0.0.1")
    status, game = client.request("POST", "/api/games", {"rules": "casual", "seed": 1, "seat": 1, "bot": "search"})
    assert status == 201, game
    path = f"/api/games/{game['id']}"
    while not stop.is_set() and game["turn"] != "over":
        if game["turn"] == "bot":
            start = time.perf_counter()
            status, answer = client.request("POST", path + "/bot")
            while status == 503:  # the workers are busy: try again, as the page does (the wait counts)
                time.sleep(1.5)
                status, answer = client.request("POST", path + "/bot")
            assert status == 200, answer
            waits.append(time.perf_counter() - start)
            game = answer
        else:
            status, game = client.request("POST", path + "/moves", {"move": game["view"]["legal_moves"][0]})
            assert status == 200, game


def hostile(port: int, pid: int, seconds: float) -> dict[str, Any]:
    """The hostile scenario: 32 hinters, a victim, the probe."""
    stop = threading.Event()
    position = crafted_position()
    hints: list[int] = []
    waits: list[float] = []
    latencies: list[float] = []
    threads = [threading.Thread(target=hinter, args=(port, stop, hints, position)) for _ in range(32)]
    for thread in threads:
        thread.start()
    time.sleep(3)  # the hints are under way
    more = [threading.Thread(target=victim, args=(port, stop, waits)),
            threading.Thread(target=reader, args=(port, stop, latencies, 0.1, "10.0.0.2"))]
    for thread in more:
        thread.start()
    time.sleep(seconds)
    memory = rss_kb(pid)
    stop.set()
    for thread in threads + more:
        thread.join(timeout=600)
    ordered = sorted(latencies)
    return {
        "gets_per_s": len(latencies) / seconds,
        "p50_ms": 1000 * statistics.median(ordered),
        "p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))],
        "max_ms": 1000 * ordered[-1],
        "others": len(hints),
        "rss_mb": memory / 1024,
        "bot_moves": len(waits),
        "bot_p50_s": statistics.median(waits) if waits else float("nan"),
        "bot_max_s": max(waits) if waits else float("nan"),
    }


def start_server(path: Path, options: list[str]) -> tuple[subprocess.Popen[str], int]:
    """Start ``path`` on a free port with the ``options`` it knows; the process and its port."""
    known = subprocess.run([sys.executable, str(path), "--help"], capture_output=True, text=True).stdout
    argv = [sys.executable, str(path), "--port", "0"]
    for name, value in zip(options[::2], options[1::2]):
        if name in known:
            argv += [name, value]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdout is not None
    port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))  # type: ignore[union-attr]
    return server, port


def long_record(moves: int) -> str:
    game = Game("classic", seed=5)
    rng = random.Random(1)
    while len(game.history) < moves and not game.is_over:
        game.push(rng.choice(game.legal_moves))
    return game.to_record().to_json()


def scenario(port: int, pid: int, seconds: float, readers: int, extra: Any = None, count: int = 0) -> dict[str, Any]:
    stop = threading.Event()
    gets: list[float] = []
    latencies: list[float] = []  # the probe's: one GET every 20 ms, as a player's page would
    done: list[int] = []
    threads = [threading.Thread(target=reader, args=(port, stop, gets)) for _ in range(readers)]
    threads.append(threading.Thread(target=reader, args=(port, stop, latencies, 0.02)))
    if extra is not None:
        threads += [threading.Thread(target=extra, args=(port, stop, done, i)) for i in range(count)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    memory = rss_kb(pid)
    stop.set()
    for thread in threads:
        thread.join(timeout=120)
    ordered = sorted(latencies)
    return {
        "gets_per_s": (len(gets) + len(latencies)) / seconds,
        "p50_ms": 1000 * statistics.median(ordered),
        "p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))],
        "max_ms": 1000 * ordered[-1],
        "others": len(done),
        "rss_mb": memory / 1024,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each scenario runs (default: 10)")
    parser.add_argument("--readers", type=int, default=4, help="clients reading their game (default: 4)")
    parser.add_argument("--bots", type=int, default=20, help="clients playing search:strong (default: 20)")
    parser.add_argument("--uploaders", type=int, default=4, help="clients loading records (default: 4)")
    parser.add_argument("--record-moves", type=int, default=2000, help="moves in the uploaded record (default: 2000)")
    parser.add_argument("--hostile-seconds", type=float, default=30.0,
                        help="how long the hostile scenario runs (default: 30; 0 leaves it out)")
    parser.add_argument("--server", type=Path, default=SERVER, help="the server.py to measure (default: the example's)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    record = long_record(args.record_moves)
    # Every client here comes from 127.0.0.1: the per-address limits are raised out of the way.
    unlimited = ["--per-address", "10000", "--creates-per-minute", "100000",
                 "--address-rate", "1000000000", "--client-rate", "1000000000"]
    server, port = start_server(args.server, unlimited)
    try:
        # Warm the workers up (they start on the first bot move), then measure.
        scenario(port, server.pid, 2, 1, lambda p, s, d, i: bot_player(p, s, d, 100 + i), 2)
        results = {
            f"{args.readers} readers (throughput)": scenario(port, server.pid, args.seconds, args.readers),
            "idle (latency)": scenario(port, server.pid, args.seconds, 0),
            f"{args.bots} search:strong bots": scenario(
                port, server.pid, args.seconds, 0, lambda p, s, d, i: bot_player(p, s, d, i), args.bots
            ),
            f"{args.uploaders} uploaders of {args.record_moves} moves": scenario(
                port, server.pid, args.seconds, 0, lambda p, s, d, i: uploader(p, s, d, record), args.uploaders
            ),
        }
    finally:
        server.terminate()
        server.wait(timeout=30)
    if args.hostile_seconds:
        # The default rates (the hostile side is one address), but two addresses: a proxy on 127.0.0.1.
        server, port = start_server(args.server, ["--per-address", "10000", "--creates-per-minute", "100000",
                                                  "--proxy", "127.0.0.1"])
        try:
            warm = Client(port, "10.0.0.3")  # the workers start on the first bot move
            status, game = warm.request("POST", "/api/games", {"rules": "casual", "seed": 2, "seat": 1})
            assert status == 201 and warm.request("POST", f"/api/games/{game['id']}/bot")[0] == 200
            results["hostile: 32 hints at once, 1 address"] = hostile(port, server.pid, args.hostile_seconds)
        finally:
            server.terminate()
            server.wait(timeout=30)
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"web example, {args.readers} readers, {args.seconds:g} s a scenario, {os.cpu_count()} cores")
    print(f"{'scenario':34} {'GET/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'done':>5} {'RSS MB':>7}")
    for name, row in results.items():
        print(
            f"{name:34} {row['gets_per_s']:7.0f} {row['p50_ms']:7.2f} {row['p99_ms']:7.2f} {row['max_ms']:7.1f}"
            f" {row['others']:5d} {row['rss_mb']:7.0f}"
        )
        if "bot_moves" in row:
            print(f"{'':34} the victim's {row['bot_moves']} bot moves: p50 {row['bot_p50_s']:.2f} s, "
                  f"max {row['bot_max_s']:.2f} s")


if __name__ == "__main__":
    main()
