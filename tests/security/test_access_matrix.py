"""The access matrix, generated from the app's route map so a new route cannot escape it.

Every write route (POST/PUT/PATCH/DELETE under /api) must be classified below as organizer-only,
runner-allowed (a game's hands and sheet: any runner key of the event, a table-limited one only
at its table) or public. Each non-public route is then called with every bad credential:

  no key, malformed keys, a revoked organizer key, a revoked runner key, another event's keys,
  a runner key on an organizer route, a table-1 runner key on a table-2 game

and must answer 401 (who are you?) or 403 (not you), as problem+json, with nothing changed:
not the events' revisions, not what the public and the organizer can read, not one row of the
database. A control call with a key that is allowed proves each URL is real (not a 404 that
happens to look refused). Organizer-only reads (the join PIN, keys, audit, exports) get the
same treatment, and every GET route must be classified too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from api import create_app

from .conftest import Snapshot, assert_changed, put_world_back, snapshot
from .world import Seeded

ORGANIZER = "organizer"
RUNNER = "runner"  # runner-allowed: hands and games; a table-limited key only at its table
PUBLIC = "public"
# A club key's: tested apart, with clubs of their own (tests/security/test_club_access.py).
CLUB = "club"
# A league team's: its captain's team key (that team only) or the organizer's.
TEAM = "team"
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


@dataclass(frozen=True)
class Route:
    access: str
    event: str = "progressive"  # which seeded event the URL points into
    body: Callable[[Seeded], dict] | None = None  # a body that WOULD change something
    if_match: bool = False  # send the game's current version (edits and deletes of hands)
    # URL parameter -> the seeded id to use instead of the usual one (e.g. a game not started)
    ids: dict = field(default_factory=dict)
    # Run with the organizer key before anything is called, to make the write possible.
    prepare: Callable[[object, Seeded], None] | None = None

    @property
    def at_table1(self) -> bool:
        """Whether the game or match the URL names is at table 1 (the limited key's table)."""
        return not ({"game_id", "match_id"} & self.ids.keys())


def _body(value):
    return lambda s: value


def _close_round(api, s: Seeded) -> None:
    api.post(f"/api/rounds/{s.ids['round_id']}/close", key=s.organizer, expect=200)


def _enter_sheet(api, s: Seeded) -> None:
    api.put(f"/api/games/{s.ids['quiet_game_id']}/sheet", key=s.organizer,
            json={"points": {"A": 9, "B": 7}}, expect=200)


def _verifying(api, s: Seeded, mode: str) -> None:
    api.patch(f"/api/events/{s.id}", key=s.organizer, json={"verification": mode}, expect=200)


def _waiting_entry(api, s: Seeded) -> None:
    """Table 1's game checked by confirming each hand, with side A's entry waiting."""
    _verifying(api, s, "confirm_each_hand")
    s.ids["entry_id"] = "waiting-entry"
    api.post(f"/api/games/{s.ids['game_id']}/hands", key=s.organizer, expect=201,
             json={"id": "waiting-entry", "side": "A", "maker": "A", "tricks": 3})


def _mismatch(api, s: Seeded) -> None:
    """Table 1's game under double entry, its third hand entered differently by each side."""
    _verifying(api, s, "double_entry")
    game = s.ids["game_id"]
    for side, tricks in (("A", 3), ("B", 4)):
        api.post(f"/api/games/{game}/hands", key=s.organizer, expect=201,
                 json={"id": f"mismatch-{side}", "side": side, "maker": "A", "tricks": tricks})
    s.ids["mismatch_number"] = api.get(f"/api/games/{game}", expect=200).get_json()[
        "mismatches"][0]["number"]


def _open_door(api, s: Seeded) -> None:
    """A check-in window open now, a door code, and a registered player not here yet."""
    key = s.organizer
    api.put(f"/api/events/{s.id}/check-in-window", key=key, expect=200,
            json={"opens": "2000-01-01T00:00", "closes": "2100-01-01T00:00"})
    s.keys["door_token"] = api.post(f"/api/events/{s.id}/door-token", key=key,
                                    expect=200).get_json()["token"]
    s.ids["door_player_id"] = api.post(f"/api/events/{s.id}/players", key=key, expect=201,
                                       json={"name": "Walk-in", "checked_in": False}
                                       ).get_json()["id"]


def _open_registration(api, s: Seeded) -> None:
    """Captains' registration open in the league that has no season yet."""
    s.keys["registration"] = api.put(f"/api/events/{s.id}/registration", key=s.organizer,
                                     json={}, expect=200).get_json()["token"]


def _link_team(api, s: Seeded) -> None:
    """A team registered through the open registration link."""
    _open_registration(api, s)
    api.post(f"/api/register/{s.ids['code']}", expect=201, json={
        "token": s.keys["registration"], "name": "Squatters", "players": ["Sq 1", "Sq 2"]})


def _announce_ahead(api, s: Seeded) -> None:
    """The first team (the team key's) has said it cannot come in week 2, still to come."""
    api.post(f"/api/events/{s.id}/teams/{s.ids['team_id']}/advance-forfeits", key=s.organizer,
             json={"week": 2}, expect=201)
    s.ids["week"] = 2


def _door_request(api, s: Seeded) -> None:
    """An open door and a request to be added made there."""
    _open_door(api, s)
    s.ids["request_id"] = api.post(f"/api/door/{s.ids['code']}/requests", expect=201, json={
        "token": s.keys["door_token"], "name": "At the door"}).get_json()["id"]


def _make_ruling(api, s: Seeded) -> None:
    s.ids["ruling_id"] = api.post(f"/api/games/{s.ids['game_id']}/rulings", key=s.organizer,
                                  json={"kind": "adjust", "side": "A", "points": 1,
                                        "reason": "desk"}, expect=201).get_json()["id"]


def _make_call(api, s: Seeded) -> None:
    s.ids["call_id"] = api.post(f"/api/games/{s.ids['game_id']}/call", key=s.organizer,
                                expect=201).get_json()["id"]


HOOK = {"url": "https://hooks.example.org/euchre", "kinds": ["call"]}


def _make_webhook(api, s: Seeded) -> None:
    s.ids["webhook_id"] = api.post(f"/api/events/{s.id}/webhooks", key=s.organizer, json=HOOK,
                                   expect=201).get_json()["id"]


def _make_delivery(api, s: Seeded) -> None:
    """A webhook asking for calls, and a call: one delivery waiting in the outbox."""
    _make_webhook(api, s)
    _make_call(api, s)
    s.ids["delivery_id"] = api.get(f"/api/events/{s.id}/webhook-deliveries", key=s.organizer,
                                   expect=200).get_json()[0]["id"]


def _protest_ready(api, s: Seeded) -> None:
    """The first team's (the team key's) game of week 1 made a playoff game with no entries
    (a protest is lodged before a playoff game); its opponent's first player to protest."""
    from sqlalchemy import update

    from api.core.db import db
    from api.core.models import Game

    team = s.ids["team_id"]
    week = api.get(f"/api/rounds/{s.ids['round_id']}", expect=200).get_json()
    table = next(t for t in week["tables"]
                 if team in (t["team_a"]["id"], t["team_b"]["id"]))
    game = api.get(f"/api/games/{table['games'][0]['id']}", expect=200).get_json()
    for hand in game["hands"]:
        version = api.get(f"/api/games/{game['id']}", expect=200).get_json()["version"]
        api.delete(f"/api/games/{game['id']}/hands/{hand['id']}", key=s.organizer,
                   headers={"If-Match": f'"{version}"'}, expect=200)
    with api.client.application.app_context():
        db.session.execute(update(Game).where(Game.id == game["id"]).values(stage="playoff"))
        db.session.commit()
    other = "B" if table["team_a"]["id"] == team else "A"
    s.ids["protest_game_id"] = game["id"]
    s.ids["protest_player_id"] = game["sides"][other]["players"][0]["player_id"]


def _make_protest(api, s: Seeded) -> None:
    _protest_ready(api, s)
    s.ids["protest_id"] = api.post(
        f"/api/games/{s.ids['protest_game_id']}/protests", key=s.organizer, expect=201,
        json={"player_id": s.ids["protest_player_id"], "grounds": "ringer"}).get_json()["id"]


# Every write route of the app. A route missing here fails test_every_route_is_classified:
# decide who may call it, and add it with a body that would change something.
WRITE_ROUTES: dict[tuple[str, str], Route] = {
    # Public on purpose: creating an event, exchanging the PIN for a key, drawing a QR code.
    ("POST", "/api/events"): Route(PUBLIC),
    ("POST", "/api/join"): Route(PUBLIC),
    ("POST", "/api/qr"): Route(PUBLIC),
    ("POST", "/api/clubs"): Route(PUBLIC),
    ("POST", "/api/import"): Route(PUBLIC),  # a portable file made a new event or club
    # Organizer-only.
    ("PATCH", "/api/events/<int:event_id>"): Route(
        ORGANIZER, body=_body({"name": "Hijacked", "status": "finished"})),
    ("POST", "/api/events/<int:event_id>/pin"): Route(ORGANIZER),
    ("POST", "/api/events/<int:event_id>/keys"): Route(ORGANIZER, body=_body({"table": None})),
    ("DELETE", "/api/events/<int:event_id>/keys/<int:key_id>"): Route(ORGANIZER),
    ("POST", "/api/events/<int:event_id>/organizer-key"): Route(ORGANIZER),
    ("POST", "/api/events/<int:event_id>/table-cards"): Route(ORGANIZER,
                                                              body=_body({"tables": 2})),
    ("POST", "/api/events/<int:event_id>/players"): Route(
        ORGANIZER, body=_body({"name": "Intruder", "checked_in": True})),
    ("PATCH", "/api/events/<int:event_id>/players/<int:player_id>"): Route(
        ORGANIZER, body=_body({"withdrawn": True, "name": "Renamed"})),
    ("POST", "/api/events/<int:event_id>/import"): Route(
        ORGANIZER, body=_body({"csv": "name,checked_in\nIntruder,yes\n"})),
    ("POST", "/api/events/<int:event_id>/teams"): Route(
        ORGANIZER, event="league",
        body=_body({"name": "Intruders", "players": ["Int 1", "Int 2"], "checked_in": True})),
    ("PATCH", "/api/events/<int:event_id>/teams/<int:team_id>"): Route(
        ORGANIZER, event="league", body=_body({"withdrawn": True})),
    ("POST", "/api/events/<int:event_id>/teams/<int:team_id>/substitutes"): Route(
        ORGANIZER, event="league", body=_body({"name": "Ringer"})),
    ("POST", "/api/events/<int:event_id>/rounds"): Route(
        ORGANIZER, event="ended", body=_body({"number": 2}), prepare=_close_round),
    ("POST", "/api/rounds/<int:round_id>/time"): Route(ORGANIZER),
    ("POST", "/api/rounds/<int:round_id>/clock"): Route(ORGANIZER, body=_body({"minutes": 5})),
    ("POST", "/api/rounds/<int:round_id>/close"): Route(ORGANIZER, event="ended"),
    ("POST", "/api/rounds/<int:round_id>/reopen"): Route(
        ORGANIZER, event="ended", prepare=_close_round),
    # Seat changes: a swap before the first hand (table 3 of the WEC event has none), and a
    # wrong-seat correction of a game with hands.
    ("POST", "/api/rounds/<int:round_id>/swap"): Route(
        ORGANIZER, event="wec",
        body=lambda s: {"a": s.ids["quiet_players"][0], "b": s.ids["quiet_players"][1]}),
    ("POST", "/api/games/<int:game_id>/seats/swap"): Route(
        ORGANIZER, body=_body({"seats": [1, 2]}), if_match=True),
    ("POST", "/api/games/<int:game_id>/reopen"): Route(ORGANIZER),
    ("POST", "/api/events/<int:event_id>/season/postpone"): Route(
        ORGANIZER, event="league", body=_body({"week": 3, "reason": "snow"})),
    ("POST", "/api/events/<int:event_id>/season"): Route(
        ORGANIZER, event="preseason", body=_body({"weeks": 2})),
    ("POST", "/api/matches/<int:match_id>/forfeits"): Route(
        ORGANIZER, event="league", ids={"match_id": "quiet_match_id"},
        body=lambda s: {"team_id": s.ids["quiet_team_id"], "reason": "no-show"}),
    ("PUT", "/api/matches/<int:match_id>/seats"): Route(
        ORGANIZER, event="league",
        body=lambda s: {"seat": 1, "player_id": s.ids["substitute_id"]}),
    # League operations: a make-up week, a match on another night, captains' registration,
    # a captain's team key; and what a team key may do (its own team only).
    ("POST", "/api/events/<int:event_id>/season/make-up"): Route(
        ORGANIZER, event="league", body=_body({"week": 3, "reason": "hall booked"})),
    ("POST", "/api/events/<int:event_id>/season/move-match"): Route(
        ORGANIZER, event="league",
        body=lambda s: {"match_id": s.ids["quiet_match_id"], "date": "2027-01-07"}),
    ("PUT", "/api/events/<int:event_id>/season/playoff-nights"): Route(
        ORGANIZER, event="league", body=_body({"nights": [{"round": 1, "date": "2030-01-01"}]})),
    ("PUT", "/api/events/<int:event_id>/registration"): Route(
        ORGANIZER, event="league", body=_body({"lock_after_week": 3})),
    ("POST", "/api/events/<int:event_id>/teams/<int:team_id>/key"): Route(
        ORGANIZER, event="league"),
    ("PUT", "/api/events/<int:event_id>/teams/<int:team_id>/roster"): Route(
        TEAM, event="league", body=_body({"substitutes": ["North sub", "Fresh sub"]})),
    ("POST", "/api/events/<int:event_id>/teams/<int:team_id>/advance-forfeits"): Route(
        TEAM, event="league", body=_body({"week": 2, "note": "away"})),
    ("DELETE", "/api/events/<int:event_id>/teams/<int:team_id>/advance-forfeits/<int:week>"):
        Route(TEAM, event="league", prepare=_announce_ahead),
    ("POST", "/api/register/<string:code>"): Route(
        PUBLIC, event="preseason", prepare=_open_registration,
        body=lambda s: {"token": s.keys["registration"], "name": "Walk-ons",
                        "players": ["Walk 1", "Walk 2"]}),
    ("PUT", "/api/events/<int:event_id>/tiebreak"): Route(
        ORGANIZER, body=lambda s: {"order": [s.ids["player_id"]]}),
    # The event day: money, named awards, categories, door prizes.
    ("PUT", "/api/events/<int:event_id>/money"): Route(
        ORGANIZER, body=_body({"entry_fee": 10, "maintenance_amount": 5})),
    ("DELETE", "/api/events/<int:event_id>/money"): Route(ORGANIZER),
    ("PUT", "/api/events/<int:event_id>/named-awards"): Route(
        ORGANIZER, body=lambda s: {"awards": [{"name": "Best Dressed",
                                               "winners": [s.ids["player_id"]]}]}),
    ("PUT", "/api/events/<int:event_id>/categories"): Route(
        ORGANIZER, body=_body({"categories": [{"name": "High lady", "prize_places": 1}]})),
    ("POST", "/api/events/<int:event_id>/draws"): Route(
        ORGANIZER, body=_body({"count": 1, "leave_out_prize_winners": False})),
    ("PUT", "/api/events/<int:event_id>/check-in-window"): Route(
        ORGANIZER, body=_body({"opens": "18:30", "closes": "18:50"})),
    ("POST", "/api/events/<int:event_id>/door-token"): Route(ORGANIZER),
    ("POST", "/api/events/<int:event_id>/door-requests/<int:request_id>"): Route(
        ORGANIZER, body=_body({"accept": True}), prepare=_door_request),
    ("POST", "/api/events/<int:event_id>/door-requests/decline"): Route(
        ORGANIZER, body=_body({}), prepare=_door_request),
    ("POST", "/api/events/<int:event_id>/registration/remove-teams"): Route(
        ORGANIZER, event="preseason", body=_body({}), prepare=_link_team),
    # Self check-in at the door: no key, the door code from the door QR instead (tested by
    # test_the_door_writes_need_the_current_door_code below).
    ("POST", "/api/door/<string:code>/check-in"): Route(
        PUBLIC, prepare=_open_door,
        body=lambda s: {"token": s.keys["door_token"], "player_id": s.ids["door_player_id"]}),
    ("POST", "/api/door/<string:code>/requests"): Route(
        PUBLIC, prepare=_open_door,
        body=lambda s: {"token": s.keys["door_token"], "name": "Not on the list"}),
    # Runner-allowed: the table's own game.
    ("POST", "/api/games/<int:game_id>/hands"): Route(
        RUNNER, body=_body({"id": "intruder-hand", "maker": "A", "tricks": 5})),
    ("POST", "/api/games/<int:game_id>/paper-sheet"): Route(
        # The rest of table 1's 8-hand game (2 hands are in): a sheet must end its game.
        RUNNER, body=_body({"id": "intruder-sheet", "hands": [{"maker": "A", "tricks": 5}] * 6})),
    ("PUT", "/api/games/<int:game_id>/hands/<string:hand_id>"): Route(
        RUNNER, body=_body({"maker": "B", "tricks": 5, "alone": True}), if_match=True),
    ("DELETE", "/api/games/<int:game_id>/hands/<string:hand_id>"): Route(RUNNER, if_match=True),
    ("PUT", "/api/games/<int:game_id>/sheet"): Route(
        RUNNER, event="wec", ids={"game_id": "quiet_game_id"},
        body=_body({"points": {"A": 12, "B": 3}, "hands_played": 12})),
    ("DELETE", "/api/games/<int:game_id>/sheet"): Route(
        RUNNER, event="wec", ids={"game_id": "quiet_game_id"}, prepare=_enter_sheet,
        if_match=True),
    # The level game of the ended event is at table 2: re-settling it is a correction.
    ("POST", "/api/games/<int:game_id>/settlement"): Route(
        RUNNER, event="ended", ids={"game_id": "other_game_id"},
        body=_body({"method": "playoff-hand", "winner": "B"}), if_match=True),
    ("POST", "/api/games/<int:game_id>/sign-off"): Route(
        RUNNER, event="ended", body=lambda s: {"by": s.signer}),
    ("PUT", "/api/games/<int:game_id>/dealer"): Route(RUNNER, body=_body({"seat": 2})),
    # Who confirms a score: an entry waiting for the other side, a mismatch to settle.
    ("POST", "/api/games/<int:game_id>/entries/<string:entry_id>/confirm"): Route(
        RUNNER, prepare=_waiting_entry, body=_body({"side": "B"})),
    ("POST", "/api/games/<int:game_id>/entries/<string:entry_id>/reject"): Route(
        RUNNER, prepare=_waiting_entry, body=_body({"side": "B", "reason": "not so"})),
    ("POST", "/api/games/<int:game_id>/entries/<string:entry_id>/withdraw"): Route(
        RUNNER, prepare=_waiting_entry, body=_body({"side": "A"})),
    ("PUT", "/api/games/<int:game_id>/entries/<string:entry_id>"): Route(
        RUNNER, prepare=_waiting_entry, body=_body({"side": "A", "maker": "A", "tricks": 4})),
    ("POST", "/api/games/<int:game_id>/mismatches/<int:number>/settle"): Route(
        RUNNER, prepare=_mismatch, ids={"number": "mismatch_number"},
        body=_body({"take": "A"})),
    # Calling the organizer: the table's runner key (or the organizer); answering: organizer.
    ("POST", "/api/games/<int:game_id>/call"): Route(RUNNER),
    ("POST", "/api/events/<int:event_id>/calls/<int:call_id>/answer"): Route(
        ORGANIZER, prepare=_make_call),
    # Rulings (organizer), league protests (a captain's team key or the organizer) and the
    # organizer's ruling on one.
    ("POST", "/api/games/<int:game_id>/rulings"): Route(
        ORGANIZER, body=_body({"kind": "adjust", "side": "B", "points": 2, "reason": "desk"})),
    ("DELETE", "/api/games/<int:game_id>/rulings/<int:ruling_id>"): Route(
        ORGANIZER, body=_body({"reason": "withdrawn"}), prepare=_make_ruling),
    ("POST", "/api/games/<int:game_id>/protests"): Route(
        TEAM, event="league", ids={"game_id": "protest_game_id"}, prepare=_protest_ready,
        body=lambda s: {"player_id": s.ids["protest_player_id"], "grounds": "ringer"}),
    ("POST", "/api/events/<int:event_id>/protests/<int:protest_id>/ruling"): Route(
        ORGANIZER, event="league", prepare=_make_protest,
        body=_body({"upheld": True, "reason": "not on the roster"})),
    # Calendar feeds: a league's calendars made private (organizer); a team's secret link
    # made anew or revoked (its captain's team key, or the organizer).
    ("PUT", "/api/events/<int:event_id>/calendar"): Route(
        ORGANIZER, event="league", body=_body({"private": True})),
    ("POST", "/api/events/<int:event_id>/teams/<int:team_id>/calendar"): Route(
        TEAM, event="league"),
    ("DELETE", "/api/events/<int:event_id>/teams/<int:team_id>/calendar"): Route(
        TEAM, event="league"),
    # Webhooks (organizer; a club's webhooks and deliveries are reached by its club key,
    # tests/api/test_webhooks.py).
    ("POST", "/api/events/<int:event_id>/webhooks"): Route(ORGANIZER, body=_body(HOOK)),
    ("DELETE", "/api/webhooks/<int:webhook_id>"): Route(ORGANIZER, prepare=_make_webhook),
    ("POST", "/api/webhooks/<int:webhook_id>/secret"): Route(ORGANIZER,
                                                            prepare=_make_webhook),
    ("POST", "/api/webhook-deliveries/<int:delivery_id>/redeliver"): Route(
        ORGANIZER, prepare=_make_delivery),
    # The club's: see test_club_access.py.
    **{(method, rule): Route(CLUB) for method, rule in (
        ("POST", "/api/clubs/<int:club_id>/webhooks"),
        ("PATCH", "/api/clubs/<int:club_id>"),
        ("POST", "/api/clubs/<int:club_id>/keys"),
        ("DELETE", "/api/clubs/<int:club_id>/keys/<int:key_id>"),
        ("POST", "/api/clubs/<int:club_id>/events"),
        ("PATCH", "/api/clubs/<int:club_id>/events/<int:event_id>"),
        ("DELETE", "/api/clubs/<int:club_id>/events/<int:event_id>"),
        ("PATCH", "/api/clubs/<int:club_id>/people/<int:person_id>"),
        ("POST", "/api/clubs/<int:club_id>/people/<int:person_id>/merge"),
        ("POST", "/api/clubs/<int:club_id>/people/<int:person_id>/split"),
        ("POST", "/api/clubs/<int:club_id>/people/<int:person_id>/erase"),
        ("POST", "/api/clubs/<int:club_id>/series"),
        ("PATCH", "/api/clubs/<int:club_id>/series/<int:series_id>"),
        ("PUT", "/api/clubs/<int:club_id>/series/<int:series_id>/events/<int:event_id>"),
        ("DELETE", "/api/clubs/<int:club_id>/series/<int:series_id>/events/<int:event_id>"),
        ("POST", "/api/clubs/<int:club_id>/history"),
    )},
}

# Every GET route under /api: public, or organizer-only (the PIN, keys, audit, exports).
READ_ROUTES: dict[str, str] = {
    "/api/openapi.json": PUBLIC,
    "/api/docs": PUBLIC,
    "/api/docs/redoc.standalone.js": PUBLIC,
    "/api/health": PUBLIC,
    "/api/presets": PUBLIC,
    "/api/presets/<string:key>": PUBLIC,
    "/api/me": PUBLIC,  # answers about the key sent, whatever it is
    "/api/events/<int:event_id>": PUBLIC,
    "/api/events/by-code/<string:code>": PUBLIC,
    "/api/events/<int:event_id>/qr/<string:kind>.svg": PUBLIC,
    "/api/events/<int:event_id>/players": PUBLIC,
    "/api/events/<int:event_id>/teams": PUBLIC,
    "/api/events/<int:event_id>/rounds": PUBLIC,
    "/api/rounds/<int:round_id>": PUBLIC,
    "/api/games/<int:game_id>": PUBLIC,
    "/api/events/<int:event_id>/season": PUBLIC,
    "/api/events/<int:event_id>/bracket": PUBLIC,
    "/api/events/<int:event_id>/teams/<int:team_id>/schedule": PUBLIC,
    "/api/register/<string:code>": PUBLIC,  # with the registration link's token in ?token=
    "/api/events/<int:event_id>/registration": ORGANIZER,
    "/api/events/<int:event_id>/leaderboard": PUBLIC,
    "/api/events/<int:event_id>/awards": PUBLIC,
    "/api/events/<int:event_id>/recap": PUBLIC,  # a finished night's story
    "/api/events/<int:event_id>/money": PUBLIC,
    "/api/events/<int:event_id>/named-awards": PUBLIC,
    "/api/events/<int:event_id>/categories": PUBLIC,
    "/api/events/<int:event_id>/draws": PUBLIC,
    "/api/events/<int:event_id>/draws/<int:number>/repeat": PUBLIC,  # a check, stores nothing
    "/api/events/<int:event_id>/players/<int:player_id>/scoresheet": PUBLIC,
    "/api/events/<int:event_id>/scoresheets": PUBLIC,
    "/api/events/<int:event_id>/access": ORGANIZER,
    "/api/events/<int:event_id>/keys": ORGANIZER,
    "/api/events/<int:event_id>/rounds/next": ORGANIZER,
    "/api/events/<int:event_id>/audit": ORGANIZER,
    "/api/events/<int:event_id>/export/<string:name>.csv": ORGANIZER,
    "/api/events/<int:event_id>/export/portable.json": ORGANIZER,
    "/api/events/<int:event_id>/check-in-window": PUBLIC,
    "/api/door/<string:code>": PUBLIC,  # with the door code in ?token=
    "/api/events/<int:event_id>/door-token": ORGANIZER,
    "/api/events/<int:event_id>/door-requests": ORGANIZER,
    "/api/games/<int:game_id>/rulings": PUBLIC,
    "/api/events/<int:event_id>/protests": PUBLIC,
    "/api/events/<int:event_id>/calls": ORGANIZER,
    # Clubs: public pages (a private person's profile and series rows only with the club
    # key), and the club key's own reads.
    "/api/clubs/<int:club_id>": PUBLIC,
    "/api/clubs/by-slug/<string:slug>": PUBLIC,
    "/api/clubs/<int:club_id>/events": PUBLIC,
    "/api/clubs/<int:club_id>/people": PUBLIC,
    "/api/clubs/<int:club_id>/people/<int:person_id>": PUBLIC,
    "/api/clubs/<int:club_id>/series": PUBLIC,
    "/api/clubs/<int:club_id>/series/<int:series_id>": PUBLIC,
    "/api/clubs/<int:club_id>/series/<int:series_id>/standings.csv": PUBLIC,
    "/api/clubs/<int:club_id>/ratings": PUBLIC,
    "/api/clubs/<int:club_id>/ratings.csv": PUBLIC,
    "/api/clubs/<int:club_id>/people/<int:person_id>/rating": PUBLIC,
    # Calendar feeds (.ics): public unless a league keeps its calendars private (a 403, tested
    # in tests/api/test_calendar_feeds.py); a team's secret link carries its token in the path.
    "/api/events/<int:event_id>/calendar.ics": PUBLIC,
    "/api/events/<int:event_id>/teams/<int:team_id>/calendar.ics": PUBLIC,
    "/api/calendars/<string:token>.ics": PUBLIC,
    "/api/clubs/<int:club_id>/calendar.ics": PUBLIC,
    "/api/events/<int:event_id>/calendar": PUBLIC,
    "/api/events/<int:event_id>/teams/<int:team_id>/calendar": TEAM,  # shows the secret link
    "/api/clubs/<int:club_id>/keys": CLUB,
    "/api/clubs/<int:club_id>/webhooks": CLUB,
    "/api/clubs/<int:club_id>/webhook-deliveries": CLUB,
    "/api/events/<int:event_id>/webhooks": ORGANIZER,
    "/api/events/<int:event_id>/webhook-deliveries": ORGANIZER,
    "/api/clubs/<int:club_id>/audit": CLUB,
    "/api/clubs/<int:club_id>/export/portable.json": CLUB,
    "/api/clubs/<int:club_id>/people/<int:person_id>/data": CLUB,
}


# Organizer reads that need a state to answer 200 (the default: the progressive event as is).
READ_TARGETS: dict[str, Route] = {
    "/api/events/<int:event_id>/rounds/next": Route(ORGANIZER, event="ended",
                                                    prepare=_close_round),
    "/api/events/<int:event_id>/teams/<int:team_id>/calendar": Route(TEAM, event="league"),
}


def url_rules(app) -> dict[tuple[str, str], object]:
    """(method, rule) for every route in the app's URL map."""
    return {(method, rule.rule): rule for rule in app.url_map.iter_rules()
            for method in rule.methods - {"HEAD", "OPTIONS"}}


def test_every_route_is_classified():
    """A new route fails here until someone decides who may call it."""
    every = url_rules(create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}))
    routes = {k: v for k, v in every.items() if k[1].startswith("/api")}
    writes = {k for k in routes if k[0] in WRITE_METHODS}
    reads = {rule for method, rule in routes if method == "GET"}
    assert writes - WRITE_ROUTES.keys() == set(), "unclassified write routes: add them above"
    assert WRITE_ROUTES.keys() - writes == set(), "classified routes that no longer exist"
    assert reads - READ_ROUTES.keys() == set(), "unclassified read routes: add them above"
    assert READ_ROUTES.keys() - reads == set(), "classified reads that no longer exist"
    assert {m for m, _ in routes} <= WRITE_METHODS | {"GET"}
    # Outside /api there is only the PWA's files: nothing there may write.
    assert {m for m, rule in every if not rule.startswith("/api")} == {"GET"}
    # The public writes are exactly the ones the design allows (the door's need its code).
    assert sorted(k for k, r in WRITE_ROUTES.items() if r.access == PUBLIC) == [
        ("POST", "/api/clubs"), ("POST", "/api/door/<string:code>/check-in"),
        ("POST", "/api/door/<string:code>/requests"), ("POST", "/api/events"),
        ("POST", "/api/import"), ("POST", "/api/join"), ("POST", "/api/qr"),
        ("POST", "/api/register/<string:code>")]
    assert READ_TARGETS.keys() <= {r for r, a in READ_ROUTES.items() if a in (ORGANIZER, TEAM)}
    assert {r for r, a in READ_ROUTES.items() if a == TEAM} <= READ_TARGETS.keys()


# --- filling URLs and calling them ----------------------------------------------------------

def fill(rule: str, seeded: Seeded, route: Route, *, other_table: bool = False) -> str:
    ids = {**seeded.ids, "event_id": seeded.id, "name": "hands", "kind": "join",
           "key": seeded.preset}
    ids.update({name: seeded.ids[source] for name, source in route.ids.items()})
    if other_table:
        ids.update(game_id=seeded.other_table_game, hand_id=seeded.ids["other_hand_id"])
    url = rule
    for converter in ("int:", "string:", ""):
        for name, value in ids.items():
            url = url.replace(f"<{converter}{name}>", str(value))
    assert "<" not in url, f"no seeded id for a parameter of {rule}"
    return url


def call(api, method: str, rule: str, route: Route, seeded: Seeded, auth: str | None, *,
         other_table: bool = False):
    url = fill(rule, seeded, route, other_table=other_table)
    headers = {}
    if auth is not None:
        headers["Authorization"] = auth
    if route.if_match:
        game = url.split("/")[3]
        version = api.get(f"/api/games/{game}", expect=200).get_json()["version"]
        headers["If-Match"] = f'"{version}"'
    body = route.body(seeded) if route.body else None
    return api.request(method, url, json=body, headers=headers)


# Fields computed from the server's clock at read time: they change by themselves.
CLOCK_FIELDS = {"seconds_left", "idle_seconds", "age_seconds"}


def timeless(value):
    """A view without the fields the clock changes (countdowns, seconds since the last hand)."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k not in CLOCK_FIELDS}
    if isinstance(value, list):
        return [timeless(v) for v in value]
    return value


def public_view(api, world: dict[str, Seeded], only: tuple[str, ...] | None = None) -> dict:
    """What the public and each organizer can read, plus every event's revision (of the
    events named in `only`, or all)."""
    view = {}
    for name, s in world.items():
        if only is not None and name not in only:
            continue
        org = {"Authorization": f"Bearer {s.organizer}"}
        eid = s.id
        for path in (f"/api/events/{eid}", f"/api/events/{eid}/players",
                     f"/api/events/{eid}/teams", f"/api/events/{eid}/rounds",
                     f"/api/events/{eid}/leaderboard", f"/api/events/{eid}/season",
                     *(f"/api/games/{game}" for game in (s.ids.get("game_id"),
                                                         s.other_table_game) if game)):
            view[path] = timeless(api.get(path, expect=200).get_json())
        for path in (f"/api/events/{eid}/keys", f"/api/events/{eid}/access",
                     f"/api/events/{eid}/audit?limit=500"):
            view[path] = api.get(path, headers=org, expect=200).get_json()
        view[f"revision {name}"] = view[f"/api/events/{eid}"]["revision"]
    return view


def other_event(victim: str) -> str:
    """The event whose keys are tried on the victim's routes."""
    return "league" if victim != "league" else "progressive"


def bad_credentials(route: Route, world: dict[str, Seeded], victim: str):
    """(label, Authorization header or None, expected status, table-2 game?)."""
    s = world[victim]
    other = world[other_event(victim)]
    yield "no key", None, 401, False
    yield "empty bearer", "Bearer ", 401, False
    yield "basic auth", "Basic b3JnYW5pemVyOnNlY3JldA==", 401, False
    yield "not a key", "Bearer not-a-key", 401, False
    yield "unknown well-formed key", "Bearer euk_" + "A" * 43, 401, False
    yield "key with a character changed", f"Bearer {s.organizer[:-1]}" + (
        "A" if s.organizer[-1] != "A" else "B"), 401, False
    yield "key twice", f"Bearer {s.organizer} {s.organizer}", 401, False
    yield "key without scheme", s.organizer, 401, False
    yield "overlong key", "Bearer euk_" + "A" * 5000, 401, False
    yield "revoked organizer key", f"Bearer {s.keys['revoked_organizer']}", 401, False
    yield "revoked runner key", f"Bearer {s.keys['revoked_runner']}", 401, False
    yield "another event's organizer key", f"Bearer {other.organizer}", 403, False
    yield "another event's runner key", f"Bearer {other.keys['runner']}", 403, False
    if "team" in other.keys:
        yield "another event's team key", f"Bearer {other.keys['team']}", 403, False
    if "team" in s.keys and route.access in (ORGANIZER, RUNNER):
        yield "team key", f"Bearer {s.keys['team']}", 403, False
    if route.access == TEAM:
        yield "another team's key", f"Bearer {s.keys['other_team']}", 403, False
    if route.access in (ORGANIZER, TEAM):
        yield "runner key (every table)", f"Bearer {s.keys['runner']}", 403, False
        yield "runner key (table 1)", f"Bearer {s.keys['runner_table1']}", 403, False
    if route.access == RUNNER:
        yield "table-1 runner key on table 2", f"Bearer {s.keys['runner_table1']}", 403, True


def assert_refused(response, status: int, label: str) -> list[str]:
    problems = []
    if response.status_code != status:
        problems.append(f"{label}: {response.status_code} (expected {status}) "
                        f"{response.get_data(as_text=True)[:200]}")
        return problems
    if response.mimetype != "application/problem+json":
        problems.append(f"{label}: {response.mimetype}, not problem+json")
    body = response.get_json(silent=True) or {}
    if body.get("status") != status or not body.get("detail"):
        problems.append(f"{label}: body {body}")
    if status == 401 and "WWW-Authenticate" not in response.headers:
        problems.append(f"{label}: a 401 without WWW-Authenticate")
    return problems


def allowed_keys(route: Route, seeded: Seeded) -> list[tuple[str, str]]:
    """The keys that may make this call: the organizer's, and runners' on a runner route."""
    allowed = [("organizer key", seeded.organizer)]
    if route.access == TEAM:
        allowed.insert(0, ("team key", seeded.keys["team"]))
    if route.access == RUNNER:
        allowed.insert(0, ("runner key", seeded.keys["runner"]))
        if route.at_table1:
            allowed.insert(0, ("table-1 runner key", seeded.keys["runner_table1"]))
    return allowed


PROTECTED_WRITES = sorted(k for k, r in WRITE_ROUTES.items() if r.access not in (PUBLIC, CLUB))
# The seeded event each protected write points into -> its routes: those that need no state
# of their own first (they share one world, one after another), then those that do.
VICTIMS = sorted({WRITE_ROUTES[k].event for k in PROTECTED_WRITES})
ROUTES_INTO = {victim: sorted((k for k in PROTECTED_WRITES if WRITE_ROUTES[k].event == victim),
                              key=lambda k: (WRITE_ROUTES[k].prepare is not None, k))
               for victim in VICTIMS}


def _try_bad_credentials(app, api, world, method: str, rule: str) -> list[str]:
    """Every bad credential on one route, from the state the database is in: what was not
    refused as it should be, and any row changed."""
    route = WRITE_ROUTES[(method, rule)]
    before = snapshot(app)
    problems = []
    for label, auth, status, other_table in bad_credentials(route, world, route.event):
        response = call(api, method, rule, route, world[route.event], auth,
                        other_table=other_table)
        problems += [f"{method} {rule}: {p}" for p in assert_refused(response, status, label)]
    changes = snapshot(app).changes(before)
    if changes:
        problems.append(f"{method} {rule}: a refused request changed a row: {changes}")
    return problems


def _changed_views(app, api, world, routes) -> list[str]:
    """Each route alone, between two reads of the views (run only when a group's did change,
    to name the routes that changed them)."""
    found = []
    for method, rule in routes:
        route = WRITE_ROUTES[(method, rule)]
        put_world_back(app)
        if route.prepare:
            route.prepare(api, world[route.event])
        touched = (route.event, other_event(route.event))
        before = public_view(api, world, touched)
        _try_bad_credentials(app, api, world, method, rule)
        if public_view(api, world, touched) != before:
            found.append(f"{method} {rule}: a refused request changed what is read")
    return found


@pytest.mark.parametrize("victim", VICTIMS)
def test_the_writes_into_an_event_refuse_every_bad_credential_and_change_nothing(
        app, api, world, victim):
    """Every protected write route into the event, with every bad credential: each answers
    401 or 403 as problem+json and no row changes (compared after each route), and what the
    public and the organizers of the two events whose keys are tried can read (the views add
    what the process keeps: boards, totals) is as it was (compared around the routes that
    share a world, and around each route that needs a state of its own)."""
    touched = (victim, other_event(victim))
    problems: list[str] = []
    shared = [k for k in ROUTES_INTO[victim] if WRITE_ROUTES[k].prepare is None]
    alone = [k for k in ROUTES_INTO[victim] if WRITE_ROUTES[k].prepare is not None]
    for routes in ([shared] if shared else []) + [[k] for k in alone]:
        put_world_back(app)  # the world as seeded (the fixture's put-back, the first time)
        for method, rule in routes:
            if WRITE_ROUTES[(method, rule)].prepare:
                WRITE_ROUTES[(method, rule)].prepare(api, world[victim])
        before_view = public_view(api, world, touched)
        for method, rule in routes:
            problems += _try_bad_credentials(app, api, world, method, rule)
        if public_view(api, world, touched) != before_view:
            problems += _changed_views(app, api, world, routes) or [
                f"{routes}: a refused request changed what is read"]
    assert problems == []


@pytest.mark.parametrize("method, rule", PROTECTED_WRITES,
                         ids=[f"{m} {r}" for m, r in PROTECTED_WRITES])
def test_each_key_that_may_make_a_write_makes_it(app, api, world, method, rule):
    """Control for the test above: each key that may make the call makes it, from the state
    the bad credentials were tried in, with the same URL and body, and something changes: so
    the URL and body were real, and it was the key alone that was refused."""
    route = WRITE_ROUTES[(method, rule)]
    seeded = world[route.event]
    for label, secret in allowed_keys(route, seeded):
        put_world_back(app)
        if route.prepare:
            route.prepare(api, seeded)
        before = snapshot(app)
        response = call(api, method, rule, route, seeded, f"Bearer {secret}")
        assert 200 <= response.status_code < 300, (
            label, response.status_code, response.get_data(as_text=True)[:300])
        assert_changed(app, before, f"{label}: the allowed call changed nothing")


PUBLIC_WRITE_CALLS = {
    ("POST", "/api/events"): (lambda s: {"name": "Open to all", "preset": "progressive"}, 201),
    ("POST", "/api/join"): (lambda s: {"code": s.ids["code"], "pin": s.keys["pin"],
                                       "table": 1}, 201),
    ("POST", "/api/qr"): (lambda s: {"text": "https://euchre.test/e/1/board"}, 200),
    ("POST", "/api/clubs"): (lambda s: {"name": "Open club"}, 201),
}


@pytest.mark.parametrize("method, rule", sorted(PUBLIC_WRITE_CALLS),
                         ids=[f"{m} {r}" for m, r in sorted(PUBLIC_WRITE_CALLS)])
def test_the_public_writes_need_no_key_and_touch_no_existing_event(
        app, api, world, method, rule):
    assert WRITE_ROUTES[(method, rule)].access == PUBLIC
    seeded = world["progressive"]
    body, status = PUBLIC_WRITE_CALLS[(method, rule)]
    before = public_view(api, world)
    api.request(method, rule, json=body(seeded), expect=status)
    after = public_view(api, world)
    if rule == "/api/join":
        # Joining issues a runner key (listed on the keys page) and nothing else.
        keys = f"/api/events/{seeded.id}/keys"
        known = before.pop(keys)
        added = [k for k in after.pop(keys) if k not in known]
        assert [(k["role"], k["table"]) for k in added] == [("runner", 1)]
    assert after == before


DOOR_WRITES = sorted(k for k in WRITE_ROUTES if k[1].startswith("/api/door/"))


def _without_counts(rows: Snapshot) -> Snapshot:
    # Every door write is counted per address, refused ones too: the count is not a change.
    return Snapshot({table: found for table, found in rows.tables.items()
                     if table != "rate_limits"})


@pytest.mark.parametrize("method, rule", DOOR_WRITES, ids=[f"{m} {r}" for m, r in DOOR_WRITES])
def test_the_door_writes_need_the_current_door_code(app, api, world, method, rule):
    """The door code stands in for a key: no code, a wrong one, another event's or one
    rotated since is refused (403, or 422 without one) with nothing changed; the current
    one works."""
    route = WRITE_ROUTES[(method, rule)]
    seeded, other = world["progressive"], world["wec"]  # the rows just put back by `world`
    _open_door(api, other)
    route.prepare(api, seeded)
    old = seeded.keys["door_token"]
    seeded.keys["door_token"] = api.post(f"/api/events/{seeded.id}/door-token",
                                         key=seeded.organizer, expect=200).get_json()["token"]
    before_rows = _without_counts(snapshot(app))
    before_view = public_view(api, world, ("progressive", "wec"))
    url = fill(rule, seeded, route)
    problems = []
    for label, token, status in (("no code", None, 422), ("an empty code", "", 422),
                                 ("a wrong code", "x" * 22, 403), ("an old code", old, 403),
                                 ("another event's code", other.keys["door_token"], 403)):
        body = {k: v for k, v in route.body(seeded).items() if k != "token"}
        if token is not None:
            body["token"] = token
        problems += assert_refused(api.request(method, url, json=body), status, label)
    assert problems == []
    changes = _without_counts(snapshot(app)).changes(before_rows)
    assert not changes, f"a refused door write changed a row: {changes}"
    assert public_view(api, world, ("progressive", "wec")) == before_view
    done = api.request(method, url, json=route.body(seeded))
    assert 200 <= done.status_code < 300, done.get_data(as_text=True)
    assert _without_counts(snapshot(app)) != before_rows


ORGANIZER_READS = sorted(r for r, access in READ_ROUTES.items() if access in (ORGANIZER, TEAM))


@pytest.mark.parametrize("rule", ORGANIZER_READS)
def test_an_organizer_read_refuses_every_bad_credential(app, api, world, rule):
    route = READ_TARGETS.get(rule, Route(ORGANIZER))
    seeded = world[route.event]
    if route.prepare:
        route.prepare(api, seeded)
    problems = []
    for label, auth, status, _ in bad_credentials(route, world, route.event):
        response = call(api, "GET", rule, route, seeded, auth)
        problems += assert_refused(response, status, label)
        if seeded.keys["pin"] in response.get_data(as_text=True):
            problems.append(f"{label}: the join PIN leaked")
    assert problems == []
    response = call(api, "GET", rule, route, seeded, f"Bearer {seeded.organizer}")
    body = response.get_data(as_text=True)  # read it all: an export streams from a generator
    response.close()
    assert response.status_code == 200, body[:300]


def test_the_openapi_document_says_which_operations_need_a_key():
    """Tools read the document to know where to send the bearer key: it must agree with who
    may call each route (the classification above, checked against the routes themselves)."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})
    doc = app.test_client().get("/api/openapi.json").get_json()
    assert doc["components"]["securitySchemes"]["bearerKey"]["scheme"] == "bearer"

    def operation(method: str, rule: str) -> dict:
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)
        return doc["paths"][path][method.lower()]

    wrong = []
    for (method, rule), route in WRITE_ROUTES.items():
        keyed = operation(method, rule)["security"] == [{"bearerKey": []}]
        if keyed != (route.access != PUBLIC):
            wrong.append((method, rule))
        if route.if_match and not {"412", "428"} <= operation(method, rule)["responses"].keys():
            wrong.append((method, rule, "412/428"))
    for rule, access in READ_ROUTES.items():
        if rule.startswith("/api/docs") or rule == "/api/openapi.json":
            continue
        security = operation("GET", rule)["security"]
        if (security == [{"bearerKey": []}]) != (access in (ORGANIZER, CLUB, TEAM)):
            wrong.append(("GET", rule))
    assert not wrong, wrong
