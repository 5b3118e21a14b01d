"""Printing the table cards again does not pile up live runner keys: the cards printed before
are revoked (the page says how many), and only the new cards' keys work."""

from __future__ import annotations


def _live_card_keys(api, event) -> list[dict]:
    keys = api.get(f"/api/events/{event['id']}/keys", key=event["organizer_key"],
                   expect=200).get_json()
    return [k for k in keys if k["label"].startswith("table card") and not k["revoked"]]


def test_reprinting_the_cards_replaces_their_keys_instead_of_adding_more(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    first = api.post(f"/api/events/{event['id']}/table-cards", key=key, json={"tables": 4},
                     expect=201).get_json()
    assert [c["table"] for c in first["cards"]] == [1, 2, 3, 4] and first["replaced"] == 0
    assert len(_live_card_keys(api, event)) == 4
    again = api.post(f"/api/events/{event['id']}/table-cards", key=key, json={"tables": 4},
                     expect=201).get_json()
    assert again["replaced"] == 4
    assert len(_live_card_keys(api, event)) == 4, "an open and a reload: still 4 live keys"
    old_key = first["cards"][0]["link"].split("#key=")[1]
    new_key = again["cards"][0]["link"].split("#key=")[1]
    assert api.get("/api/me", key=old_key).status_code == 401, "the old card no longer works"
    me = api.get("/api/me", key=new_key, expect=200).get_json()
    assert me["role"] == "runner" and me["table"] == 1
    other = api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": 2},
                     expect=201).get_json()
    api.post(f"/api/events/{event['id']}/table-cards", key=key, json={"tables": 2},
             expect=201)
    assert api.get("/api/me", key=other["key"]).status_code == 200, "other runner links stay"


def test_table_cards_need_a_sensible_number_of_tables(api):
    event = api.create_event("progressive")
    for tables in (0, 1001, "four"):
        refused = api.post(f"/api/events/{event['id']}/table-cards",
                           key=event["organizer_key"], json={"tables": tables})
        assert refused.status_code == 422
