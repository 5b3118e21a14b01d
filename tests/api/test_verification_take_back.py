"""A side takes back its own waiting proposal after the correction window (RULES.md §7): a
change of an agreed hand proposed in the window and not yet agreed when the window closed. Taking
it back changes nothing agreed, so the side that proposed it may still do it; the other side, a
stranger's key and everything else a table does after the window stay refused. Sent again (the
phone's outbox), it is answered the same way and logged once."""

from __future__ import annotations

import pytest

from .scripts import fixed_hands_game
from .test_corrections_window import _closed_minutes_ago
from .verification_helpers import confirm, enter, new_id, night, other, read

MODES = ("confirm_each_hand", "double_entry")


def _played(api, mode: str):
    """Round 1 of an 8-player night under `mode` played out (6-2 at both tables) and closed;
    runner keys for tables 1 and 2. Returns the event, organizer key, table 1's key, table 2's
    key, the round and table 1's game."""
    event, key, round_ = night(api, mode)
    games = [t["games"][0]["id"] for t in round_["tables"]]
    for game in games:
        for number, hand in enumerate(fixed_hands_game(6, 2, 8), start=1):
            first = "A" if number % 2 else "B"
            if mode == "confirm_each_hand":
                entry = new_id()
                enter(api, key, game, first, hand, entry_id=entry)
                confirm(api, key, game, entry, other(first))
            else:
                enter(api, key, game, first, hand)
                enter(api, key, game, other(first), hand)
    api.close_round(event, round_["id"])
    runners = [api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": table},
                        expect=201).get_json()["key"] for table in (1, 2)]
    return event, key, runners[0], runners[1], round_, games[0]


def _propose(api, runner: str, game: int, side: str) -> tuple[str, dict]:
    """Side `side` proposes marching a hand of side A's made with 3 or 4 tricks (one point
    more): kept as its proposal (202). Returns the proposal's id and the game before it."""
    view = read(api, game)
    hand = next(h for h in view["hands"] if h["maker"] == "A" and h["tricks"] in (3, 4))
    api.put(f"/api/games/{game}/hands/{hand['id']}", key=runner,
            json={"side": side, "maker": "A", "tricks": 5},
            headers={"If-Match": f'"{view["version"]}"'}, expect=202)
    (proposal,) = read(api, game)["entries"]
    assert proposal["kind"] == "edit" and proposal["side"] == side
    return proposal["id"], view


def _problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == code, body
    return body


def _log(api, event, key) -> list[dict]:
    return api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()


@pytest.mark.parametrize("mode", MODES)
def test_the_proposing_side_takes_its_change_back_after_the_window(api, app, mode):
    event, key, runner, _table2, round_, game = _played(api, mode)
    entry, before = _propose(api, runner, game, "A")
    _closed_minutes_ago(app, round_["id"], 31)
    closed = read(api, game)
    assert not closed["correction_open"] and closed["waiting"] == 1

    url = f"/api/games/{game}/entries/{entry}/withdraw"
    answer = api.post(url, key=runner, json={"side": "A"}, expect=200).get_json()
    assert answer["waiting"] == 0 and answer["entries"] == []
    assert answer["points"] == before["points"] == {"A": 6, "B": 2}, "nothing agreed changed"
    after = read(api, game)
    assert after["hands"] == before["hands"] and after["corrections"] == [], \
        "no late-correction note on the game or its scoresheet: nothing was corrected"
    log = _log(api, event, key)
    assert log[0]["action"] == "withdraw-hand-entry" and log[0]["entity_id"] == entry
    assert log[0]["before"]["side"] == "A" and log[0]["after"]["window_closed_at"]
    assert (log[0]["round_number"], log[0]["table"]) == (1, 1)

    # Sent again by the phone's outbox: the same answer, nothing logged twice.
    again = api.post(url, key=runner, json={"side": "A"}, expect=200).get_json()
    assert again == answer
    assert _log(api, event, key) == log
    board = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()
    assert board["tables"][0]["waits"] == [], "nothing waits at table 1 any more"


@pytest.mark.parametrize("mode", MODES)
def test_after_the_window_nobody_else_takes_it_back_and_nothing_else_is_allowed(api, app,
                                                                                mode):
    event, key, runner, table2, round_, game = _played(api, mode)
    entry, before = _propose(api, runner, game, "B")
    _closed_minutes_ago(app, round_["id"], 31)
    still = read(api, game)
    log = _log(api, event, key)
    url = f"/api/games/{game}/entries/{entry}"

    # The other side may neither take it back nor agree to it, nor turn it down.
    _problem(api.post(f"{url}/withdraw", key=runner, json={"side": "A"}), 409,
             "not-own-entry")
    _problem(api.post(f"{url}/confirm", key=runner, json={"side": "A"}), 403,
             "correction-window-closed")
    _problem(api.post(f"{url}/reject", key=runner, json={"side": "A", "reason": "no"}),
             403, "correction-window-closed")
    # Strangers: another table's key, another event's key, no key at all.
    _problem(api.post(f"{url}/withdraw", key=table2, json={"side": "B"}), 403, "wrong-table")
    elsewhere = api.create_event("progressive")["organizer_key"]
    _problem(api.post(f"{url}/withdraw", key=elsewhere, json={"side": "B"}), 403,
             "wrong-event")
    assert api.post(f"{url}/withdraw", json={"side": "B"}).status_code == 401
    # A bad body is refused before anything else.
    assert api.post(f"{url}/withdraw", key=runner, json={"side": "C"}).status_code == 422
    # The proposing side may not put a new proposal in its place, nor change the hand.
    hand = next(h for h in still["hands"] if h["maker"] == "A" and h["tricks"] in (3, 4))
    _problem(api.put(f"/api/games/{game}/hands/{hand['id']}", key=runner,
                     json={"side": "B", "maker": "A", "tricks": 4},
                     headers={"If-Match": f'"{still["version"]}"'}),
             403, "correction-window-closed")
    assert read(api, game) == still and _log(api, event, key) == log, "nothing stored"

    # The side that proposed it takes it back.
    api.post(f"{url}/withdraw", key=runner, json={"side": "B"}, expect=200)
    done = read(api, game)
    assert done["waiting"] == 0 and done["points"] == before["points"]
    # Decided now, it is no longer the other side's to act on.
    _problem(api.post(f"{url}/confirm", key=runner, json={"side": "A"}), 409,
             "entry-decided")


def test_the_organizer_takes_a_sides_proposal_back_with_no_reason_needed(api, app):
    """Withdrawing changes no result, so the organizer's key (naming the proposing side) needs
    no X-Reason either, and the game gets no late-correction note."""
    event, key, runner, _table2, round_, game = _played(api, "double_entry")
    entry, before = _propose(api, runner, game, "A")
    _closed_minutes_ago(app, round_["id"], 31)
    answer = api.post(f"/api/games/{game}/entries/{entry}/withdraw", key=key,
                      json={"side": "A"}, expect=200).get_json()
    assert answer["waiting"] == 0 and answer["corrections"] == []
    assert answer["points"] == before["points"]
    log = _log(api, event, key)
    assert log[0]["action"] == "withdraw-hand-entry" and log[0]["role"] == "organizer"
    assert "late-correction" not in [entry["action"] for entry in log]


def test_in_the_window_a_withdrawal_is_logged_as_before(api):
    event, key, runner, _table2, _round, game = _played(api, "confirm_each_hand")
    entry, _before = _propose(api, runner, game, "A")
    api.post(f"/api/games/{game}/entries/{entry}/withdraw", key=runner, json={"side": "A"},
             expect=200)
    log = _log(api, event, key)
    assert log[0]["action"] == "withdraw-hand-entry" and log[0]["after"] is None
