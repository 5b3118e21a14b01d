"""A thin test client that speaks the API the way the PWA does: JSON, keys, hand ids."""

from __future__ import annotations

import itertools
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

from api.games.schemas import SHEET_ROWS

_ids = itertools.count(1)
# From how many players `add_players` registers them in one import.
BATCH_FROM = 4


class ApiError(AssertionError):
    pass


class ApiClient:
    def __init__(self, client):
        self.client = client

    def request(self, method: str, path: str, *, key: str | None = None, json=None,
                expect: int | tuple[int, ...] | None = None, headers: dict | None = None,
                **kwargs):
        headers = dict(headers or {})
        if key:
            headers["Authorization"] = f"Bearer {key}"
        response = self.client.open(path, method=method, json=json, headers=headers, **kwargs)
        if expect is not None:
            wanted = (expect,) if isinstance(expect, int) else expect
            if response.status_code not in wanted:
                raise ApiError(f"{method} {path} -> {response.status_code}, expected {wanted}: "
                               f"{response.get_data(as_text=True)[:800]}")
        return response

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, **kw):
        return self.request("POST", path, **kw)

    def put(self, path, **kw):
        return self.request("PUT", path, **kw)

    def patch(self, path, **kw):
        return self.request("PATCH", path, **kw)

    def delete(self, path, **kw):
        return self.request("DELETE", path, **kw)

    # --- the steps of an event, as an organizer and a runner take them ----------------------

    def create_event(self, preset: str, name: str = "Test night", **overrides) -> dict:
        body = {"name": name, "preset": preset}
        if overrides:
            body["overrides"] = overrides
        return self.post("/api/events", json=body, expect=201).get_json()

    def add_players(self, event: dict, names: list[str], checked_in: bool = True) -> list[dict]:
        """Register these players; each as POST /players answers it. A field of several
        plain names (a test's setup, most often) goes in as one CSV import and is read back
        in one request: POST /players a name was a fifth of the API tests' requests. A
        player or two (a late arrival) and any name a CSV would need quoting for are
        posted one at a time, as the console does."""
        if len(names) < BATCH_FROM or any(set(n) & set(',"\n\r') or n != n.strip()
                                           for n in names):
            return [self.post(f"/api/events/{event['id']}/players", key=event["organizer_key"],
                              json={"name": n, "checked_in": checked_in},
                              expect=201).get_json() for n in names]
        self.import_field(event, names, checked_in=checked_in)
        everyone = self.get(f"/api/events/{event['id']}/players", expect=200).get_json()
        made = everyone[len(everyone) - len(names):]  # in registration order: the last ones
        assert [p["name"] for p in made] == list(names), "the import registers them in order"
        return made

    def add_team(self, event: dict, name: str, players: list[str], **extra) -> dict:
        return self.post(f"/api/events/{event['id']}/teams", key=event["organizer_key"],
                         json={"name": name, "players": players, "checked_in": True, **extra},
                         expect=201).get_json()

    def import_field(self, event: dict, names: list[str], *, teams: bool = False,
                     checked_in: bool = True) -> None:
        """Register these players (or teams named so, with players '<name> 1' and '<name> 2'),
        checked in, in one request: a CSV import. For a setup that does not need what
        POST /players or /teams answers for each; those routes have tests of their own."""
        assert not any(set(n) & set(',"\n\r') for n in names), "plain names only"
        here = "yes" if checked_in else "no"
        if teams:
            rows = ["team,player1,player2,checked_in"] + [f"{n},{n} 1,{n} 2,{here}"
                                                          for n in names]
        else:
            rows = ["name,checked_in"] + [f"{n},{here}" for n in names]
        self.post(f"/api/events/{event['id']}/import", key=event["organizer_key"],
                  json={"csv": "\n".join(rows)}, expect=201)

    def league(self, teams=("North", "South"), weeks: int | None = None, **overrides):
        """A league of these teams (two players each) with its season scheduled: the event,
        its organizer key and the teams by name."""
        event = self.create_event("league", **overrides)
        key = event["organizer_key"]
        made = {name: self.add_team(event, name, [f"{name} 1", f"{name} 2"]) for name in teams}
        self.post(f"/api/events/{event['id']}/season", key=key,
                  json={"weeks": weeks} if weeks else {}, expect=201)
        return event, key, made

    def seat_round(self, event: dict, number: int | None = None) -> dict:
        return self.post(f"/api/events/{event['id']}/rounds", key=event["organizer_key"],
                         json={"number": number}, expect=201).get_json()

    def close_round(self, event: dict, round_id: int) -> dict:
        return self.post(f"/api/rounds/{round_id}/close", key=event["organizer_key"],
                         expect=200).get_json()

    def game(self, game_id: int) -> dict:
        return self.get(f"/api/games/{game_id}", expect=200).get_json()

    def hand(self, key: str, game_id: int, maker: str, tricks: int | None, *, alone=False,
             expect=(200, 201), **extra) -> dict:
        body = {"id": f"h-{next(_ids)}-{uuid.uuid4().hex[:6]}", "maker": maker,
                "tricks": tricks, "alone": alone, **extra}
        return self.post(f"/api/games/{game_id}/hands", key=key, json=body,
                         expect=expect).get_json()

    def leaderboard(self, event: dict) -> dict:
        return self.get(f"/api/events/{event['id']}/leaderboard", expect=200).get_json()


def play(api: ApiClient, key: str, game_id: int, hands: list[dict]) -> dict:
    """Post each scripted hand in order with a fresh id; returns the game after the last."""
    state = None
    for body in hands:
        body = {"id": f"h-{next(_ids)}-{uuid.uuid4().hex[:6]}", **body}
        state = api.post(f"/api/games/{game_id}/hands", key=key, json=body,
                         expect=201).get_json()
    return state


def play_sheet(api: ApiClient, key: str, game_id: int, hands: list[dict]) -> dict:
    """The scripted hands entered from the game's paper sheet, in one request (a sheet
    longer than a paper sheet's rows goes in as more than one); returns the game after the
    last. For the tests about a season, its standings, forfeits and playoffs rather than
    about entering hands: a game's hands one request each (`play`) made a league season
    some 500 requests. The hand-by-hand path has tests of its own (test_hand_path,
    test_hand_posts, test_hand_paths_agree)."""
    assert hands, "a sheet has at least one hand"
    state = None
    for start in range(0, len(hands), SHEET_ROWS):
        body = {"id": f"sheet-{next(_ids)}-{uuid.uuid4().hex[:6]}",
                "hands": [dict(h) for h in hands[start:start + SHEET_ROWS]]}
        state = api.post(f"/api/games/{game_id}/paper-sheet", key=key, json=body,
                         expect=201).get_json()
    return state


def signer(game: dict) -> str:
    """A player who may sign the game off: one of the side that lost it (either side when
    nobody won)."""
    side = "A" if game["winner"] == "B" else "B"
    return next(p["name"] for p in game["sides"][side]["players"] if p["player_id"])


def all_at_once(app, work, count: int) -> list:
    """Run work(client, index) from `count` threads released together (each with a client of
    its own); return the answers in index order."""
    barrier = threading.Barrier(count)

    def run(index):
        client = ApiClient(app.test_client())
        barrier.wait()
        return work(client, index)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))
