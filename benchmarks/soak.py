"""Memory over a long run: the mixed loop of kernel entry points, with the process's memory over time.

Run ``python benchmarks/soak.py --seconds 300`` (``--engine python`` for the
pure-Python engine, ``--every`` seconds between reports, ``--trim`` to hand
the allocator's free memory back to the system before each report, ``--json``
for machines). The loop plays random games (classic and casual, a new seed
each) and on every position asks for its turn ends, a greedy playout, the
learned value with and without the play-on, the greedy scores and the moves
that reveal a card; every few positions a greedy rollout to the end of the
game, the kernel's shuffle and self-play. Each report line gives the
seconds, the calls made, the resident set (``VmRSS``), the bytes the C
allocator holds in use (glibc's ``mallinfo2``: ``uordblks``, the sum of live
``malloc`` blocks), the blocks Python's own allocator holds
(``sys.getallocatedblocks``) and the objects the collector tracks.

Reading it: a leak of Python objects grows the allocated blocks and the
tracked objects; a leak of C memory grows the bytes in use; a resident set
that grows while both stay flat is the allocator keeping freed memory
(fragmentation, one arena per thread), which ``--trim`` (``malloc_trim``) or
``MALLOC_ARENA_MAX=1`` hands back.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import gc
import json
import random
import sys
import time
from typing import Any

from crapette import apply_move, kernel, legal_moves, new_game, turn_ends
from crapette.evaluation import Playout, Rollout
from crapette.value import LearnedValue

_LIBC: Any = None
try:
    _LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
except OSError:   # not glibc: the figures of the C allocator are left out
    _LIBC = None


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


def rss_kib() -> int:
    """The resident set of this process in KiB (Linux's /proc), or -1."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1


def malloc_in_use() -> int:
    """The bytes of live ``malloc`` blocks (glibc's mallinfo2 uordblks + hblkhd), or -1."""
    if _LIBC is None or not hasattr(_LIBC, "mallinfo2"):
        return -1
    _LIBC.mallinfo2.restype = _Mallinfo2
    info = _LIBC.mallinfo2()
    return int(info.uordblks + info.hblkhd)


def trim() -> None:
    """Hand the C allocator's free memory back to the system (glibc's malloc_trim), where there is one."""
    if _LIBC is not None and hasattr(_LIBC, "malloc_trim"):
        _LIBC.malloc_trim(0)


def mixed_round(seed: int, calls: list[int], tick: Any = None) -> None:
    """One random game with every entry point asked on its positions; ``calls[0]`` counts the calls.

    ``tick()``, if given, is called before each position; the game stops where it returns True.
    """
    rng = random.Random(seed)
    state = new_game("classic" if seed % 2 else "casual", seed=seed)
    playout, value, rollout = Playout(), LearnedValue(), Rollout()
    for step in range(400):
        if state.is_over or (tick is not None and tick()):
            break
        player = state.current_player
        ends = turn_ends(state)
        playout.evaluate(state, player, rng)
        value.evaluate(state, player)
        value.compiled_playout(state, player)
        moves = legal_moves(state)
        kernel.greedy_scores(state, moves, step % 2 == 0)
        kernel.exits(state)
        kernel.encode(state, player)
        calls[0] += 8
        if step % 10 == 0:
            rollout.evaluate(state, player)
            kernel.shuffle(rng, list(range(52)))
            kernel.self_play([state], [seed], 1, 0.1, 200, 2)
            calls[0] += 3
        state = apply_move(state, rng.choice(moves))
        calls[0] += 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=30.0)
    parser.add_argument("--engine", choices=("kernel", "python"), default="kernel")
    parser.add_argument("--trim", action="store_true", help="malloc_trim(0) before each report")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    kernel.set_enabled(args.engine == "kernel")
    if args.engine == "kernel" and kernel.engine() != "kernel":
        print(f"no kernel: {kernel.REASON}", file=sys.stderr)
        return 2
    rows: list[dict[str, Any]] = []
    calls = [0]
    start = time.monotonic()
    next_report = start
    seed = 0

    def report() -> None:
        if args.trim:
            trim()
        row = {"seconds": round(time.monotonic() - start, 1), "calls": calls[0], "games": seed,
               "rss_kib": rss_kib(), "malloc_in_use": malloc_in_use(),
               "py_blocks": sys.getallocatedblocks(), "gc_objects": len(gc.get_objects())}
        rows.append(row)
        if not args.json:
            print("{seconds:8.1f}s calls {calls:>10} games {games:>6} rss {rss_kib:>7} KiB "
                  "malloc {malloc_in_use:>10} B py_blocks {py_blocks:>8} gc {gc_objects:>7}".format(**row),
                  flush=True)

    def tick() -> bool:
        nonlocal next_report
        now = time.monotonic()
        if now >= next_report:
            report()
            next_report = now + args.every
        return now - start >= args.seconds

    while not tick():
        seed += 1
        mixed_round(seed, calls, tick)
    report()
    if args.json:
        print(json.dumps({"engine": args.engine, "trim": args.trim, "rows": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
