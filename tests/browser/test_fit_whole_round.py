"""A table of eight stays whole through the rest of its round, its tags showing.

test_fit_tags.py checks the table at one moment of the middle of a round. This follows a
round to its end: from that middle (Bob and Cleo voted and left, seat 4 stuck, a
twentieth foundation pile), Bob's and Cleo's seats go absent once the grace period ends,
Ann, alone with the bots, lets them finish (her own vote, the status bar's "finishing"
line), and while they play it out, stuck tags coming and the foundations filling, the
checks of test_fit.py hold until the results, at the laptops' three sizes in turn and
on a phone (a page of its own), in each of the five languages: five tables at once, one a
language, whose pages are checked in turn (the rest of a round is mostly the bots' time,
so five rounds take about as long as one).

The server is this module's own: tests/browser/layouts/eight-seats-tags.json and slow
bots (as test_fit_tags.py's: finishing, they play a move in 0.2-0.5 s, so the rest of the
round lasts long enough to be read at every size), and a grace period of a few seconds
(a seat left is absent soon). The page asks for reduced motion: a card in flight over
another is not a card covered.

On a phone the status bar once took three lines while the bots finished (the round,
"The bots are finishing the round…", "Take the round back"), and your cards shrank to
36 px, under the 40 px a finger needs (test_status_bar.py holds the bar to one row).
"""

from __future__ import annotations

import re
from itertools import cycle

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import RACE_SEED
from tests.browser.test_fit import SIZES
from tests.browser.test_fit_tags import LANGUAGES, LAPTOP, LAYOUT, SHOTS, fit_problems, table_of_eight_with_tags
from tests.support.live_server import LiveServer

GRACE_S = 6


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("browser-fit-whole-round"),
        test_seed=RACE_SEED,
        countdown_s=0.3,
        reconnect_grace_s=GRACE_S,
        bot_think_scale=10,
        test_layout=LAYOUT,
    )
    with srv:
        yield srv


# The laptops' sizes in turn on one page; a phone on a page of its own. (Resized from
# 1920 x 1080 to a phone in the middle of a round whose bots finish fast, your cards once
# stayed at 30 px with room unused below: a window crossing a phone's width while the
# foundations grow is test_fit_resize.py's, which makes that frame every run.)
GROUPS = {
    "laptops": [s for s in SIZES if s != "phone"],
    "phone": ["phone"],
}


@pytest.mark.slow
@pytest.mark.parametrize("group", list(GROUPS))
def test_tables_of_eight_stay_whole_to_the_end_of_their_round_in_every_language(open_page, group):
    """One table a language, all five playing at once (a round's rest is mostly waiting
    for slow bots: five tables wait together), their pages checked in turn."""
    sizes = GROUPS[group]
    first, touch = SIZES[sizes[0]]
    pages = {}
    for locale in LANGUAGES:
        ann, _dealt, middle_of_the_round = table_of_eight_with_tags(
            open_page, f"whole-round-{group}-{locale}", viewport=first, touch=touch, locale=locale
        )
        ann.emulate_media(reduced_motion="reduce")
        middle_of_the_round()
        pages[locale] = ann
    for ann in pages.values():
        # the grace period ends: Bob and Cleo are absent, and Ann is alone with the bots
        expect(ann.locator(".opp .conn-absent")).to_have_count(2, timeout=(GRACE_S + 10) * 1000)
        expect(ann.locator("#bots-finish")).to_be_visible()
        ann.keyboard.press("b")
        expect(ann.locator(".table-status .finishing")).to_be_visible()
    problems: list[str] = []
    seen = {locale: {} for locale in pages}
    tops = {locale: set() for locale in pages}
    next_size = {locale: cycle(sizes) for locale in pages}
    playing = dict(pages)
    while playing:
        for locale, ann in list(playing.items()):
            results = ann.locator("#results")
            if results.is_visible():
                del playing[locale]
                continue
            size = next(next_size[locale])
            if len(sizes) > 1:
                ann.set_viewport_size(SIZES[size][0])
            found = fit_problems(ann, None, phone=size == "phone", settle=False)
            home = ann.locator(".foundations [data-fpile] .card.face").count()
            top_cards = ann.eval_on_selector_all(
                ".foundations [data-fpile]", "piles => piles.map((p) => p.textContent).join()"
            )
            stuck = ann.locator(".opp .tag.stuck").count()
            if results.is_visible():
                continue  # the round ended while the checks ran: the table they read was going
            seen[locale][size] = seen[locale].get(size, 0) + 1
            tops[locale].add(top_cards)
            if found and not problems:  # the first table found wrong, for whoever looks into it
                SHOTS.mkdir(parents=True, exist_ok=True)
                ann.screenshot(path=str(SHOTS / f"whole-round-{size}-{locale}.png"))
            problems += [f"{locale} {size} ({home} piles, {stuck} stuck): {p}" for p in found]
        if len(playing) == 1:
            next(iter(playing.values())).wait_for_timeout(300)
    assert not problems, "\n".join(problems)
    for locale in pages:
        # the rest of a round, sampled: every size more than once, the foundations filling
        assert sorted(seen[locale]) == sorted(sizes) and min(seen[locale].values()) >= 2, (locale, seen[locale])
        assert len(tops[locale]) >= 2, (locale, "the foundations did not change while watched")
    expect(pages["en-GB"].locator("#results .reason")).to_have_text(
        re.compile(r"^(The bots finished the round for you\.|Bot [1-8] played all 52 cards and called “Demon!”)$")
    )
