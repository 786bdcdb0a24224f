"""The rules dialog in every language: the How-to-play of each game with card pictures,
the full rules behind an expander, in the chosen language, and only that language's
files fetched (static/rules/<lang>/). Nerts, Demon's second game, in two of them; and a
page that says it shows Nerts opens the rules on Nerts."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

# The first heading of each How-to-play, per language: the dialog must show these, not
# the English text.
HOWTO_TITLES = {
    "en": ("How to play Demon", "How to play Devil's Grip"),
    "ro": ("Cum se joacă Demon", "Cum se joacă Devil’s Grip"),
    "de": ("So spielt man Demon", "So spielt man Devil’s Grip"),
    "fi": ("Näin pelaat Demonia", "Näin pelaat Devil’s Gripiä"),
    "ru": ("Как играть в «Демона»", "Как играть в Devil’s Grip"),
}
FULL_TITLES = {
    "en": "Demon: the full rules",
    "ro": "Demon: regulile complete",
    "de": "Demon: die vollständigen Regeln",
    "fi": "Demon: täydet säännöt",
    "ru": "«Демон»: полные правила",
}
DEMON_SECTIONS = ["players", "deal", "moves", "foundations", "end", "scoring"]
NERTS_TITLES = {
    "en": ("How to play Nerts", "Nerts: the full rules"),
    "de": ("So spielt man Nerts", "Nerts: die vollständigen Regeln"),
    "ru": ("Как играть в «Нертс»", "«Нертс»: полные правила"),
}
NERTS_SECTIONS = ["deal", "moves", "foundations", "end", "scoring", "house"]
# /static/rules/<lang>/<file>, or the same under the shell's version (/static/<version>/rules/...)
RULES_URL = re.compile(r"/static/(?:[0-9a-f]+/)?rules/([a-z]+)/[a-z.-]+\.md$")


def rules_requests(page) -> list[str]:
    urls: list[str] = []
    page.on("request", lambda req: urls.append(req.url) if RULES_URL.search(req.url) else None)
    return urls


def test_rules_follow_the_language(open_page):
    page = open_page("rules-i18n")
    fetched = rules_requests(page)
    for code, (demon_title, grip_title) in HOWTO_TITLES.items():
        page.select_option("select.lang", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        fetched.clear()
        page.click("header .rules-btn")
        dialog = page.locator(".modal-box")
        text = dialog.locator(".rules-text")
        expect(text).to_have_attribute("lang", code)
        howto = dialog.locator(".rules-howto")
        expect(howto.locator("h3").first).to_have_text(demon_title)
        # small card pictures, drawn with the game's own card art
        cards = howto.locator(".rules-cards .card")
        expect(cards.first).to_be_visible()
        assert cards.count() >= 8
        box = cards.first.bounding_box()
        assert box and 20 <= box["width"] <= 40 and box["height"] > box["width"]
        assert howto.locator(".rules-cards .card.face[data-card='7H']").count() == 1
        # the full rules, folded away until asked for
        full = dialog.locator("details.rules-full")
        expect(full.locator("summary")).to_have_text(FULL_TITLES[code])
        expect(full.locator("h3").first).to_be_hidden()
        full.locator("summary").click()
        expect(full.locator("h3").first).to_be_visible()
        sections = full.locator("h3[data-section]").evaluate_all("(els) => els.map((e) => e.dataset.section)")
        assert sections == DEMON_SECTIONS
        assert full.locator("ol > li").count() == 19
        # the other game
        dialog.locator(".rules-tab[data-game='devils-grip']").click()
        expect(howto.locator("h3").first).to_have_text(grip_title)
        expect(howto.locator(".rules-cards .card.face[data-card='JS']")).to_be_visible()
        expect(dialog.locator("details.rules-full ol > li")).to_have_count(12)
        assert dialog.locator(".rules-text script, .rules-text img").count() == 0
        # only this language's files were fetched
        assert fetched and {RULES_URL.search(url).group(1) for url in fetched} == {code}, fetched
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)


def test_rules_open_on_the_game_of_the_page(open_page, artifacts):
    page = open_page("rules-grip", path="/grip")
    page.select_option("select.lang", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")  # the German strings are in
    page.click("header .rules-btn")
    dialog = page.locator(".modal-box")
    expect(dialog.locator(".rules-howto h3").first).to_have_text(HOWTO_TITLES["de"][1])
    expect(dialog.locator(".rules-tab[data-game='devils-grip']")).to_have_attribute("aria-pressed", "true")
    page.screenshot(path=str(artifacts / "rules-grip-de.png"))


def open_rules(page, lang: str):
    """The page in `lang`, its rules dialog opened from the header: the dialog."""
    page.select_option("select.lang", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.click("header .rules-btn")
    return page.locator(".modal-box")


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_nerts_rules_in_the_language(open_page, artifacts, lang):
    page = open_page(f"rules-nerts-{lang}")
    fetched = rules_requests(page)
    dialog = open_rules(page, lang)
    expect(dialog.locator(".rules-howto h3").first).to_have_text(HOWTO_TITLES[lang][0])  # Demon first, as before
    dialog.locator(".rules-tab[data-game='nerts']").click()
    expect(dialog.locator(".rules-tab[data-game='nerts']")).to_have_attribute("aria-pressed", "true")
    expect(dialog.locator(".rules-tab[data-game='demon']")).to_have_attribute("aria-pressed", "false")
    howto = dialog.locator(".rules-howto[data-game='nerts']")
    howto_title, full_title = NERTS_TITLES[lang]
    expect(howto.locator("h3").first).to_have_text(howto_title)
    # the Nerts pile's face-down cards and its top card, the four work piles: the game's card art
    expect(howto.locator(".rules-cards .card.face[data-card='QD']")).to_be_visible()
    assert howto.locator(".rules-cards .card:not(.face)").count() >= 2
    for card in ("5C", "9H", "KS", "2D"):
        assert howto.locator(f".rules-cards .card.face[data-card='{card}']").count() == 1, card
    box = howto.locator(".rules-cards .card").first.bounding_box()
    assert box and 20 <= box["width"] <= 40 and box["height"] > box["width"]
    # the full rules below, folded: N1-N14 numbered, then the house rules H1-H4
    full = dialog.locator("details.rules-full[data-game='nerts']")
    expect(full.locator("summary")).to_have_text(full_title)
    expect(full.locator("h3").first).to_be_hidden()
    full.locator("summary").click()
    expect(full.locator("h3").first).to_be_visible()
    assert full.locator("h3[data-section]").evaluate_all("(els) => els.map((e) => e.dataset.section)") == NERTS_SECTIONS
    assert full.locator("ol > li").count() == 14
    house = full.locator("ul > li strong").evaluate_all("(els) => els.map((e) => e.textContent.slice(0, 3))")
    assert house == ["H1.", "H2.", "H3.", "H4."], house
    # the negative score is written with a real minus sign, in the scoring rule
    assert "−2" in full.locator("ol > li").nth(13).inner_text()
    assert dialog.locator(".rules-text script, .rules-text img").count() == 0
    urls = {RULES_URL.search(url).group(0).rsplit("/", 1)[1] for url in fetched}
    assert {"nerts.howto.md", "nerts.md"} <= urls, fetched
    assert {RULES_URL.search(url).group(1) for url in fetched} == {lang}, fetched
    page.screenshot(path=str(artifacts / f"rules-nerts-{lang}.png"))


# The page's own copy of rules.js (the shell's versioned URL), so setRulesGame reaches the
# module the header's button uses.
SET_RULES_GAME = """async (game) => {
  const app = document.querySelector('script[type=module][src*="app.js"]').src;
  const rules = await import(new URL('common/rules.js', app).href);
  try { rules.setRulesGame(game); return null; } catch (err) { return String(err.message); }
}"""


def test_rules_open_on_nerts_when_the_page_shows_nerts(open_page):
    page = open_page("rules-page-game")
    assert page.evaluate(SET_RULES_GAME, "nerts") is None
    dialog = open_rules(page, "en")
    expect(dialog.locator(".rules-tab[data-game='nerts']")).to_have_attribute("aria-pressed", "true")
    expect(dialog.locator(".rules-howto h3").first).to_have_text(NERTS_TITLES["en"][0])
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    # a game without rules is refused and changes nothing
    assert "no rules for the game" in page.evaluate(SET_RULES_GAME, "chess")
    page.click("header .rules-btn")
    expect(dialog.locator(".rules-howto h3").first).to_have_text(NERTS_TITLES["en"][0])
    page.keyboard.press("Escape")
    # leaving the Nerts room: the path decides again (Demon here)
    assert page.evaluate(SET_RULES_GAME, None) is None
    page.click("header .rules-btn")
    expect(dialog.locator(".rules-howto h3").first).to_have_text(HOWTO_TITLES["en"][0])
    expect(dialog.locator(".rules-tab[data-game='demon']")).to_have_attribute("aria-pressed", "true")


def test_the_nerts_tab_is_labelled_in_the_language(open_page):
    page = open_page("rules-nerts-tab")
    for lang, label in (("en", "Nerts"), ("ru", "Нертс")):
        dialog = open_rules(page, lang)
        expect(dialog.locator(".rules-tab[data-game='nerts']")).to_have_text(label, timeout=2000)
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
