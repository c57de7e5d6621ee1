"""Take the screenshots of the web example that the documentation shows.

    python examples/web/screenshots.py [OUTPUT_DIR]

writes ``web-start-desktop.png``, ``web-middle-desktop.png``, ``web-start-phone.png``
and ``web-middle-phone.png`` (default: ``docs/_static``), at 1280x800 and 390x844.
It needs the ``web`` and ``browser`` extras and Debian's ``chromium`` and
``chromium-driver`` packages (no browser is downloaded). The tests of the web
example start Chromium with :func:`chromium` too.
"""

from __future__ import annotations

import functools
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver import Chrome as WebDriver

from crapette import Game
from crapette.bots import SearchBot

ROOT = Path(__file__).resolve().parents[2]
#: The flags that keep Chromium quiet on a machine without internet access.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
#: The screen sizes of the screenshots: (name, width, height, a phone?).
SCREENS = (("desktop", 1280, 800, False), ("phone", 390, 844, True))
#: The deal the screenshots show, and how many moves into it the middle is.
SEED, MIDDLE = 13, 120


def find_chromium() -> tuple[str, str] | str:
    """The paths of Chromium and chromedriver, or why they cannot be used."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        missing = " and ".join(
            name for name, path in (("chromium", browser), ("chromedriver", driver)) if path is None
        )
        return f"{missing} not found: install Debian's chromium and chromium-driver packages"
    return browser, driver


@contextmanager
def chromium(width: int, height: int, *, mobile: bool = False) -> Iterator[WebDriver]:
    """A headless Chromium whose page is exactly ``width`` x ``height`` CSS pixels."""
    found = find_chromium()
    if isinstance(found, str):
        raise RuntimeError(found)
    browser, driver_path = found
    profile = tempfile.mkdtemp(prefix="crapette-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the page's console, for tests
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
        )
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


#: True once the page has drawn a game, waits for no answer, moves no card, and the computer is not playing.
IDLE_CONDITION = (
    "document.body.dataset.busy === '0' && !['loading', 'bot'].includes(document.body.dataset.turn)"
    " && document.getAnimations().length === 0"
)
IDLE = "return " + IDLE_CONDITION


def wait_until_idle(driver: WebDriver, timeout: float = 30.0) -> None:
    """Wait until the page is idle (see IDLE): the player may click."""
    deadline = time.monotonic() + timeout
    while not driver.execute_script(IDLE):
        if time.monotonic() > deadline:
            raise TimeoutError("the page did not become idle")
        time.sleep(0.03)


@functools.cache
def middle_game_record() -> str:
    """A record of SEED played by two search bots for about MIDDLE moves, ending on player 0's turn."""
    game = Game("classic", seed=SEED)
    bot = SearchBot(seed=SEED)
    while len(game.history) < MIDDLE or game.state.current_player != 0:
        game.push(bot.choose(game.state))
    return game.to_record(tags={"Seat": "0", "Bot": "search"}).to_json()


def fetch(driver: WebDriver, method: str, path: str, body: object = None) -> tuple[int, str]:
    """A request from the page (with its cookie, as the page makes it): (status, text)."""
    answer: list[object] = driver.execute_async_script(
        """
        const [method, path, body, done] = arguments;
        const options = {method, headers: {}};
        if (body !== null) {
          options.headers["Content-Type"] = "application/json";
          options.body = JSON.stringify(body);
        }
        fetch(path, options).then(r => r.text().then(t => done([r.status, t])), e => done([0, String(e)]));
        """,
        method,
        path,
        body,
    )
    return int(str(answer[0])), str(answer[1])


def open_game(driver: WebDriver, address: str, body: dict[str, object]) -> None:
    """Start a game through the API, as the page does (the game belongs to the browser's cookie), and show it."""
    # Make the request from a page of the site that deals no game.
    driver.get(address + "/static/style.css")
    status, text = fetch(driver, "POST", "/api/games", body)
    if status != 201:
        raise RuntimeError(f"the server refused the game ({status}): {text}")
    # The tab remembers its game: tell it which.
    driver.execute_script("sessionStorage.setItem('crapette-game', arguments[0])", json.loads(text)["id"])
    driver.get(address + "/?delay=0")
    wait_until_idle(driver)


def main(out: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import server  # the app beside this file

    out.mkdir(parents=True, exist_ok=True)
    record = middle_game_record()
    with server.serve_in_thread(server.create_app()) as address:
        for name, width, height, mobile in SCREENS:
            with chromium(width, height, mobile=mobile) as driver:
                open_game(driver, address, {"rules": "classic", "seed": SEED, "seat": 0})
                driver.save_screenshot(str(out / f"web-start-{name}.png"))
                open_game(driver, address, {"record": record})
                driver.save_screenshot(str(out / f"web-middle-{name}.png"))
    for path in sorted(out.glob("web-*.png")):
        print(f"{path}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "_static")
