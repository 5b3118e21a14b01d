"""A custom format with changed hand points is scored by them end to end, and the API serves
the points table the PWA adds up for a provisional score."""

from __future__ import annotations


def test_a_custom_format_scores_a_loner_march_five_and_serves_its_points_table(api):
    event = api.create_event("progressive", points_loner_march=5, points_loner_euchred=3)
    key = event["organizer_key"]
    summary = api.get(f"/api/events/{event['id']}", expect=200).get_json()
    assert summary["format"]["points"] == {
        "made": 1, "march": 2, "loner-made": 1, "loner-march": 5, "euchred": 2,
        "loner-euchred": 3, "renege": 2, "renege-loner": 2, "false-claim": 2}
    api.add_players(event, ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal"])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    state = api.hand(key, game, "A", 5, alone=True, loner_seat=1)
    assert state["points"] == {"A": 5, "B": 0}
    state = api.hand(key, game, "A", 0, alone=True, loner_seat=3)
    assert state["points"] == {"A": 5, "B": 3}


def test_a_points_table_that_makes_no_sense_is_refused_with_a_message(api):
    refused = api.post("/api/events", json={"name": "x", "preset": "progressive",
                                            "overrides": {"points_march": 1, "points_made": 3}})
    assert refused.status_code == 422
    assert "march" in refused.get_json()["detail"]


def test_the_presets_list_carries_each_formats_points(api):
    presets = api.get("/api/presets", expect=200).get_json()
    assert {p["key"]: p["points"]["loner-march"] for p in presets} == {
        "league": 4, "progressive": 4, "teams": 4, "wec-singles": 4, "wec-doubles": 4}


def test_the_format_says_which_entry_of_its_table_each_hand_and_renege_takes(api):
    event = api.create_event("wec-singles", points_loner_euchred=3)
    fmt = api.get(f"/api/events/{event['id']}", expect=200).get_json()["format"]
    rows = {(r["alone"], r["tricks"]): r for r in fmt["hand_values"]}
    assert (rows[(True, 1)]["points_key"], rows[(True, 1)]["scorer"]) == ("loner-euchred",
                                                                           "defenders")
    assert fmt["points"][rows[(True, 1)]["points_key"]] == 3
    assert (rows[(False, 5)]["points_key"], rows[(False, 5)]["scorer"]) == ("march", "makers")
    claims = {(r["accused"], r["alone"], r["upheld"]): r for r in fmt["renege_values"]}
    assert len(claims) == 8
    against_loner = claims[("defenders", True, True)]
    assert (against_loner["points_key"], against_loner["scorer"],
            against_loner["tricks_count"]) == ("renege-loner", "makers", False)
    wrong = claims[("makers", False, False)]
    assert (wrong["points_key"], wrong["scorer"], wrong["tricks_count"]) == (
        "false-claim", "makers", True)
    assert all(r["points_key"] in fmt["points"] for r in [*rows.values(), *claims.values()])
