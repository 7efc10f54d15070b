"""Every kind of effect the rules can make is told by the screens, or explicitly not told; and the
screens tell no kind that does not exist."""

from banker.rules.effects import KINDS
from banker.words.narrate import PUBLIC, STORIES


def test_every_effect_kind_has_its_sentence_or_is_explicitly_silent():
    assert sorted(set(KINDS) - set(STORIES)) == []


def test_no_sentence_is_kept_for_a_kind_the_rules_cannot_make():
    assert sorted(set(STORIES) - set(KINDS)) == []
    assert sorted(PUBLIC - set(KINDS)) == []
