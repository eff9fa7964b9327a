"""The replay viewer (``arbiter view``) opened in a real browser: headless Chromium driven by Selenium.

The pages are written by the command itself, opened from disk (the page needs no network), stepped forward
and back with the buttons and the keyboard, and checked against the replay the engine computed: the counter,
the picture, the narration, the clause links and, for a diverging record, the divergence panel.  Every test
saves a screenshot (in the test's temporary folder, and in ``$ARBITER_SCREENSHOTS`` when set: that is how
the screenshots in ``docs/images/`` are made).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from extras import need

from engine.cli import main
from engine.viewer import build_replay

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "data" / "records"
CHROMEDRIVER = "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need("selenium")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    if not Path(CHROMEDRIVER).exists() and not os.environ.get("ARBITER_REQUIRE_EXTRAS"):
        pytest.skip("chromedriver is not installed (apt-get install chromium chromium-driver)")
    profile = tempfile.mkdtemp(prefix="arbiter-chrome-")
    options = webdriver.ChromeOptions()
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--window-size=1280,900",
        "--hide-scrollbars",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _page(tmp_path: Path, record: Path, *extra: str) -> Path:
    out = tmp_path / (record.stem + ".html")
    assert main(["view", str(record), "-o", str(out), *extra]) == 0
    return out


def _shot(driver: Any, tmp_path: Path, name: str) -> Path:
    """Save a screenshot; also into $ARBITER_SCREENSHOTS (the docs' images) when set."""
    path = tmp_path / f"{name}.png"
    assert driver.save_screenshot(str(path))
    assert path.stat().st_size > 1000
    folder = os.environ.get("ARBITER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / f"{name}.png")
    return path


def _text(driver: Any, css: str) -> str:
    from selenium.webdriver.common.by import By

    text: str = driver.find_element(By.CSS_SELECTOR, css).text
    return text


def _click(driver: Any, css: str) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, css).click()


def test_step_forward_and_back_through_a_take6_game(browser: Any, tmp_path: Path) -> None:
    """Forward and back show the engine's position and narration of each step (T6-SELECT-1, T6-PLACE-1),
    the arrow keys do the same, and the buttons at either end are disabled."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    record = RECORDS / "good-take6-standard-2p.jsonl"
    replay = build_replay(record)
    last = len(replay.steps) - 1
    browser.get(_page(tmp_path, record).as_uri())
    assert _text(browser, "#counter") == f"step 0 / {last}"
    assert browser.find_element(By.ID, "prev").get_attribute("disabled") is not None
    _shot(browser, tmp_path, "viewer-take6-start")
    start_picture = browser.find_element(By.CSS_SELECTOR, "#picture svg").get_attribute("outerHTML")
    for i in range(1, 4):
        _click(browser, "#next")
        assert _text(browser, "#counter") == f"step {i} / {last}"
        assert _text(browser, "#step-title") == replay.steps[i].title
        assert _text(browser, "#action b") == replay.steps[i].text  # the action's text, then its JSON
        assert _text(browser, "#action span").startswith('{ "type": ')
        expected = [line.strip() for line in replay.steps[i].narration]
        assert _text(browser, "#narration").splitlines() == expected
        chips = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#chips a.clause")]
        assert chips == list(replay.steps[i].clauses)
    assert browser.find_element(By.CSS_SELECTOR, "#picture svg").get_attribute("outerHTML") != start_picture
    _shot(browser, tmp_path, "viewer-take6-step3")
    _click(browser, "#prev")
    assert _text(browser, "#counter") == f"step 2 / {last}"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert _text(browser, "#counter") == f"step 1 / {last}"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert _text(browser, "#counter") == f"step 2 / {last}"
    _click(browser, "#last")
    assert _text(browser, "#counter") == f"step {last} / {last}"
    assert browser.find_element(By.ID, "next").get_attribute("disabled") is not None
    assert "game over" in browser.find_element(By.CSS_SELECTOR, "#picture svg").text
    _click(browser, "#first")
    assert _text(browser, "#counter") == f"step 0 / {last}"
    assert not browser.find_element(By.ID, "divergence").is_displayed()


def test_clause_links_lead_to_wording_and_seed_passages(browser: Any, tmp_path: Path) -> None:
    """A clause id in the narration links to its entry: our wording and the verbatim seed passage."""
    from selenium.webdriver.common.by import By

    from engine.spec import all_clauses

    record = RECORDS / "good-take6-standard-2p.jsonl"
    browser.get(_page(tmp_path, record).as_uri() + "#step-3")
    assert _text(browser, "#counter").startswith("step 3 / ")
    link = browser.find_element(By.CSS_SELECTOR, "#narration a.clause")
    cid = link.text
    clause = all_clauses()[cid]
    assert link.get_attribute("title") == clause.text
    link.click()
    assert browser.current_url.endswith(f"#clause-{cid}")
    entry = browser.find_element(By.ID, f"clause-{cid}")
    assert entry.is_displayed()
    assert clause.text in entry.text
    assert " ".join(clause.cites[0].quote.split()) in " ".join(entry.text.split())
    _shot(browser, tmp_path, "viewer-clause")


def test_a_refused_action_opens_at_the_divergence_with_both_sides(browser: Any, tmp_path: Path) -> None:
    """A record whose action the rules refuse (T6-SELECT-1: the card is not in hand) opens at that step and
    shows what the record says, what the rules say, the clause and what would have been legal."""
    from selenium.webdriver.common.by import By

    record = RECORDS / "diverge-card-not-in-hand.jsonl"
    replay = build_replay(record)
    assert replay.divergence is not None
    browser.get(_page(tmp_path, record).as_uri())
    assert _text(browser, "#counter") == f"step {replay.start} / {len(replay.steps) - 1}"
    panel = browser.find_element(By.ID, "divergence")
    assert panel.is_displayed()
    assert replay.divergence["record"] in _text(browser, "#side-record")
    assert "card 4 is not in P0's hand" in _text(browser, "#side-rules")
    assert "T6-SELECT-1" in panel.text and "To make it legal" in panel.text
    _shot(browser, tmp_path, "viewer-divergence-illegal")
    _click(browser, "#first")
    assert not panel.is_displayed()
    _click(browser, "#jump-divergence")
    assert panel.is_displayed()


def test_a_wrong_claim_opens_at_the_divergence(browser: Any, tmp_path: Path) -> None:
    """A record claiming the wrong rows after a row choice (T6-PLACE-3) opens after that action, with the
    record's rows and the rules' rows side by side, and the picture drawn from the rules."""
    from selenium.webdriver.common.by import By

    record = RECORDS / "diverge-wrong-rows-claim.jsonl"
    replay = build_replay(record)
    assert replay.divergence is not None and replay.divergence["kind"] == "claim"
    browser.get(_page(tmp_path, record).as_uri())
    assert _text(browser, "#counter") == f"step {replay.start} / {len(replay.steps) - 1}"
    assert _text(browser, "#side-record").endswith(replay.divergence["record"])
    assert _text(browser, "#side-rules").endswith(replay.divergence["rules"])
    picture = browser.find_element(By.CSS_SELECTOR, "#picture svg")
    assert "Row 0" in picture.text
    _shot(browser, tmp_path, "viewer-divergence-claim")


def test_a_petersburg_game_steps_with_costs(browser: Any, tmp_path: Path) -> None:
    """A Saint Petersburg replay shows the board with effective costs and steps to the end (SP-END-1), whose
    picture names the winner (SP-END-8) and prints no price."""
    from selenium.webdriver.common.by import By

    record = RECORDS / "good-petersburg-first-2p.jsonl"
    replay = build_replay(record)
    browser.get(_page(tmp_path, record).as_uri() + "#step-12")
    assert _text(browser, "#step-title") == replay.steps[12].title
    assert "pays" in _text(browser, "#picture")
    # the rulings the step rests on are marked on their chips, read from the page's table of rulings
    marked = {e.text.split()[0] for e in browser.find_elements(By.CSS_SELECTOR, "#chips span.ruling")}
    assert marked == {r["id"] for r in replay.steps[12].rulings} and "SP-TURN-2" in marked
    _shot(browser, tmp_path, "viewer-petersburg")
    _click(browser, "#last")
    assert replay.result is not None
    winners = ", ".join(f"P{p}" for p in replay.result["winners"])
    assert f"game over · winner{'s' if ',' in winners else ''} {winners}" in _text(browser, "#picture")
    assert "pays" not in _text(browser, "#picture") and "costs for" not in _text(browser, "#picture")
    _shot(browser, tmp_path, "viewer-petersburg-end")


def test_the_page_is_self_contained(tmp_path: Path) -> None:
    """The page loads nothing: no external script, style, image or link (the SVG namespace is a name)."""
    page = _page(tmp_path, RECORDS / "good-take6-unfinished.jsonl").read_text(encoding="utf-8")
    body = page.replace("http://www.w3.org/2000/svg", "")
    for needle in ("http://", "https://", "src=", "<link", "@import", "url("):
        assert needle not in body, needle


def test_home_and_end_step_without_scrolling_the_page(browser: Any, tmp_path: Path) -> None:
    """End jumps to the last step and Home to the first; neither scrolls the page to the glossary (the
    keys do one thing), and the picture of a step is the engine's own."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    record = RECORDS / "good-petersburg-first-2p.jsonl"
    replay = build_replay(record)
    last = len(replay.steps) - 1
    browser.get(_page(tmp_path, record).as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.END)
    assert _text(browser, "#counter") == f"step {last} / {last}"
    assert browser.execute_script("return window.scrollY") == 0
    body.send_keys(Keys.HOME)
    assert _text(browser, "#counter") == f"step 0 / {last}"
    assert browser.execute_script("return window.scrollY") == 0
    body.send_keys(Keys.ARROW_RIGHT)
    shown = browser.execute_script("return document.querySelector('#picture svg').outerHTML")
    import xml.etree.ElementTree as ET

    assert ET.tostring(ET.fromstring(shown)) == ET.tostring(ET.fromstring(replay.steps[1].svg))


def test_a_pass_shows_its_clause(browser: Any, tmp_path: Path) -> None:
    """The step of a pass shows the clause allowing it, SP-TURN-3, as a link, not "no clause"."""
    from selenium.webdriver.common.by import By

    record = RECORDS / "good-petersburg-first-2p.jsonl"
    replay = build_replay(record)
    step = next(s for s in replay.steps if s.action and s.action["type"] == "pass")
    browser.get(_page(tmp_path, record).as_uri() + f"#step-{step.index}")
    chips = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#chips a.clause")]
    assert "SP-TURN-3" in chips and "no clause" not in _text(browser, "#chips")


def test_hostile_comments_leave_the_page_working(browser: Any, tmp_path: Path) -> None:
    """Comments holding ``<!--<script>``, ``</script>`` and U+2028 do not break the page's JSON: Chromium
    parses it, the page steps, and the comments are shown as text (no script of theirs runs)."""
    from test_viewer import _hostile_record

    record = _hostile_record(tmp_path)
    browser.get(_page(tmp_path, record).as_uri())
    last = len(build_replay(record).steps) - 1
    assert _text(browser, "#counter") == f"step 0 / {last}"
    assert "<!--<script>" in _text(browser, "#narration")
    _click(browser, "#next")
    _click(browser, "#next")
    assert "</script><script>alert(1)</script>" in _text(browser, "#narration")
    assert browser.execute_script("return document.querySelectorAll('script').length") == 2


def test_a_legal_set_divergence_wraps_in_its_column(browser: Any, tmp_path: Path) -> None:
    """A wrong legal-set claim lists each action on its own line, inside the side's column: nothing is
    wider than the column, and the page does not scroll sideways."""
    import json

    from selenium.webdriver.common.by import By

    lines = (RECORDS / "good-take6-unfinished.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["version"] = 2
    lines[0] = json.dumps(header)
    line = json.loads(lines[1])
    line["claims"] = {"legal": [{"player": 1, "actions": [{"type": "select", "player": 1, "card": 1}]}]}
    lines[1] = json.dumps(line)
    record = tmp_path / "legal.jsonl"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    browser.get(_page(tmp_path, record).as_uri())
    items = browser.find_elements(By.CSS_SELECTOR, "#side-rules li")
    assert len(items) == 10
    column = browser.find_element(By.ID, "side-rules")
    assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", column)
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    _shot(browser, tmp_path, "viewer-divergence-legal")


# Every element of the page outside the picture, measured: the page is no wider than the window, and no
# element's content is wider than its box (one that scrolls on purpose excepted) or reaches past the window.
_OVERFLOW = """
const out = [];
const root = document.documentElement;
const wide = root.scrollWidth, seen = window.innerWidth;
if (wide > seen) out.push(`page: ${wide} px wide in ${seen}`);
for (const e of document.body.querySelectorAll("*")) {
  if (e.closest("svg")) continue;
  const style = getComputedStyle(e);
  if (style.display === "none" || style.display === "inline") continue;
  const name = e.tagName + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className : "");
  const scrolls = ["auto", "scroll"].includes(style.overflowX);
  if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && !scrolls)
    out.push(`${name}: content ${e.scrollWidth} px in ${e.clientWidth}`);
  const box = e.getBoundingClientRect();
  if (box.width > 0 && (box.right > window.innerWidth + 1 || box.left < -1))
    out.push(`${name}: from ${Math.round(box.left)} to ${Math.round(box.right)} px`);
}
return out;
"""

# Every step in turn (through the slider, as a user drags it), then Home: what _OVERFLOW finds at each, and
# the text of each step's picture (to compare with the engine's).
_EVERY_STEP = """
const slider = document.getElementById("slider"), found = [], texts = [];
const check = () => new Function(arguments[0])();
for (let i = 0; i <= Number(slider.max); i++) {
  slider.value = i;
  slider.dispatchEvent(new Event("input"));
  for (const f of check()) found.push(`step ${i}: ${f}`);
  texts.push(document.querySelector("#picture svg").textContent);
}
document.dispatchEvent(new KeyboardEvent("keydown", {key: "Home", bubbles: true}));
for (const f of check()) found.push(`Home: ${f}`);
return [found, texts, document.getElementById("counter").textContent];
"""


@pytest.mark.parametrize(("game", "seed"), [("take6", 3), ("petersburg", 5)])
def test_no_step_overflows_sideways_at_any_width(
    browser: Any, tmp_path: Path, game: str, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """At every step of a 4-player game, and after Home, at 360, 768 and 1280 px: the page is no wider
    than the window (``scrollWidth <= innerWidth``) and no element overflows its box (the opening
    position's notation wraps); each step's picture is the engine's (its text)."""
    import xml.etree.ElementTree as ET

    record = tmp_path / f"{game}.jsonl"
    argv = ["play", game, "--players", "4", "--seed", str(seed), "--quiet", "--record", str(record)]
    assert main(argv) == 0
    capsys.readouterr()
    replay = build_replay(record)
    expected = ["".join(ET.fromstring(s.svg).itertext()) for s in replay.steps]
    page = _page(tmp_path, record).as_uri()
    try:
        for width in (360, 768, 1280):
            browser.set_window_size(width, 900)
            browser.get(page)
            assert browser.execute_script("return window.innerWidth") == width
            found, texts, counter = browser.execute_script(_EVERY_STEP, _OVERFLOW)
            assert not found, (width, found[:5])
            assert texts == expected and counter == f"step 0 / {len(replay.steps) - 1}"
            if width == 360:
                _shot(browser, tmp_path, f"viewer-{game}-narrow")
    finally:
        browser.set_window_size(1280, 900)


def test_a_deals_text_wraps_at_the_narrowest_width(browser: Any, tmp_path: Path) -> None:
    """A record whose later deals are chance lines (T6-SETUP-5): a deal's text, one long run, wraps in the
    action line at 360 px at every step; the title shows it cut, the action line whole."""
    record = RECORDS / "good-take6-chance-3p.jsonl"
    replay = build_replay(record)
    deal = next(i for i, s in enumerate(replay.steps) if s.action and s.action["type"] == "deal")
    try:
        browser.set_window_size(360, 900)
        browser.get(_page(tmp_path, record).as_uri() + f"#step-{deal}")
        assert _text(browser, "#action b").replace("\n", "") == replay.steps[deal].text
        assert _text(browser, "#step-title").endswith("…")
        found, _texts, _counter = browser.execute_script(_EVERY_STEP, _OVERFLOW)
        assert not found, found[:5]
    finally:
        browser.set_window_size(1280, 900)


def test_the_opening_position_wraps_in_a_box_with_a_copy_button(browser: Any, tmp_path: Path) -> None:
    """The start's notation (SP-SETUP-1's position, one long run of text) is shown whole in a box as wide
    as its panel, wrapped after its separators; its button copies it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.wait import WebDriverWait

    record = RECORDS / "good-petersburg-first-2p.jsonl"
    notation = next(
        line.split(": ", 1)[1]
        for line in build_replay(record).steps[0].narration
        if "/" in line and ": " in line
    )
    browser.get(_page(tmp_path, record).as_uri())
    box = browser.find_element(By.CSS_SELECTOR, "#narration .long code")
    assert box.get_attribute("textContent") == notation
    assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", box)
    panel = browser.find_element(By.CSS_SELECTOR, "#narration")
    assert box.rect["width"] <= panel.rect["width"]
    button = browser.find_element(By.CSS_SELECTOR, "#narration .long button.copy")
    button.click()
    # the copy is done when the clipboard's promise settles: wait for it (the label "copied" shows for
    # 1.5 s only, so reading it at once raced with both the promise and the label's return)
    WebDriverWait(browser, 10, poll_frequency=0.05).until(
        lambda _d: button.get_attribute("data-copies") == "1")
