"""The rules dialog in every language: the How-to-play of each game with card pictures,
the full rules behind an expander, in the chosen language, and only that language's
files fetched (static/rules/<lang>/)."""

from __future__ import annotations

import re

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
