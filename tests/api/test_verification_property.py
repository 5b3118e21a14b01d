"""For any hands, two equal entries (double entry) or an entry and its confirmation store
exactly what one runner's entry stores under sign-off: the same hands, the same game, and a
hand refused by the one is refused by the other, at its first entry."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .client import ApiClient
from .test_hand_paths_agree import hands
from .verification_helpers import new_id, stored_hands

PROPERTY = settings(max_examples=10, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def _game(api: ApiClient, mode: str) -> tuple[str, int]:
    """A progressive night of eight, round 1 seated: its organizer key and first game. The
    players come in as one CSV import: the setup is much of an example's time."""
    event = api.create_event("progressive", verification=mode)
    api.import_field(event, [f"P{n}" for n in range(8)])
    round_ = api.seat_round(event, 1)
    return event["organizer_key"], round_["tables"][0]["games"][0]["id"]


def _game_part(view: dict) -> dict:
    return {"points": view["points"], "hands_played": view["hands_played"],
            "over": view["over"], "winner": view["winner"], "bumps": view["bumps"],
            "hands": stored_hands(view)}


@PROPERTY
@given(mode=st.sampled_from(["double_entry", "confirm_each_hand"]),
       plays=st.lists(hands(), min_size=1, max_size=10))
def test_agreed_entries_store_exactly_what_one_entry_stores(app, mode, plays):
    api = ApiClient(app.test_client())
    plain_key, plain = _game(api, "sign_off")
    key, game = _game(api, mode)
    for hand in plays:
        alone = api.post(f"/api/games/{plain}/hands", key=plain_key,
                         json={"id": new_id(), **hand})
        entry_id = new_id()
        first = api.post(f"/api/games/{game}/hands", key=key,
                         json={"id": entry_id, "side": "A", **hand})
        if alone.status_code >= 400:
            assert first.status_code == alone.status_code, (hand, first.get_json())
            assert first.get_json()["code"] == alone.get_json()["code"]
            continue
        assert first.status_code == 201, (hand, first.get_json())
        if mode == "double_entry":
            agreed = api.post(f"/api/games/{game}/hands", key=key,
                              json={"id": new_id(), "side": "B", **hand}, expect=201)
        else:
            agreed = api.post(f"/api/games/{game}/entries/{entry_id}/confirm", key=key,
                              json={"side": "B"}, expect=200)
        assert agreed.get_json()["waiting"] == 0
        assert _game_part(agreed.get_json()) == _game_part(alone.get_json())
    assert _game_part(api.game(game)) == _game_part(api.game(plain))
