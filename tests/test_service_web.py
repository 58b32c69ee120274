"""The web page in a real headless Chromium (Debian's package, driven by selenium + chromedriver):
load it, browse the registry, ask, see the plan picture, run offline, see attributed values; and
draw a hand-made plan with a chained step to check the arrow from producer field to parameter.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.service_support import Server, serve
from tests.sr_cli import copy_registry, synced_template

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,1000",
]
CHAINED_PLAN = {
    "query": "When was The Matrix released?",
    "registry_fingerprint": "sha256:handmade",
    "mode": "recall",
    "understanding": {"intent": "movie_detail", "concepts": [], "params": {}, "named_tools": ["tmdb"]},
    "steps": [
        {
            "id": "s1",
            "source": "tmdb",
            "endpoint": "search_movie",
            "params": {"query": "The Matrix"},
            "fields": ["id", "title"],
            "meta": {
                "id": {"source_type": "curated", "license": "LicenseRef-TMDB"},
                "title": {"source_type": "curated", "license": "LicenseRef-TMDB"},
            },
        },
        {
            "id": "s2",
            "source": "tmdb",
            "endpoint": "movie_movie_id",
            "params": {"movie_id": {"from": "s1", "field": "id", "pick": "first"}, "language": "en"},
            "fields": ["id", "release_date", "runtime"],
            "meta": {
                "id": {"source_type": "curated", "license": "LicenseRef-TMDB"},
                "release_date": {"source_type": "curated", "license": "LicenseRef-TMDB"},
                "runtime": {"unit": "min", "source_type": "curated", "license": "LicenseRef-TMDB"},
            },
        },
    ],
}


def _browser_or_skip() -> None:
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        if os.environ.get("CI") == "true":
            pytest.fail("chromium and chromedriver are missing under CI (.ci/run installs them)")
        pytest.skip("chromium/chromedriver not installed: apt-get install -y chromium chromium-driver")
    pytest.importorskip("selenium")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    work = tmp_path_factory.mktemp("web")
    db = copy_registry(synced_template(tmp_path_factory.mktemp("template")), work)
    with serve(db, work, "--no-live") as running:
        yield running


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    _browser_or_skip()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as DriverService

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=DriverService(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver: Any, condition: Any, timeout: float = 60) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(condition)


def _css(driver: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, selector))


def test_ask_plan_run_and_browse(server: Server, browser: Any) -> None:
    browser.get(server.url + "/")
    _wait(browser, lambda d: len(_css(d, "#sources tbody tr")) == 19)
    assert "19 sources" in _css(browser, "#registry-line")[0].text

    question = _css(browser, "#question")[0]
    question.send_keys("What is the molecular weight of aspirin?")
    _css(browser, "#plan-button")[0].click()
    _wait(browser, lambda d: _css(d, '#plan-picture g.field[data-field="MolecularWeight"]'))
    assert _css(browser, '#plan-picture g.source[data-source="pubchem"]')
    field_box = _css(browser, '#plan-picture g.field[data-field="MolecularWeight"]')[0]
    assert "MolecularWeight [g/mol]" in field_box.text and "calculated" in field_box.text
    assert "LicenseRef-NCBI-data-policy" in field_box.text
    assert _css(browser, '#plan-picture g.param[data-param="name"]'), "the parameter is drawn"
    assert not _css(browser, "#plan-picture path.chain"), "a one-step plan has no chain"

    assert _css(browser, "#offline")[0].is_selected(), "offline replay is the default"
    _css(browser, "#run-button")[0].click()
    _wait(browser, lambda d: _css(d, "#values tbody tr.value-row"))
    rows = [
        [c.text for c in r.find_elements("css selector", "td")] for r in _css(browser, "#values tbody tr")
    ]
    weight = next(r for r in rows if r[2] == "MolecularWeight")
    assert float(weight[3]) == pytest.approx(180.16, abs=0.01)
    assert weight[4] == "g/mol" and weight[5] == "calculated" and weight[6] == "LicenseRef-NCBI-data-policy"
    assert "offline replay" in _css(browser, "#status")[0].text
    # the recording holds no hydrogen-bond counts: the page says so instead of leaving them out
    not_returned = [li.text for li in _css(browser, "#step-errors li.not-returned")]
    assert any("pubchem.compound_properties name=aspirin" in t and "HBondDonorCount" in t for t in not_returned), not_returned
    assert _css(browser, "#status")[0].text.startswith("ok: ")

    _css(browser, 'a[href="#source-materials_project"]')[0].click()
    _wait(browser, lambda d: "band_gap" in _css(d, "#source-detail")[0].text)
    detail = _css(browser, "#source-detail")[0].text
    assert "Materials Project" in detail and "eV" in detail

    origin = server.url
    loaded = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert loaded and all(url.startswith(origin) for url in loaded), loaded
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe


def test_question_and_mode_live_in_the_url(server: Server, browser: Any) -> None:
    from urllib.parse import parse_qs, quote, urlsplit

    # a shared link plans its question in its mode on load
    question = "What is the band gap of GaN in the Materials Project?"
    browser.get(f"{server.url}/?q={quote(question)}&mode=minimal")
    _wait(browser, lambda d: _css(d, '#plan-picture g.field[data-field="band_gap"]'))
    assert _css(browser, "#question")[0].get_attribute("value") == question
    assert _css(browser, "#mode")[0].get_attribute("value") == "minimal"
    # planned in minimal mode: the identifier and the band gap, none of recall's field groups
    shown = {g.get_attribute("data-field") for g in _css(browser, "#plan-picture g.field")}
    assert shown == {"material_id", "band_gap"}, shown

    # asking another question writes it (and the mode) into the address, so a reload plans it again
    box = _css(browser, "#question")[0]
    box.clear()
    box.send_keys("What is the molecular weight of aspirin?")
    _css(browser, "#mode option[value='recall']")[0].click()
    _css(browser, "#plan-button")[0].click()
    _wait(browser, lambda d: _css(d, '#plan-picture g.field[data-field="MolecularWeight"]'))
    address = parse_qs(urlsplit(browser.current_url).query)
    assert address == {"q": ["What is the molecular weight of aspirin?"], "mode": ["recall"]}
    browser.refresh()
    _wait(browser, lambda d: _css(d, '#plan-picture g.field[data-field="MolecularWeight"]'))
    assert _css(browser, "#question")[0].get_attribute("value") == "What is the molecular weight of aspirin?"


def test_values_show_significant_digits(server: Server, browser: Any) -> None:
    from urllib.parse import quote

    browser.get(f"{server.url}/?q={quote('What is the formation energy of SmPO4?')}")
    _wait(browser, lambda d: _css(d, '#plan-picture g.field[data-field="formation_energy_per_atom"]'))
    _css(browser, "#run-button")[0].click()
    _wait(browser, lambda d: _css(d, "#values tbody tr.value-row"))
    rows = [[c.text for c in r.find_elements("css selector", "td")] for r in _css(browser, "#values tbody tr")]
    energy = next(r for r in rows if r[2] == "formation_energy_per_atom")
    assert energy[3] == "-3.47984" and energy[4] == "eV/atom", energy  # the source sent -3.4798433111507934


def test_chained_step_is_drawn_as_an_arrow(server: Server, browser: Any) -> None:
    browser.get(server.url + "/")
    _wait(browser, lambda d: d.execute_script("return !!window.schemarouterPicture"))
    arrows = browser.execute_script(
        "document.getElementById('plan-section').hidden = false;"
        "const box = document.getElementById('plan-picture');"
        "window.schemarouterPicture.draw(arguments[0], box, {});"
        "return [...box.querySelectorAll('path.chain')].map(p => ({from: p.dataset.from, to: p.dataset.to,"
        " d: p.getAttribute('d'), marker: p.getAttribute('marker-end')}));",
        CHAINED_PLAN,
    )
    assert [(a["from"], a["to"]) for a in arrows] == [("s1.id", "s2.movie_id")]
    assert arrows[0]["marker"] == "url(#arrow)"
    # the arrow leaves the producer's field box and ends at the consumer's parameter box
    geometry = browser.execute_script(
        "const q = s => document.querySelector(s).querySelector('rect');"
        'const f = q(\'#plan-picture g.field[data-step="s1"][data-field="id"]\');'
        'const p = q(\'#plan-picture g.param[data-step="s2"][data-param="movie_id"]\');'
        "const n = (r, a) => Number(r.getAttribute(a));"
        "return {fx: n(f,'x') + n(f,'width'), fy: n(f,'y') + n(f,'height') / 2,"
        " px: n(p,'x') + n(p,'width'), py: n(p,'y') + n(p,'height') / 2};"
    )
    start, *_, end = arrows[0]["d"].replace("M", "").replace("C", "").split()
    sx, sy = (float(v) for v in start.split(","))
    ex, ey = (float(v) for v in end.split(","))
    assert (sx, sy) == (geometry["fx"], geometry["fy"])
    assert abs(ex - geometry["px"]) <= 3 and ey == geometry["py"]
    bound = _css(browser, '#plan-picture g.param.bound[data-param="movie_id"]')[0].text
    assert "movie_id \u2190 s1.id" in bound and "first" in bound
    literal = _css(browser, '#plan-picture g.param[data-param="language"]')[0]
    assert "bound" not in literal.get_attribute("class") and "language = en" in literal.text
    assert (
        "runtime [min]"
        in _css(browser, '#plan-picture g.field[data-step="s2"][data-field="runtime"]')[0].text
    )


def test_page_text_is_never_parsed_as_html(server: Server, browser: Any, tmp_path: Path) -> None:
    browser.get(server.url + "/")
    _wait(browser, lambda d: d.execute_script("return !!window.schemarouterPicture"))
    hostile = dict(
        CHAINED_PLAN, steps=[dict(CHAINED_PLAN["steps"][0], source='<img src=x onerror="window.pwned=1">')]
    )
    browser.execute_script(
        "window.schemarouterPicture.draw(arguments[0], document.getElementById('plan-picture'), {});", hostile
    )
    assert not browser.execute_script("return document.querySelectorAll('#plan-picture img').length")
    assert browser.execute_script("return window.pwned === undefined")
