"""The web example (examples/web/) played in headless Chromium, by clicking as a person does.

The server runs on 127.0.0.1 in a background thread, behind a recorder that
checks every response it sends against the face-down cards of the game at that
moment; the page's HTML is checked after every step too. The tests need the
``web`` and ``browser`` extras and Debian's ``chromium`` and ``chromium-driver``
packages; without them they are skipped, saying which is missing.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytestmark = pytest.mark.browser

pytest.importorskip("starlette", reason="the web example needs the 'web' extra: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web example needs the 'web' extra: pip install '.[web]'")
pytest.importorskip("selenium", reason="the browser tests need Selenium: pip install '.[browser]'")

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver import Chrome as WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from test_web_api import CARD, hidden_cards, load_server, near_end  # noqa: E402

from crapette import GameState, explain_illegal, parse_move  # noqa: E402


def _load_screenshots() -> ModuleType:
    name = "crapette_web_screenshots"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[2] / "examples" / "web" / "screenshots.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


web = load_server()
shots = _load_screenshots()
_found = shots.find_chromium()
if isinstance(_found, str):
    pytest.skip(f"the browser tests need Chromium: {_found}", allow_module_level=True)

#: The short game played to the end: the classic rules stopped after 30 moves.
SHORT_RULES, SHORT_SEED = "classic(move_limit=30)", 11
GAME_PATH = re.compile(r"^/api/games/([^/]+)")


class Recorder:
    """ASGI middleware: checks every response against the face-down cards of its game."""

    def __init__(self, app: Any, store: Any) -> None:
        self.app = app
        self.store = store
        self.responses = 0
        self.leaks: list[str] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []

        async def keep(message: Any) -> None:
            if message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, keep)
        self.check(scope["path"], b"".join(chunks).decode("utf-8", "replace"))

    def check(self, path: str, body: str) -> None:
        self.responses += 1
        if path.endswith("/record"):
            return  # a saved record is the whole game by design: it is sent only when the player saves
        match = GAME_PATH.match(path)
        game_id = match.group(1) if match else None
        if path == "/api/games" and body.startswith("{"):
            game_id = json.loads(body).get("id")
        session = self.store.find(game_id) if game_id else None
        if session is None:
            shown = set(CARD.findall(body))  # the page and its files hold no card at all
        else:
            shown = set(CARD.findall(body)) & hidden_cards(session.game.state)
        if shown:
            self.leaks.append(f"{path}: {sorted(shown)}")


class Site:
    """The server under test, and what a test needs to know about it."""

    def __init__(self, address: str, store: Any, recorder: Recorder) -> None:
        self.address = address
        self.store = store
        self.recorder = recorder

    def state(self, driver: WebDriver) -> GameState:
        """The true state of the game the page shows."""
        game_id = driver.execute_script("return sessionStorage.getItem('crapette-game')")
        session = self.store.find(game_id)
        assert session is not None
        state: GameState = session.game.state
        return state


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    store = web.GameStore()
    recorder = Recorder(web.create_app(store), store)
    with web.serve_in_thread(recorder) as address:
        yield Site(address, store, recorder)
    assert recorder.leaks == []


@pytest.fixture(scope="module")
def desktop() -> Iterator[WebDriver]:
    with shots.chromium(1280, 800) as driver:
        yield driver


@pytest.fixture(scope="module")
def phone() -> Iterator[WebDriver]:
    with shots.chromium(390, 844, mobile=True) as driver:
        yield driver


@pytest.fixture(autouse=True)
def no_leaks(site: Site) -> Iterator[None]:
    yield
    assert site.recorder.leaks == [], "a response showed face-down cards"


def console_errors(driver: WebDriver) -> list[str]:
    """The page's console errors, but for the refused requests that the tests make on purpose."""
    return [
        entry["message"]
        for entry in driver.get_log("browser")  # type: ignore[no-untyped-call]
        if entry["level"] == "SEVERE" and not re.search(r"status of 4\d\d", entry["message"])
    ]


@pytest.fixture(autouse=True)
def no_console_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "desktop" in request.fixturenames:
        assert console_errors(request.getfixturevalue("desktop")) == []


# Driving the page ------------------------------------------------------------------


def wait(driver: WebDriver, script: str, *args: Any, timeout: float = 30.0) -> Any:
    """Wait until ``script`` (given ``args``) returns something true, and return it."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(script, *args)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for: {script}")
        time.sleep(0.02)


def idle(driver: WebDriver) -> None:
    wait(driver, shots.IDLE)


def open_page(driver: WebDriver, site: Site, **query: Any) -> None:
    """Load the page with a new deal (``rules``, ``seed``, ``bot``, ``seat``) and wait until it is idle."""
    query.setdefault("delay", 30)
    driver.get(site.address + "/?" + "&".join(f"{k}={v}" for k, v in query.items()))
    idle(driver)


def move_count(driver: WebDriver) -> int:
    return int(driver.find_element(By.ID, "table").get_attribute("data-move-count") or -1)


def message(driver: WebDriver) -> str:
    return driver.find_element(By.ID, "message").text


def table_cards(driver: WebDriver) -> list[tuple[str, str, str]]:
    """Every face-up card on the table: (pile, position, card)."""
    cards: list[tuple[str, str, str]] = driver.execute_script(
        "return [...document.querySelectorAll('#table .card[data-card]')]"
        ".map(n => [n.dataset.pile, n.dataset.index, n.dataset.card])"
    )
    return cards


def assert_page_hides(driver: WebDriver, site: Site) -> None:
    state = site.state(driver)
    shown = set(CARD.findall(driver.page_source)) & hidden_cards(state)
    assert not shown, f"face-down cards in the page: {sorted(shown)}"


def click(driver: WebDriver, node: WebElement) -> None:
    """Click ``node`` where it can be seen (a card under a fan shows only a strip)."""
    point = driver.execute_script(
        """
        const node = arguments[0];
        const box = node.getBoundingClientRect();
        for (let y = box.top + 4; y < box.bottom; y += 4)
          for (let x = box.left + 3; x < box.right; x += 3) {
            const hit = document.elementFromPoint(x, y);
            if (hit && (hit === node || node.contains(hit))) return [x - box.left - box.width / 2, y - box.top - box.height / 2];
          }
        return null;
        """,
        node,
    )
    assert point is not None, f"{(node.get_attribute('outerHTML') or '')[:80]} cannot be seen"
    ActionChains(driver).move_to_element_with_offset(node, int(point[0]), int(point[1])).click().perform()


def pile_node(driver: WebDriver, pile: str, index: int | None = None) -> WebElement:
    """The card at ``index`` of ``pile`` (default: its top), or its empty slot."""
    cards = driver.find_elements(By.CSS_SELECTOR, f"#table .card[data-pile='{pile}']")
    if index is not None:
        return next(n for n in cards if n.get_attribute("data-index") == str(index))
    if cards:
        return cards[-1]
    return driver.find_element(By.CSS_SELECTOR, f"#table .slot[data-pile='{pile}']")


def click_move(driver: WebDriver, move: str, seat: int) -> None:
    """Play ``move`` with the mouse: source then target, the hand to draw, or a button."""
    if move == "draw":
        click(driver, pile_node(driver, f"H{seat}"))
    elif move in ("end", "pass"):
        driver.find_element(By.ID, "end-turn" if move == "end" else "pass").click()
    else:
        source, rest = move.split("-")
        target, _, count = rest.partition("x")
        if count:
            size = len(driver.find_elements(By.CSS_SELECTOR, f"#table .card[data-pile='{source}']"))
            click(driver, pile_node(driver, source, size - int(count)))
        else:
            click(driver, pile_node(driver, source))
        click(driver, pile_node(driver, target))


def after(driver: WebDriver, action: Callable[[], None]) -> None:
    """Do ``action``, then wait until the page has its answer and the computer has played.

    The answer shows as a new game, a new move or a new message.
    """
    shown = (
        "[sessionStorage.getItem('crapette-game'), document.getElementById('table').dataset.moveCount,"
        " document.getElementById('message').textContent]"
    )
    before = driver.execute_script(f"return {shown}")
    action()
    wait(
        driver,
        f"const now = {shown}; return {shots.IDLE_CONDITION} && now.some((value, i) => value !== arguments[0][i])",
        before,
    )


# The tests --------------------------------------------------------------------------


def test_browser_plays_a_whole_short_game_by_clicking(desktop: WebDriver, site: Site) -> None:
    open_page(desktop, site, rules=SHORT_RULES, seed=SHORT_SEED, bot="search", delay=60)
    # Record every move count the table shows: the computer's moves must come one by one.
    desktop.execute_script(
        """
        const table = document.getElementById('table');
        window.seenCounts = [Number(table.dataset.moveCount)];
        new MutationObserver(() => window.seenCounts.push(Number(table.dataset.moveCount)))
          .observe(table, {attributes: true, attributeFilter: ['data-move-count']});
        """
    )
    first = move_count(desktop)
    mine = 0
    while desktop.execute_script("return document.body.dataset.turn") != "over":
        assert_page_hides(desktop, site)
        state = site.state(desktop)
        after(desktop, lambda: desktop.find_element(By.ID, "hint").click())
        hinted = re.fullmatch(r"Hint: (\S+)((?: \S+)*)", message(desktop))  # the plan, first move first
        assert hinted, message(desktop)
        move = hinted.group(1)
        assert explain_illegal(state, parse_move(move)) == ""
        after(desktop, lambda: click_move(desktop, move, 0))
        mine += 1
        game = site.store.find(desktop.execute_script("return sessionStorage.getItem('crapette-game')")).game
        assert str(game.history[state.move_count]) == move  # the clicks made the hinted move
    state = site.state(desktop)
    assert state.move_count == 30 and state.outcome is not None and mine >= 5
    # The table showed every move count up to 30, one at a time.
    seen = desktop.execute_script("return window.seenCounts")
    distinct = [n for i, n in enumerate(seen) if i == 0 or n != seen[i - 1]]
    assert distinct == list(range(first, 31))
    # The end: the outcome, the scores and the match totals.
    scores = state.outcome.scores
    assert scores is not None
    outcome = desktop.find_element(By.ID, "outcome")
    assert outcome.is_displayed()
    text = outcome.text
    assert f"the move limit is reached; score: you {scores[0]}, computer {scores[1]}" in text
    assert f"Match to 150: you {scores[0]}, computer {scores[1]} after 1 game" in text
    moves = desktop.find_element(By.ID, "moves").text.split()
    assert [m for m in moves if m not in ("You", "Bot")] == [str(m) for m in game.history]
    assert_page_hides(desktop, site)


def test_browser_shows_the_engines_reason_for_an_illegal_click(desktop: WebDriver, site: Site) -> None:
    open_page(desktop, site, rules="casual", seed=1, seat=0)
    state = site.state(desktop)
    before = table_cards(desktop)
    after(desktop, lambda: click_move(desktop, "R0-T4", 0))
    reason = explain_illegal(state, parse_move("R0-T4"))
    assert reason == "KD0 does not go on JS1: T4 builds up or down in suit for player 0"
    assert message(desktop) == "illegal move R0-T4: K♦ does not go on J♠: T4 builds up or down in suit for player 0"
    # The opponent's cards: the engine says whose they are.
    after(desktop, lambda: click_move(desktop, "R1-T0", 0))
    assert message(desktop) == "illegal move R1-T0: R1 is player 1's reserve and player 0 is to move"
    click(desktop, pile_node(desktop, "H1"))
    assert message(desktop) == "That is the computer's hand: click your own hand to draw."
    assert table_cards(desktop) == before and move_count(desktop) == 0
    assert site.state(desktop) == state


def test_browser_table_follows_a_move_and_undo_takes_it_back(desktop: WebDriver, site: Site) -> None:
    open_page(desktop, site, rules="casual", seed=1, seat=0)
    undo = desktop.find_element(By.ID, "undo")
    assert not undo.is_enabled()
    before = table_cards(desktop)
    moving = pile_node(desktop, "T1").get_attribute("data-card")
    under = pile_node(desktop, "T0").get_attribute("data-card")
    after(desktop, lambda: click_move(desktop, "T1-T0", 0))
    assert [card for pile, _, card in table_cards(desktop) if pile == "T0"] == [under, moving]
    assert desktop.find_elements(By.CSS_SELECTOR, "#table .card[data-pile='T1']") == []
    assert "T1-T0" in desktop.find_element(By.ID, "moves").text
    assert undo.is_enabled()
    after(desktop, undo.click)
    assert table_cards(desktop) == before and move_count(desktop) == 0
    assert desktop.find_element(By.ID, "moves").text == ""
    assert not undo.is_enabled()


def test_browser_sets_up_a_position_wins_it_and_the_match_goes_on(desktop: WebDriver, site: Site) -> None:
    open_page(desktop, site, rules="classic", seed=3)
    desktop.find_element(By.ID, "new").click()
    desktop.find_element(By.ID, "position").send_keys(str(near_end()))
    after(desktop, lambda: desktop.find_element(By.ID, "set-up").click())
    assert desktop.find_element(By.ID, "position").get_attribute("value") == ""
    assert "set-up position" in desktop.find_element(By.ID, "info").text
    for move in ("R0-F0", "R0-F1", "draw", "W0-F2"):
        assert_page_hides(desktop, site)
        after(desktop, lambda: click_move(desktop, move, 0))
    assert site.state(desktop).outcome is not None
    outcome = desktop.find_element(By.ID, "outcome")
    assert outcome.is_displayed()
    assert outcome.text.startswith("You win\nyour reserve, hand and waste are empty; score: you 33, computer 0\n")
    assert desktop.find_element(By.ID, "status").text == "You win: your reserve, hand and waste are empty; score: you 33, computer 0"
    assert "Match to 150: you 33, computer 0 after 1 game" in outcome.text
    after(desktop, lambda: desktop.find_element(By.ID, "next-game").click())
    assert not outcome.is_displayed()
    assert desktop.find_element(By.ID, "match").text == "Match to 150: you 33, computer 0, game 2"
    assert move_count(desktop) == site.state(desktop).move_count
    assert_page_hides(desktop, site)


def test_browser_saves_a_record_and_loads_it_back(desktop: WebDriver, site: Site, tmp_path: Path) -> None:
    open_page(desktop, site, rules="casual", seed=1, seat=0)
    for move in ("T1-T0", "T3-T1", "draw"):
        after(desktop, lambda: click_move(desktop, move, 0))
    shown = (table_cards(desktop), desktop.find_element(By.ID, "moves").text)
    link = desktop.find_element(By.ID, "save").get_attribute("href")
    assert link is not None
    status, saved = shots.fetch(desktop, "GET", link)
    # During a game the record is sealed: it holds the whole deal.
    assert status == 200 and saved.startswith(web.SEALED) and not CARD.findall(saved)
    assert "seed" not in saved.lower()
    path = tmp_path / "game.json"
    path.write_text(saved, encoding="utf-8")
    old_id = desktop.execute_script("return sessionStorage.getItem('crapette-game')")
    open_page(desktop, site, rules="casual", seed=5, seat=0)
    desktop.find_element(By.ID, "new").click()
    after(desktop, lambda: desktop.find_element(By.ID, "load").send_keys(str(path)))
    assert desktop.execute_script("return sessionStorage.getItem('crapette-game')") != old_id
    assert (table_cards(desktop), desktop.find_element(By.ID, "moves").text) == shown


def test_browser_refuses_a_bad_position_with_its_reason(desktop: WebDriver, site: Site) -> None:
    open_page(desktop, site, rules="casual", seed=1)
    before = desktop.execute_script("return sessionStorage.getItem('crapette-game')")
    desktop.find_element(By.ID, "new").click()
    desktop.find_element(By.ID, "position").send_keys("classic 0 0 nonsense")
    after(desktop, lambda: desktop.find_element(By.ID, "set-up").click())
    assert message(desktop).startswith("invalid position")
    assert desktop.execute_script("return sessionStorage.getItem('crapette-game')") == before


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_browser_table_fits_the_screen_and_cards_are_readable(
    site: Site, screen: str, request: pytest.FixtureRequest
) -> None:
    driver = request.getfixturevalue(screen)
    shots.open_game(driver, site.address, {"record": shots.middle_game_record()})
    width, height = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    assert (width, height) == ((1280, 800) if screen == "desktop" else (390, 844))
    assert_page_hides(driver, site)
    sizes = driver.execute_script(
        """
        const table = document.getElementById('table').getBoundingClientRect();
        const corners = [...document.querySelectorAll('#table .card .ix')]
          .map(n => parseFloat(getComputedStyle(n).fontSize));
        return {scrollWidth: document.documentElement.scrollWidth, right: table.right,
                bottom: table.bottom, smallest: Math.min(...corners), cards: corners.length};
        """
    )
    assert sizes["cards"] > 40
    assert sizes["scrollWidth"] <= width and sizes["right"] <= width  # nothing sticks out sideways
    assert sizes["bottom"] <= height  # the whole table is in view: no scrolling to play
    assert sizes["smallest"] >= 12  # card corners in 12-pixel type or larger
    assert console_errors(driver) == []


# The page's layout and words (issue 24.8) ------------------------------------------------


def test_browser_table_uses_the_width_of_a_desktop_screen(desktop: WebDriver, site: Site) -> None:
    open_page(desktop, site, rules="classic", seed=3)
    box = desktop.execute_script(
        """
        const table = document.getElementById('table').getBoundingClientRect();
        const cards = [...document.querySelectorAll('#table .card, #table .slot')].map(n => n.getBoundingClientRect());
        return {table: [table.left, table.right], left: Math.min(...cards.map(r => r.left)),
                right: Math.max(...cards.map(r => r.right)), width: cards[0].width};
        """
    )
    left, right = box["table"]
    # The piles span the table from edge to edge, not a narrow column in the middle, and cards are big.
    assert box["left"] - left < 40 and right - box["right"] < 40
    assert box["width"] >= 76


def test_browser_marks_the_players_own_tableau_piles_in_casual(desktop: WebDriver, site: Site) -> None:
    for seat in (0, 1):
        open_page(desktop, site, rules="casual", seed=2, seat=seat, bot="greedy", delay=0)
        mine = desktop.execute_script(
            "return [...document.querySelectorAll('#table .label.mine')].map(n => n.textContent)"
        )
        assert sorted(mine) == [f"yours \u00b7 T{4 * seat + r}" for r in range(4)]
        slots = desktop.execute_script("return [...document.querySelectorAll('#table .slot.mine')].map(n => n.dataset.pile)")
        assert sorted(slots) == [f"T{4 * seat + r}" for r in range(4)]
    open_page(desktop, site, rules="classic", seed=2)  # in classic every tableau pile is everyone's
    assert desktop.find_elements(By.CSS_SELECTOR, "#table .label.mine, #table .slot.mine") == []


def test_browser_shows_end_turn_only_under_rules_that_have_it(desktop: WebDriver, site: Site) -> None:
    open_page(desktop, site, rules="casual", seed=2, bot="greedy", delay=0)
    assert not desktop.find_element(By.ID, "end-turn").is_displayed()
    assert desktop.find_element(By.ID, "pass").is_displayed() and desktop.find_element(By.ID, "hint").is_displayed()
    open_page(desktop, site, rules="classic", seed=2, bot="greedy", delay=0)
    assert desktop.find_element(By.ID, "end-turn").is_displayed()


def test_browser_phone_header_shows_the_whole_move_number(phone: WebDriver, site: Site) -> None:
    shots.open_game(phone, site.address, {"rules": "casual(move_limit=999)", "seed": 4, "bot": "greedy"})
    shown = phone.execute_script(
        """
        const node = document.getElementById('move-number');
        const box = node.getBoundingClientRect();
        return [node.textContent, box.right <= window.innerWidth, node.scrollWidth <= node.clientWidth + 1];
        """
    )
    assert shown[0] == f"move {site.state(phone).move_count}" and shown[1] and shown[2]


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_browser_new_game_shows_load_record_without_scrolling(site: Site, screen: str, request: pytest.FixtureRequest) -> None:
    driver = request.getfixturevalue(screen)
    shots.open_game(driver, site.address, {"rules": "classic", "seed": 6})
    driver.find_element(By.ID, "new").click()
    wait(driver, "return document.getElementById('setup').open")
    visible = driver.execute_script(
        """
        const box = document.getElementById('load').getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight
          && document.documentElement.scrollWidth <= window.innerWidth;
        """
    )
    assert visible


def test_browser_says_what_the_computer_did_in_one_line_per_turn(desktop: WebDriver, site: Site) -> None:
    open_page(desktop, site, rules="classic", seed=3, seat=1, bot="greedy", delay=0)
    state = site.state(desktop)
    assert state.current_player == 1 and state.move_count > 0  # the computer has had its turn
    line = message(desktop)
    # Classic, seed 3: the greedy bot moves Q♣ onto K♥, fills the pile from its reserve, and draws a card that fits nowhere.
    assert line == "The computer's turn: Q♣ onto K♥; 6♣ onto an empty pile; drew K♦: it fits nowhere, so the turn ends."
    assert "\n" not in line
    # Each move of the list says itself in words when the pointer rests on it.
    titles = desktop.execute_script("return [...document.querySelectorAll('#moves .move')].map((m) => m.title)")
    assert titles == ["Q♣ onto K♥", "6♣ onto an empty pile", "drew K♦: it fits nowhere, so the turn ends"]


def test_browser_page_has_an_icon(desktop: WebDriver, site: Site) -> None:
    open_page(desktop, site, rules="classic", seed=3)
    status, text = shots.fetch(desktop, "GET", "/favicon.ico")
    assert status == 200 and text.startswith("<svg")
    icon = desktop.find_element(By.CSS_SELECTOR, "link[rel=icon]").get_attribute("href")
    assert icon is not None and shots.fetch(desktop, "GET", icon)[0] == 200
