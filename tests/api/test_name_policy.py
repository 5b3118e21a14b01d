"""One policy for every name field: any name a person really has, in any script, is accepted;
a name that shows nothing is refused (api/text.py)."""

from __future__ import annotations

import pytest

from api.core.text import clean_name
from api.people.name_match import name_key

REAL = [
    "Ann Baker",
    "\u0645\u06cc\u200c\u0631\u0648\u062f",  # Persian: needs its zero-width non-joiner
    "\u0632\u0647\u0631\u0627 \u0645\u062d\u0645\u062f\u06cc\u200c\u0646\u0698\u0627\u062f",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467 Family",  # an emoji joined with ZWJ
    "Sam \U0001f3f3\ufe0f\u200d\U0001f308",  # rainbow flag: ZWJ and a variation selector
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Jock",  # Scotland
    "Zo\u00eb",
    "Zoe\u0308",  # e + combining diaeresis
    "\u0928\u093f\u0916\u093f\u0932",  # Devanagari with vowel signs
    "\u5f20\u4f1f", "\ud55c\uc9c0\ubbfc", "O'Brien-Smith", "J.R.", "Keycap 1\ufe0f\u20e3",
]
BLANK = [
    "\u3164",  # Hangul filler
    "\u2800",  # the blank Braille cell
    "\u115f\u1160",  # Hangul choseong and jungseong fillers
    "\u0301",  # a lone combining accent
    "\u0301Ann",  # an accent on nothing
    "\u200d",  # a joiner alone
    "Ann \u200dBaker",  # a joiner joining a space
    "Ann\u200b",  # a zero-width space
    "\u202eAnn",  # a right-to-left override
    "\U000e0067\U000e0062",  # tags outside a flag
    "\uffa0\u3164",
]


@pytest.mark.parametrize("name", REAL)
def test_a_real_name_in_any_script_is_accepted(name):
    assert clean_name(name) == name


@pytest.mark.parametrize("name", BLANK)
def test_a_name_that_shows_nothing_is_refused_with_a_reason(name):
    with pytest.raises(ValueError) as refused:
        clean_name(name)
    assert "name" in str(refused.value).lower()


def test_a_joiner_does_not_make_another_person():
    assert name_key("Ann\u200cBaker") == name_key("AnnBaker")


def test_every_name_field_of_the_api_takes_the_same_policy(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    for name in REAL[:6]:
        api.post(f"/api/events/{event['id']}/players", key=key, json={"name": name},
                 expect=201)
    for name in BLANK[:5]:
        refused = api.post(f"/api/events/{event['id']}/players", key=key, json={"name": name})
        assert refused.status_code == 422, name
        assert refused.headers["Content-Type"].startswith("application/problem+json")
    made = api.post("/api/events", json={"name": "\u3164", "preset": "progressive"})
    assert made.status_code == 422
