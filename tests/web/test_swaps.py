"""What a page showing a part's HTML is sent to show the next (banker/screens/parts.changes): a list
part whose frame stayed the same is sent its new rows and changed rows only, and whatever it is
sent, the page applying it as htmx does shows the new HTML."""

from hypothesis import given, settings
from hypothesis import strategies as st

from banker.screens.parts import Drawn, Picture, changes

from .test_live_work import apply, comparable

KEEP = 5
SPACE = st.sampled_from(["", " ", "\n  ", "  "])


def part(title: str, rows: list[tuple[int, str]], spaces: list[str], nested: str) -> str:
    """A part as the templates draw one: a frame around a list whose rows are marked, with the part
    around the moment's news shown inside it (marked nested), white space here and there."""
    marked = "".join(f'{space}<!--row ol#rows {KEEP}-->{space}<li id="r{n}">{text}</li>{space}<!--/row-->'
                     for (n, text), space in zip(rows, spaces))
    return (f'<div id="p" hx-swap-oob="true"> <h2>{title}</h2> <!--nested--><p id="news">{nested}</p><!--/nested-->'
            f' <ol id="rows" data-keep="{KEEP}">{marked}{spaces[-1]}</ol></div>')


@st.composite
def two_versions(draw) -> tuple[str, str]:
    """A part, and the same part a change later: rows added at the top (the list keeping KEEP),
    some rows' text changed, and at times the title, or rows removed or moved (the whole part sent)."""
    texts = st.text("abc <>&", max_size=6).map(lambda text: text.replace("<", "&lt;").replace(">", "&gt;"))
    count = draw(st.integers(1, KEEP))
    old_rows = [(n, draw(texts)) for n in range(count, 0, -1)]
    added = [(n, draw(texts)) for n in range(count + draw(st.integers(0, 3)), count, -1)]
    kept = [(n, draw(texts) if draw(st.booleans()) else text) for n, text in old_rows]
    new_rows = (added + kept)[:KEEP]
    if draw(st.integers(0, 5)) == 0:
        new_rows = draw(st.permutations(new_rows))[:draw(st.integers(1, len(new_rows)))]
    title = draw(texts)
    new_title = draw(texts) if draw(st.integers(0, 5)) == 0 else title
    nested = draw(texts)
    spaces = draw(st.lists(SPACE, min_size=KEEP + 3, max_size=KEEP + 3))
    new_spaces = spaces if draw(st.booleans()) else draw(st.lists(SPACE, min_size=KEEP + 3, max_size=KEEP + 3))
    return part(title, old_rows, spaces, nested), part(new_title, new_rows, new_spaces, nested)


@settings(max_examples=300, deadline=None)
@given(two_versions())
def test_a_page_shown_what_changes_sends_shows_the_new_part(versions):
    old, new = versions
    page = {"p": old}
    apply(page, changes(old, new))
    assert comparable(page["p"]) == comparable(new)


def test_rows_added_or_changed_are_sent_alone_when_the_frame_stayed():
    old = part("Moves", [(2, "two"), (1, "one")], [" "] * 8, "news")
    new = part("Moves", [(3, "three"), (2, "two!"), (1, "one")], ["\n  "] * 8, "news")
    sent = changes(old, new)
    assert sent == ('<template><ol hx-swap-oob="afterbegin:#rows"><li id="r3">three</li></ol></template>'
                    '<template><li hx-swap-oob="true" id="r2">two!</li></template>')
    assert changes(old, part("Moves!", [(2, "two"), (1, "one")], [" "] * 8, "news")).startswith('<div id="p"')
    assert changes(old, old) == ""


def test_a_picture_hands_a_page_shown_the_picture_before_the_swaps_made_with_it():
    """Drawn in a process of its own (banker/live/drawer.py), a screen's picture comes with the swaps
    from the picture before, made there: a page that shows that picture is handed them as they came,
    any other page the swaps made here."""
    old = part("Moves", [(1, "one")], [" "] * 8, "news")
    new = part("Moves", [(2, "two"), (1, "one")], [" "] * 8, "news")
    before = Picture({"history": Drawn((), old, ())}, frozenset({"history"}), {})
    made_there = changes(old, new)
    picture = Picture({"history": Drawn((), new, ())}, frozenset({"history"}), {}, made_there).filled(before)
    assert picture.swaps(before.parts) is made_there
    assert picture.swaps({}) == new
    assert picture.swaps({"history": Drawn((), new, ())}) == ""
    kept = Picture({"history": None}, frozenset(), {}, "").filled(before)  # the part kept: taken from before
    assert kept.parts == before.parts and kept.swaps(before.parts) == ""
