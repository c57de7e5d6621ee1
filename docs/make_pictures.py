"""Draw the pictures of the docs and the golden SVG files of the tests.

Run from anywhere::

    python docs/make_pictures.py            # write docs/_static/svg-*.svg and tests/golden/svg/*.svg
    python docs/make_pictures.py --check    # exit 1 if any file differs from a fresh render
    python docs/make_pictures.py --png DIR  # also write PNGs to DIR to look at (needs cairosvg)
    python docs/make_pictures.py --figures  # print the size, time and memory of replay pages

Every picture comes from a seeded new game or a position string written out
below, so the pictures change only when the drawing changes (or a position is
edited here). Their captions are in docs/pictures.rst. tests/frontends/test_svg.py checks
that the files match :func:`golden_renders` and :func:`docs_renders`.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from crapette import GameState, Move, apply_move, legal_moves, new_game, parse_move, parse_position
from crapette.svg import render, write_html

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "docs" / "_static"
GOLDEN = ROOT / "tests" / "golden" / "svg"


class Picture(NamedTuple):
    """One picture: a file name, the position it shows and the arguments of render()."""

    name: str
    state: GameState
    highlight: tuple[str, ...] = ()
    perspective: int = 0
    size: float | None = None

    def render(self) -> str:
        moves = [parse_move(text) for text in self.highlight]
        return render(self.state, perspective=self.perspective, highlight=moves, size=self.size)


def _pos(text: str) -> GameState:
    return parse_position(text)


#: Classic, move 60: loaded cards on R1, a stack on T5, an empty pile that must be filled.
CLASSIC_MIDGAME = _pos(
    "classic 0 60 a0a1 F:-/-/AS1,2S0/-/-/-/-/- T:JH1,TC0,9D0/3S1,2H0/2C0/7C0/KH1/8H1,7S1,6D1/KD0/- "
    "R:4D0,5C0,JH0,3S0,4H0,TH0,KS0,6D0,4S0,7H0/7H1,9C1,JC1,8D1,QH1,TC1,8C1,KC1,2H1,TS1,JS0,TS0 "
    "H:QC0,QD0,8S0,5D0,JC0,8C0,TD0,KC0,AD0,QS0,5S0,9H0,5H0,7D0,AS0,6C0,KH0,AH0,8H0,3H0,3D0,6H0,"
    "JD0,9C0,AC0,6S0,8D0,2D0,QH0,3C0,9S0/QS1,5D1,4S1,4D1,7D1,4C1,9S1,4H1,3C1,QC1,QD1,5C1,AC1,7C1,"
    "JD1,2C1,TH1,5S1,2S1,KD1,6C1,JS1,KS1,TD1,9D1,8S1,3H1,AD1,AH1,6H1,9H1,5H1 W:4C0,7S0/6S1,3D1,2D1"
)

#: Classic, move 1383: player 0 has emptied reserve, hand and waste.
CLASSIC_OVER = _pos(
    "classic 0 1383 a0a1 F:AC1,2C1,3C0,4C1,5C0,6C0/AD1,2D0,3D0,4D1,5D0,6D0,7D0/AD0,2D1,3D1,4D0,"
    "5D1,6D1,7D1,8D0,9D1,TD1,JD0,QD0,KD0/AS0,2S0,3S1,4S1,5S0,6S0,7S1,8S0,9S1,TS0/AC0,2C0/AH1,2H1,"
    "3H1,4H0,5H0,6H0,7H1,8H1/AS1,2S1,3S0,4S0/AH0,2H0,3H0,4H1,5H1,6H1,7H0,8H0,9H0,TH0,JH0,QH0,KH1 "
    "T:TS1,9D0/7S0/KS0/-/KC0/4C0/-/TD0,9S0 R:-/- H:-/7C1,KD1,QD1,QC1,7C0,6C1,KC1,5C1,JH1,8S1,9H1,"
    "TH1,JD1,3C1,TC0,JC0 W:-/5S1,6S1,QH1,KH0,JS1,QS1,JS0,KS1,QS0,8D1,TC1,9C0,8C1,9C1,8C0,QC0,JC1"
)

#: Classic, move 364: 59 legal moves, most of them from two long piles into two empty ones.
CLASSIC_CROWDED = _pos(
    "classic 0 364 a0a1 F:-/AH1/AS1/-/AC1/-/AD1,2D1/- T:-/TS1,9H0,8S0,7D1/9D1,8S1,7H1,6S0/QH1,JC1,TH1,9S1,"
    "8H0,7S1,6H1/-/6S1,5H1,4S1,3H1/9H1/- R:AD0,3C0,7D0,6C0,5C0,8D0,2H0,4C0,8C0,2D0,KD0,QD0,KD1/- "
    "H:QS0,7C0,JC0,6D0,KS0,4H0,JS0,7H0,AC0,JD0,5S0,AH0,5H0,6H0,2C0,9S0,TD0,7S0,9C0,QH0,9D0,4S0,3S0,TC0,AS0,"
    "TH0,3D0,JH0,2S0/QD1,KC1,8D1,5S1,TD1,8H1,2S1,TC1,2H1,JH1,2C1,8C1,KS1,5C1,4C1,5D1,JS1,QS1,6D1,9C1,KH1 "
    "W:4D0,3D1,TS0,QC0,KH0,KC0,QC1/4H1,3H0,JD1,7C1,6C1,3C1,4D1,5D0,3S1"
)

#: Casual, the deal of seed 4: two aces that may go to any of the eight foundations.
CASUAL_CROWDED = new_game("casual", seed=4)


def _legal(state: GameState) -> tuple[str, ...]:
    return tuple(str(move) for move in legal_moves(state))


GOLDEN_PICTURES = (
    Picture("casual-new-seed1.svg", new_game("casual", seed=1)),
    Picture("classic-new-seed7.svg", new_game("classic", seed=7), perspective=1, size=500),
    Picture("classic-midgame-highlight.svg", CLASSIC_MIDGAME, ("R0-T7", "T5-T3", "T0-T7", "T5-T7x2")),
    Picture("classic-over.svg", CLASSIC_OVER),
    Picture("classic-crowded.svg", CLASSIC_CROWDED, _legal(CLASSIC_CROWDED)),
    Picture("classic-crowded-p1.svg", CLASSIC_CROWDED, _legal(CLASSIC_CROWDED), perspective=1),
    Picture("casual-crowded-p1.svg", CASUAL_CROWDED, _legal(CASUAL_CROWDED), perspective=1),
)

DOCS_PICTURES = (
    Picture(
        "svg-readme.svg",
        CLASSIC_MIDGAME,
        ("R0-T7", "T5-T3"),
        size=640,
    ),
    Picture(
        "svg-arrows.svg",
        CASUAL_CROWDED,
        _legal(CASUAL_CROWDED),
    ),
    Picture(
        "svg-casual-opening.svg",
        new_game("casual", seed=1),
    ),
    Picture(
        "svg-classic-opening.svg",
        new_game("classic", seed=7),
    ),
    Picture(
        "svg-rule-build-own.svg",
        new_game("casual", seed=1),
        ("T1-T0",),
    ),
    Picture(
        "svg-rule-build-opponent.svg",
        _pos(
            "casual 0 0 - F:-/-/-/-/-/-/-/- T:9H0/8C0/QS0/KH0/6H1/4H1/6S1/8H1 "
            "R:8S0,JH0,9C0,2S0,2D0,QD0,6S0,TC0,3D0,AC0,JC0,7C0/AD1,2H1,AH1,7S1,4D1,KH1,AC1,5H1,"
            "TS1,JC1,2S1,4C1 H:TH0,KC0,4H0,6D0,5S0,7H0,4C0,KS0,6H0,JS0,7D0,9S0,7S0,AS0,KD0,3C0,"
            "9D0,2H0,4D0,3S0,JD0,QC0,TS0,QH0,AD0,8D0,8H0,5D0,TD0,4S0,6C0,AH0,5C0,3H0,2C0,5H0/7C1,"
            "QD1,3S1,QC1,6C1,KC1,5C1,JH1,7D1,6D1,8S1,5D1,TH1,JD1,2C1,3C1,TC1,AS1,2D1,8D1,3D1,KS1,"
            "9C1,JS1,8C1,9H1,9D1,4S1,QS1,3H1,7H1,TD1,9S1,QH1,5S1,KD1 W:-/-"
        ),
        ("T0-T7", "T1-T0", "T2-T3"),
    ),
    Picture(
        "svg-rule-loading.svg",
        _pos(
            "classic 1 0 - F:-/-/-/-/-/-/-/- T:8C0/QS0/KH0/5H0/4H1/6S1/8H1/KD1 "
            "R:8S0,JH0,9C0,2S0,2D0,QD0,6S0,TC0,3D0,AC0,JC0,7C0,9H0/AD1,2H1,AH1,7S1,4D1,KH1,AC1,"
            "5H1,TS1,JC1,2S1,4C1,6H1 H:TH0,KC0,4H0,6D0,5S0,7H0,4C0,KS0,6H0,JS0,7D0,9S0,7S0,AS0,"
            "KD0,3C0,9D0,2H0,4D0,3S0,JD0,QC0,TS0,QH0,AD0,8D0,8H0,5D0,TD0,4S0,6C0,AH0,5C0,3H0,"
            "2C0/7C1,QD1,3S1,QC1,6C1,KC1,5C1,JH1,7D1,6D1,8S1,5D1,TH1,JD1,2C1,3C1,TC1,AS1,2D1,8D1,"
            "3D1,KS1,9C1,JS1,8C1,9H1,9D1,4S1,QS1,3H1,7H1,TD1,9S1,QH1,5S1 W:-/-"
        ),
        ("T6-R0",),
    ),
    Picture(
        "svg-rule-stack.svg",
        _pos(
            "classic 0 3 a0 F:-/-/-/-/-/-/-/- T:5S0/5C0,4D0,3S0/JH0,TC0/-/TS1/4D1/4C1/7S1 "
            "R:JC0,9S0,5D0,3C0,AS0,2D0,2S0,KC0,7D0,QC0,3D0/9D1,QH1,5H1,4H1,4S1,AC1,JC1,AS1,9H1,"
            "2C1,6H1,5S1,QC1 H:4C0,AC0,6H0,2H0,JD0,5H0,8D0,2C0,8C0,JS0,6C0,4S0,TS0,9D0,KS0,KD0,"
            "KH0,4H0,QS0,QD0,8H0,9C0,7H0,6D0,7S0,AH0,AD0,TD0,9H0,TH0,6S0,3H0,QH0,7C0,8S0/7D1,"
            "JD1,9C1,7C1,6S1,QD1,8C1,9S1,5C1,7H1,AH1,JS1,8H1,3S1,8D1,3H1,KC1,KD1,KH1,6C1,2D1,5D1,"
            "KS1,AD1,TC1,2H1,QS1,TH1,3D1,TD1,8S1,3C1,6D1,2S1,JH1 W:-/-"
        ),
        ("T1-T0x2",),
    ),
    Picture(
        "svg-rule-compulsory.svg",
        _pos(
            "classic 0 5 a0 F:-/AS1/-/-/AC1/-/-/- T:TS0/8D0/KD1/4S0/4H0/-/2H1/5D0 "
            "R:AC0,6H0,KH0,2C0,KD0,AS0,7H0,6C0,QH0,TD0,9D0,AD0/3S1,TS1,JC1,3C1,JD1,2S1,9S1,6C1,"
            "JH1,2C1,KC1,3D1,8D1 H:9H0,9C0,5S0,6D0,2S0,7C0,3S0,TH0,4D0,8S0,JC0,JH0,5C0,8C0,KC0,"
            "QC0,QD0,JS0,9S0,6S0,5H0,TC0,4C0,3H0,2H0,7D0,7S0,2D0,KS0,AH0,3D0,JD0,3C0,8H0,QS0/4C1,"
            "7D1,5C1,AH1,KS1,TH1,QH1,QS1,6S1,3H1,4D1,9D1,2D1,5H1,8H1,AD1,7H1,7C1,TD1,8S1,TC1,KH1,"
            "5D1,9H1,4S1,8C1,JS1,9C1,QD1,4H1,QC1,7S1,5S1,6H1,6D1 W:-/-"
        ),
        ("R0-F0", "R0-F2", "R0-F3", "R0-F5", "R0-F6", "R0-F7"),
    ),
    Picture(
        "svg-rule-end-turn.svg",
        _pos(
            "classic 1 2 da1 F:-/-/-/-/-/-/-/- T:TH0/6D0/JC0/3H0/4D1/5D1/9D1,8C1/QH1 "
            "R:AS0,5C0,9D0,KH0,8D0,AH0,8S0,3C0,KC0,4H0,4D0,QC0,JS0/AS1,JD1,7S1,QC1,JS1,AC1,KH1,"
            "4S1,9S1,6D1,2S1,KS1 H:TS0,9S0,4C0,5H0,KS0,AD0,2H0,7D0,6C0,QD0,6S0,5S0,JD0,7C0,TD0,"
            "8C0,3D0,3S0,2D0,JH0,7S0,9H0,2C0,KD0,6H0,5D0,QS0,8H0,7H0,TC0,AC0,4S0,9C0,2S0,QH0/3C1,"
            "JC1,TD1,8S1,AD1,5H1,7H1,TS1,3D1,QD1,7D1,8H1,JH1,KD1,6H1,3S1,2C1,5S1,5C1,TH1,9C1,6C1,"
            "AH1,6S1,3H1,2D1,4H1,2H1,TC1,9H1,KC1,4C1,8D1,7C1 W:-/QS1"
        ),
        ("W1-R0", "T0-T2", "T2-T7", "end"),
    ),
    Picture(
        "svg-rule-game-over.svg",
        CLASSIC_OVER,
    ),
)


def golden_renders() -> dict[str, str]:
    """File name -> SVG text for every golden file of tests/golden/svg."""
    return {p.name: p.render() for p in GOLDEN_PICTURES}


def docs_renders() -> dict[str, str]:
    """File name -> SVG text for every picture in docs/_static."""
    return {p.name: p.render() for p in DOCS_PICTURES}


def _targets() -> list[tuple[Path, str]]:
    files = [(GOLDEN / name, text) for name, text in golden_renders().items()]
    files += [(STATIC / name, text) for name, text in docs_renders().items()]
    return files


def random_game(rules: str, seed: int, moves: int) -> Iterator[tuple[GameState, Move | None]]:
    """A game played at random, one state at a time with the move played from it (None at the end)."""
    state, rng = new_game(rules, seed), random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        move = rng.choice(legal_moves(state))
        yield state, move
        state = apply_move(state, move)
    yield state, None


def _replay(rules: str, seed: int, moves: list[Move]) -> Iterator[tuple[GameState, Move | None]]:
    state = new_game(rules, seed)
    for move in moves:
        yield state, move
        state = apply_move(state, move)
    yield state, None


class _Counter(io.StringIO):
    """A text stream that only counts what is written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.chars = 0

    def write(self, text: str) -> int:
        self.chars += len(text)
        return len(text)


def replay_figures(moves: int = 1000, long: int = 20_000) -> list[str]:
    """The size and writing time of a replay page, and the memory it takes to write a long one.

    The games are random, under the classic rules with no move limit (seed 3) and the
    casual rules with no move limit (seed 11), whose random games go on for ever.
    """
    lines = []
    game = list(random_game("classic(move_limit=none)", 3, moves))
    states, played = [s for s, _ in game], [m for _, m in game if m is not None]
    out = _Counter()
    start = time.perf_counter()
    write_html(states, played, out)
    seconds = time.perf_counter() - start
    lines.append(f"{len(played)} moves (classic, seed 3): page {out.chars / 1e6:.2f} MB, written in {seconds:.2f} s")
    for length in (long // 10, long):
        # The moves are kept, as a record holds them; the states are made as the page is written.
        kept = [move for _, move in random_game("casual(move_limit=none)", 11, length) if move is not None]
        tracemalloc.start()
        out = _Counter()
        write_html((state for state, _ in _replay("casual(move_limit=none)", 11, kept)), kept, out)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        lines.append(f"{len(kept)} moves (casual, seed 11): page {out.chars / 1e6:.1f} MB, "
                     f"peak memory while writing {peak / 1e3:.0f} kB")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    parser.add_argument("--png", metavar="DIR", help="also write PNG renders to DIR (needs cairosvg)")
    parser.add_argument("--figures", nargs="?", type=int, const=20_000, metavar="MOVES",
                        help="print the size and time of a replay page of 1000 moves, and the peak memory "
                        "of writing pages of MOVES / 10 and MOVES moves (default 20000); write nothing")
    args = parser.parse_args(argv)
    if args.figures:
        for line in replay_figures(long=args.figures):
            print(line)
        return 0
    stale = []
    for path, text in _targets():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
    if args.png:
        try:
            import cairosvg  # type: ignore[import-not-found,import-untyped,unused-ignore]
        except ImportError:
            print("--png needs cairosvg: pip install cairosvg", file=sys.stderr)
            return 2
        out = Path(args.png)
        out.mkdir(parents=True, exist_ok=True)
        for path, text in _targets():
            png: Any = out / (path.stem + ".png")
            cairosvg.svg2png(bytestring=text.encode("ascii"), write_to=str(png))
    verb = "differ" if args.check else "written"
    for path in stale:
        print(f"{verb}: {path.relative_to(ROOT)}")
    if not stale:
        print("all pictures up to date")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
