"""A round ends cleanly, in real Chromium, on the package's server (every
round dealt from RACE_SEED; see conftest.py): the vote to end stays quiet until it
matters, a tie shows as a tie, someone joining mid-round is told the truth and sees a
useful table, the players see who watches, and double-clicking beside a card selects
no text. (The "Demon!" win and the tags of a stuck seat need a test layout:
test_round_end_layout.py. A lost race announced once: test_demon_table.py. Rematch
without a second Start: test_demon_table.py.)
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.helpers import create_room, join_by_link, wait_for_table


def selected_text(page) -> str:
    return page.evaluate("getSelection().toString()")


def test_the_vote_stays_quiet_until_it_matters_and_a_tie_is_a_tie(open_page):
    ann = open_page("ann")
    code = create_room(ann, "Ann", rounds=1)
    bob = open_page("bob", path=None)
    join_by_link(bob, f"/r/{code}", "Bob")
    ann.click("#start-game")
    wait_for_table(ann)
    wait_for_table(bob)

    # The first second of a race: nobody is stuck, nobody voted. The button is there
    # (and V works) but small, without "Stuck" and without a count; and it says it is a
    # vote ("End round" once read as if it ended the round at once).
    for page in (ann, bob):
        vote = page.locator("#vote-end")
        expect(vote).to_have_class("vote quiet")
        expect(vote).to_have_text("Vote to end the round", use_inner_text=True)
        expect(page.locator("#bots-finish")).to_have_count(0)  # another person plays
    quiet = ann.locator("#vote-end").evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
    body = ann.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert quiet < body, (quiet, body)

    # Once someone votes, it matters to everyone: the count, but no "Stuck" for Ann, who
    # is not (it once read "Stuck — end round 1/2" to a player with plays left).
    bob.keyboard.press("v")
    expect(ann.locator("#vote-end")).to_have_text("Vote to end the round 1/2", use_inner_text=True)
    expect(ann.locator("#vote-end")).not_to_have_class("vote quiet")
    expect(bob.locator("#vote-end")).to_have_text("Take back my vote 1/2", use_inner_text=True)

    # Both vote with nothing played: 0 each, the only round, so the match is a tie.
    ann.click("#vote-end")
    for page in (ann, bob):
        results = page.locator("#results")
        expect(results).to_contain_text("The match is over")
        expect(page.locator(".match-winner")).to_have_text("A tie: Ann, Bob share first place")
        expect(results.locator(".tag.win")).to_have_text(["shared first", "shared first"])
        expect(results).not_to_contain_text("winner")
        # the round's own tags went with the round
        expect(page.locator(".table .tag.voted")).to_have_count(0)

    # The results' words can be selected (and copied); the table's cannot.
    ann.locator("#results .reason").click(click_count=3)
    assert "voted to end" in selected_text(ann)


def test_joining_mid_round_is_told_the_truth_and_watches_a_useful_table(open_page):
    ann = open_page("ann")
    code = create_room(ann, "Ann", max_players=3)
    link = f"/r/{code}"
    bob = open_page("bob", path=None)
    join_by_link(bob, link, "Bob")
    ann.click("#start-game")
    wait_for_table(ann)
    wait_for_table(bob)

    # Cleo opens the link mid-round: a seat is free, so she is told she plays next round.
    cleo = open_page("cleo", path=link)
    expect(cleo.locator(".join-prospect")).to_have_text(
        "A round is being played: you watch it, and you are dealt in at the next round."
    )
    cleo.fill("#link-name", "Cleo")
    cleo.click("#join-by-link")
    expect(cleo.locator(".table-status .tag.spectator")).to_have_text("watching — you are dealt in next round")
    # Dee comes too: the third seat is Cleo's, so Dee is told she only watches.
    dee = open_page("dee", path=link)
    expect(dee.locator(".join-prospect")).to_have_text("Every seat is taken: you can join to watch.")
    dee.fill("#link-name", "Dee")
    dee.click("#join-by-link")
    expect(dee.locator(".table-status .tag.spectator")).to_have_text("watching — every seat is taken")

    # The players see who is watching.
    for page in (ann, bob):
        watching = page.locator(".table-status .watching")
        expect(watching).to_have_text("2 watching")
        expect(watching).to_have_attribute("title", "Cleo, Dee")

    # A spectator's table: every seat's layout, the foundations, and the plays in words.
    expect(dee.locator(".opp")).to_have_count(2)
    expect(dee.locator(".play-log")).to_be_visible()
    expect(dee.locator(".play-log-list")).to_have_attribute("data-empty", "Each play shows here as it happens.")
    ann.dblclick('.mine [data-card="AC"]')
    expect(dee.locator('.foundations [data-card="AC"]')).to_have_count(1)
    expect(dee.locator(".play-log-list li").first).to_have_text("Ann: ace of clubs to foundation 1")
    bob.keyboard.press("d")  # a draw plays no card: not in the log
    expect(dee.locator('.opp[data-seat="1"] .opp-waste [data-card]')).to_have_count(1)
    expect(dee.locator(".play-log-list li")).to_have_count(1)
    expect(ann.locator(".play-log")).to_be_hidden()  # the players have their cards to watch

    # Double-clicking beside the cards (on a name, on the status bar, between piles)
    # never selects the page's text.
    for page, target in ((ann, ".opp .opp-name"), (ann, ".table-status .round-no"), (dee, ".opp .home-count")):
        page.locator(target).first.dblclick()
        assert selected_text(page) == "", (target, selected_text(page))
    box = ann.locator(".mine .tableau").bounding_box()
    ann.mouse.dblclick(box["x"] + box["width"] - 3, box["y"] + box["height"] - 3)
    assert selected_text(ann) == ""

    # Next round: Cleo is dealt in as promised, Dee still watches.
    ann.keyboard.press("v")
    bob.keyboard.press("v")
    expect(ann.locator("#next-round")).to_be_visible()
    ann.click("#next-round")
    wait_for_table(cleo)
    expect(ann.locator(".opp")).to_have_count(2)
    expect(ann.locator(".table-status .watching")).to_have_text("1 watching")
    expect(dee.locator(".opp")).to_have_count(3)
    expect(dee.locator(".play-log-list li")).to_have_count(0)  # a new round, a new log
