"""Who confirms a score is one of three alternatives (RULES.md §7). Under sign-off the
opponents sign the finished game, and a format that asks for it (`sign_off_required`) keeps
the round open until they have. Under confirm each hand and double entry both pairs agreed
every hand that counts: the game offers no sign-off, nothing on the progress board waits for
one, the round closes, and a sign-off sent anyway is refused in words."""

from __future__ import annotations

import pytest

from .client import signer
from .scripts import fixed_hands_game
from .verification_helpers import night, play_as, read

AGREEING = ("confirm_each_hand", "double_entry")


def _finished_round(api, mode: str, **overrides) -> tuple[dict, str, dict, list[int]]:
    """A progressive night checking scores by `mode`, both games of round 1 played to the end
    (side A wins 6-2): the event, the organizer key, the round and its games."""
    event, key, round_ = night(api, mode, **overrides)
    games = [t["games"][0]["id"] for t in round_["tables"]]
    for game in games:
        play_as(api, key, mode, game, fixed_hands_game(6, 2, 8))
    return event, key, round_, games


def _waits(api, round_) -> list[list[str]]:
    view = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()
    return [[w["kind"] for w in t["waits"]] for t in view["tables"]]


def _close(api, key: str, round_, expect: int) -> dict:
    return api.post(f"/api/rounds/{round_['id']}/close", key=key, expect=expect).get_json()


def test_under_sign_off_a_format_that_asks_for_it_waits_for_the_losers_signature(api):
    event, key, round_, games = _finished_round(api, "sign_off", sign_off_required=True)
    for game in games:
        view = read(api, game)
        assert view["over"] and view["winner"] == "A" and not view["signed_off"]
        assert [p["side"] for p in view["signers"]] == ["B", "B"], "the side that lost signs"
    assert _waits(api, round_) == [["sign_off"], ["sign_off"]]
    refused = _close(api, key, round_, 409)
    assert refused["code"] == "round-unfinished"
    assert all("not signed off by the opponents" in why for why in refused["errors"]["tables"])
    assert len(refused["errors"]["tables"]) == 2

    for game in games:
        signed = api.post(f"/api/games/{game}/sign-off", key=key,
                          json={"by": signer(read(api, game))}, expect=200).get_json()
        assert signed["signed_off"] and signed["signers"], "still named: who may sign"
    assert _waits(api, round_) == [[], []]
    assert _close(api, key, round_, 200)["status"] == "closed"


def test_under_sign_off_a_format_that_does_not_ask_offers_it_and_closes_without(api):
    event, key, round_, games = _finished_round(api, "sign_off")
    assert all(read(api, game)["signers"] for game in games), "offered to the table"
    assert _waits(api, round_) == [[], []]
    assert _close(api, key, round_, 200)["status"] == "closed"


@pytest.mark.parametrize("mode", AGREEING)
def test_where_both_pairs_agreed_each_hand_nobody_signs_and_the_round_closes(api, mode):
    """Even where the format asks for a sign-off: the pairs' agreement on each hand is it."""
    event, key, round_, games = _finished_round(api, mode, sign_off_required=True)
    for game in games:
        view = read(api, game)
        assert view["over"] and view["winner"] == "A" and view["waiting"] == 0
        assert view["signers"] == [], "no sign-off to offer"
        assert not view["signed_off"]
    assert _waits(api, round_) == [[], []], "nothing waits for a signature"

    loser = next(p["name"] for p in read(api, games[0])["sides"]["B"]["players"])
    refused = api.post(f"/api/games/{games[0]}/sign-off", key=key, json={"by": loser},
                       expect=409).get_json()
    assert refused["code"] == "no-sign-off"
    words = {"confirm_each_hand": "confirm each hand", "double_entry": "double entry"}[mode]
    assert f"checks scores by {words}" in refused["detail"]
    assert "needs no sign-off" in refused["detail"]
    assert not read(api, games[0])["signed_off"], "nothing was stored"

    closed = _close(api, key, round_, 200)
    assert closed["status"] == "closed"
    after = read(api, games[0])
    assert after["signers"] == [] and after["points"] == {"A": 6, "B": 2}
