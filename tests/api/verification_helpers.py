"""What the verification tests share: a night whose event checks scores one way, and a side's
calls as its phone makes them."""

from __future__ import annotations

import itertools
import uuid

from .client import ApiClient

_ids = itertools.count(1)


def new_id(prefix: str = "e") -> str:
    return f"{prefix}-{next(_ids)}-{uuid.uuid4().hex[:6]}"


def night(api: ApiClient, mode: str, preset: str = "progressive", players: int = 8,
          **overrides) -> tuple[dict, str, dict]:
    """An event of `preset` checking scores by `mode` (set at creation), its first round
    seated: the event, the organizer key and the round. (The players come in as one CSV
    import, not a request each.)"""
    event = api.create_event(preset, verification=mode, **overrides)
    api.import_field(event, [f"P{n}" for n in range(1, players + 1)])
    return event, event["organizer_key"], api.seat_round(event, 1)


def enter(api: ApiClient, key: str, game: int, side: str, hand: dict, *,
          entry_id: str | None = None, expect=201):
    body = {"id": entry_id or new_id(), "side": side, **hand}
    return api.post(f"/api/games/{game}/hands", key=key, json=body, expect=expect)


def sheet(api: ApiClient, key: str, game: int, side: str, rows: list[dict], *,
          sheet_id: str | None = None, expect=201):
    body = {"id": sheet_id or new_id("s"), "side": side, "hands": rows}
    return api.post(f"/api/games/{game}/paper-sheet", key=key, json=body, expect=expect)


def confirm(api: ApiClient, key: str, game: int, entry_id: str, side: str, expect=200):
    return api.post(f"/api/games/{game}/entries/{entry_id}/confirm", key=key,
                    json={"side": side}, expect=expect)


def play_as(api: ApiClient, key: str, mode: str, game: int, hands: list[dict]) -> None:
    """The game's hands entered the way `mode` asks, each side alternating who goes first:
    one runner under sign-off, an entry and its confirmation, or both sides' entries."""
    for number, hand in enumerate(hands, start=1):
        first, second = ("A", "B") if number % 2 else ("B", "A")
        if mode == "sign_off":
            api.post(f"/api/games/{game}/hands", key=key, json={"id": new_id(), **hand},
                     expect=201)
        elif mode == "confirm_each_hand":
            entry = new_id()
            enter(api, key, game, first, hand, entry_id=entry)
            confirm(api, key, game, entry, second)
        else:
            enter(api, key, game, first, hand)
            enter(api, key, game, second, hand)


def read(api: ApiClient, game: int, side: str | None = None, key: str | None = None) -> dict:
    path = f"/api/games/{game}" + (f"?side={side}" if side else "")
    return api.get(path, key=key, expect=200).get_json()


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def totals(api: ApiClient, event: dict) -> list[int]:
    return sorted(r["total"] for r in api.leaderboard(event)["rows"])


def stored_hands(view: dict) -> list[dict]:
    """The game's hands without when they were stored or their ids."""
    return [{k: v for k, v in h.items() if k not in ("created_at", "id")}
            for h in view["hands"]]
