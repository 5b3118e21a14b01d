"""A hand goes one of two ways: the short way (the game's stored totals plus the one hand, a
few prepared statements; the WSGI layer and the Flask route both try it first) or the long way
(the whole game loaded and replayed). Whatever the hand, both ways must leave the same game:
the same answer, the same stored game and the same result rows for the standings.

Two events are set up alike; every hand goes to one event's game the short way and to the
other's the long way, and after each the two are compared (ids and clock times aside, which
differ between two events), and each with a fresh read of its own game. The paper sheet
(a game's hands in one request) is held to the same: its short way against its long way.
"""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, update

from api.auth import bearer_secret, principal_of
from api.core.common import get_game, lock_event, preset_of
from api.core.db import db, reading_only
from api.core.errors import ServiceError
from api.core.models import Event, Player, Result, Team
from api.games import game_end, hand_entry, sheet_batch
from api.games.game_state import game_view, result_rows, rules_hand
from api.routes.games import game_json
from api.rules.errors import RuleError
from api.rules.hands import score_hand
from api.rules.presets import PRESETS

from .client import ApiClient

REFUSED = (RuleError, ServiceError)
# Each example sets up its own two events in the test's database, so what one example leaves
# behind is never read by the next.
PROPERTY = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

# Every format that takes hands, and a game to a target score (a custom format).
FORMATS = [(key, {}) for key in PRESETS] + [
    ("progressive", {"target_points": 10, "hands_per_game": None})]


def _setup(app, preset: str, overrides: dict) -> dict:
    """A new event of this format with its first round seated: its first game and its key.
    Two set up alike are seated alike (the same seed for the draw). The field comes in as
    one CSV import, not a request an entrant: the setup is most of an example's time."""
    api = ApiClient(app.test_client())
    event = api.create_event(preset, **overrides)
    key = event["organizer_key"]
    if preset == "league":
        api.import_field(event, ["North", "South"], teams=True)
    elif PRESETS[preset].team_entry:
        api.import_field(event, [f"Team {n}" for n in range(4)], teams=True)
    else:
        api.import_field(event, [f"P{n:02d}" for n in range(8 if preset != "wec-singles"
                                                            else 12)])
    if preset == "league":
        api.post(f"/api/events/{event['id']}/season", key=key, json={}, expect=201)
    with app.app_context():
        db.session.execute(update(Event).where(Event.id == event["id"]).values(seed=28))
        db.session.commit()
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    return {"event": event["id"], "game": game, "key": key}


def _principal(key: str):
    with reading_only():
        principal = principal_of(bearer_secret(f"Bearer {key}"))
    db.session.rollback()
    return principal


def _read(game_id: int, hand_id: str, body: dict):
    """As the route reads before any lock: the game's entry, and the answer to a retry."""
    with reading_only():
        entry = hand_entry.entry_of(game_id, hand_id)
        return entry, hand_entry.replayed(entry, hand_id, body)


def _short(game_id: int, principal, body: dict):
    """The short way, as the WSGI layer takes it; where it declines, the long way (as the
    route then does). Returns (outcome, whether the short way stored it)."""
    try:
        entry, again = _read(game_id, body["id"], body)
        if again is not None:
            return ("view", again), False
        view = hand_entry.record_the_short_way(entry, principal, body)
        if view is not None:
            return ("view", view), True
        lock_event(entry.event_id)
        view, _created = hand_entry._record_the_long_way(
            entry, principal, body, score_hand(rules_hand(body), entry.preset))
        return ("view", view), False
    except REFUSED as refused:
        db.session.rollback()
        return ("refused", type(refused).__name__, str(refused)), False


def _long(game_id: int, principal, body: dict):
    """The long way only: the whole game loaded under the event's lock."""
    try:
        entry, again = _read(game_id, body["id"], body)
        if again is not None:
            return ("view", again)
        score = score_hand(rules_hand(body), entry.preset)
        lock_event(entry.event_id)
        view, _created = hand_entry._record_the_long_way(entry, principal, body, score)
        return ("view", view)
    except REFUSED as refused:
        db.session.rollback()
        return ("refused", type(refused).__name__, str(refused))


def _alike(value, names: dict):
    """A view or rows with what differs between two events set up alike made the same: ids
    (players' and teams' by their names) and clock times."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in ("player_id", "partner_id") and v is not None:
                out[k] = names["players"][v]
            elif k in ("entrant_id", "opponent_id") and v is not None:
                out[k] = names["entrants"][v]
            elif (k == "id" or k.endswith("_id")) and isinstance(v, int) and \
                    not isinstance(v, bool):
                out[k] = "<id>"
            elif k.endswith("_at") and v is not None:
                out[k] = "<time>"
            else:
                out[k] = _alike(v, names)
        return out
    if isinstance(value, list | tuple):
        return [_alike(v, names) for v in value]
    return value


def _differences(a, b, path="") -> list[str]:
    """Where two views differ, for a failure's message."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b), key=str)
                for d in _differences(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for n, (x, y) in enumerate(zip(a, b, strict=True))
                for d in _differences(x, y, f"{path}[{n}]")]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


def _same(got, wanted, names: dict, why) -> None:
    got, wanted = _alike(got, names["S"]), _alike(wanted, names["L"])
    assert got == wanted, (why, _differences(got, wanted))


def _names(event_id: int) -> dict:
    """The event's players and entrants (players or teams) by their ids."""
    players = dict(db.session.execute(select(Player.id, Player.name)
                                      .where(Player.event_id == event_id)).all())
    teams = dict(db.session.execute(select(Team.id, Team.name)
                                    .where(Team.event_id == event_id)).all())
    team_entry = preset_of(db.session.get(Event, event_id)).team_entry
    db.session.rollback()
    return {"players": players, "entrants": teams if team_entry else players}


def _stored_rows(game_id: int) -> list[dict]:
    columns = [c for c in Result.__table__.c if c.name != "id"]
    return sorted((dict(r) for r in db.session.execute(
        select(*columns).where(Result.game_id == game_id)).mappings()),
        key=lambda r: (r["side"], r["entrant_id"]))


def _check_against_a_fresh_read(game_id: int, answer: dict) -> list[dict]:
    """The answer is the game a fresh read shows, and its result rows are the ones the game
    gives (with the revision of the change that wrote them). Returns the rows."""
    db.session.rollback()
    game = get_game(game_id)
    assert answer == game_view(game), "the answer differs from a fresh read of the game"
    stored = _stored_rows(game_id)
    if stored:
        revision = db.session.get(Event, game.event_id).revision
        preset = preset_of(db.session.get(Event, game.event_id))
        expected = sorted(result_rows(game, preset, revision),
                          key=lambda r: (r["side"], r["entrant_id"]))
        assert stored == expected, "the stored result rows differ from the game's"
    # The game's JSON as the API writes it is its schema's dump.
    game_json(answer)
    db.session.rollback()
    return stored


SIDE = st.sampled_from("AB")


@st.composite
def hands(draw) -> dict:
    """A hand as a phone sends it: made, euchred, a loner (its seat maybe given), a march, a
    renege claim upheld or not, cards thrown in (a penalty), with or without a dealer."""
    kind = draw(st.sampled_from(["play"] * 9 + ["penalty"]))
    if kind == "penalty":
        return {"kind": "penalty",
                "surrendered": draw(st.lists(st.integers(1, 4), min_size=1, max_size=2,
                                             unique=True))}
    maker = draw(SIDE)
    body = {"maker": maker, "tricks": draw(st.integers(0, 5)), "alone": draw(st.booleans())}
    if body["alone"] and draw(st.booleans()):
        body["loner_seat"] = draw(st.sampled_from([1, 3] if maker == "A" else [2, 4]))
    if draw(st.integers(0, 5)) == 0:
        upheld = draw(st.booleans())
        body["renege"] = {"by": draw(SIDE), "upheld": upheld}
        if upheld and draw(st.booleans()):
            body["tricks"] = None
    if draw(st.booleans()):
        body["dealer"] = draw(st.integers(1, 4))
    return body


# A game's hands: enough to end most games and go past their end; now and then a hand sent
# again (the phone retrying a lost answer).
PLAYS = st.lists(st.one_of(hands(), st.just("again")), min_size=1, max_size=16)


@PROPERTY
@given(form=st.sampled_from(FORMATS), plays=PLAYS)
def test_a_hand_the_short_way_leaves_the_game_the_long_way_does(app, form, plays):
    short, long_ = _setup(app, *form), _setup(app, *form)
    last, over = None, False
    with app.app_context():
        principal = {"S": _principal(short["key"]), "L": _principal(long_["key"])}
        names = {"S": _names(short["event"]), "L": _names(long_["event"])}
        for play in plays:
            if play == "again":
                if last is None:
                    continue
                body = last
            else:
                body = last = {"id": f"h-{uuid.uuid4().hex[:12]}", **play}
            before = db.session.get(Event, short["event"]).revision
            db.session.rollback()
            got, stored_short = _short(short["game"], principal["S"], dict(body))
            wanted = _long(long_["game"], principal["L"], dict(body))
            _same(got, wanted, names, body)
            event("a hand stored the short way" if stored_short else f"a hand {got[0]}")
            if got[0] == "view":
                rows = _check_against_a_fresh_read(short["game"], got[1])
                other = _check_against_a_fresh_read(long_["game"], wanted[1])
                _same(rows, other, names, "result rows")
            else:
                assert db.session.get(Event, short["event"]).revision == before, \
                    "a refused hand changed the event"
                db.session.rollback()
            if got[0] == "view" and play != "again" and not over and form[0] != "league":
                # The short way is the way: it stores every new hand a game in play takes.
                # (A league match is three games: those take the long way.)
                assert stored_short, body
            over = got[1]["over"] if got[0] == "view" else over


def _sheet_short(game_id: int, principal, body: dict):
    """A paper sheet the short way; where it declines, the long way. Returns (outcome,
    whether the short way stored it)."""
    try:
        with reading_only():
            entry = sheet_batch.entry_of(game_id, body)
        view = sheet_batch._the_short_way(entry, principal, body)
        if view is not None:
            return ("view", view, True), True
        return ("view", *sheet_batch.enter_hands_the_long_way(game_id, principal, body)), False
    except REFUSED as refused:
        db.session.rollback()
        return ("refused", type(refused).__name__, str(refused)), False


def _sheet_long(game_id: int, principal, body: dict):
    try:
        return ("view", *sheet_batch.enter_hands_the_long_way(game_id, principal, body))
    except REFUSED as refused:
        db.session.rollback()
        return ("refused", type(refused).__name__, str(refused))


@PROPERTY
@given(form=st.sampled_from([f for f in FORMATS if f[0] != "league"]), data=st.data())
def test_a_paper_sheet_the_short_way_leaves_the_game_the_long_way_does(app, form, data):
    # Most sheets a whole game long (as many rows as the game has hands, or a game to 10's
    # rows until it ends), some of any length.
    whole = PRESETS[form[0]].hands_per_game if "target_points" not in form[1] else None
    size = data.draw(st.sampled_from([whole or 8, whole or 10, None]))
    rows = data.draw(st.lists(hands(), min_size=size or 1, max_size=size or 14))
    short, long_ = _setup(app, *form), _setup(app, *form)
    body = {"id": f"sheet-{uuid.uuid4().hex[:10]}", "hands": rows}
    with app.app_context():
        principal = {"S": _principal(short["key"]), "L": _principal(long_["key"])}
        names = {"S": _names(short["event"]), "L": _names(long_["event"])}
        got, stored_short = _sheet_short(short["game"], principal["S"], dict(body))
        wanted = _sheet_long(long_["game"], principal["L"], dict(body))
        _same(got, wanted, names, body)
        event("stored the short way" if stored_short else f"{got[0]} the long way")
        if got[0] == "view":
            assert stored_short, "a whole game's sheet for a new game goes the short way"
            rows_short = _check_against_a_fresh_read(short["game"], got[1])
            rows_long = _check_against_a_fresh_read(long_["game"], wanted[1])
            _same(rows_short, rows_long, names, "result rows")
            # Sent again, the sheet is answered as stored (the long way, with the key).
            again = sheet_batch.enter_hands(short["game"], principal["S"], dict(body))
            assert again == (got[1], False)


def test_a_whole_paper_sheet_is_eight_statements_or_fewer(app):
    """As one hand is (test_hand_path.py): the key, the game with the sheet's ids, the lock,
    the eight hands, the game, its result rows, its match and the audit entry."""
    from sqlalchemy import event

    from .test_paper_sheet import EIGHT

    api = ApiClient(app.test_client())
    setup = _setup(app, "progressive", {})
    statements, webhook_reads = [], []
    with app.app_context():
        engine = db.engine

    def count(conn, cursor, statement, parameters, context, executemany):
        if "FROM webhooks" in statement:
            # Whether the event has webhooks: read once per event and worker, then kept for
            # a while (api/webhooks/outbox.py; test_hand_path.py counts it apart too).
            webhook_reads.append(statement)
        elif not statement.lstrip().upper().startswith(("BEGIN", "COMMIT")):
            statements.append(statement.split()[0])

    event.listen(engine, "before_cursor_execute", count)
    try:
        answer = api.post(f"/api/games/{setup['game']}/paper-sheet", key=setup["key"],
                          json={"id": "the-sheet", "hands": EIGHT}, expect=201).get_json()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(statements) <= 8, statements
    assert len(webhook_reads) <= 1
    assert answer["hands_played"] == 8 and answer["points"] == {"A": 5, "B": 9}
    assert api.game(setup["game"]) == answer


def _game_sheet(game_id: int, principal, body: dict, short: bool):
    """A WEC game sheet (final points and bumps) the short way, where it declines the long
    way; or the long way only. Returns (outcome, whether the short way stored it)."""
    try:
        if short:
            with reading_only():
                entry = hand_entry.entry_of(game_id)
            view = hand_entry.record_sheet(entry, body)
            if view is not None:
                return ("view", view), True
        return ("view", game_end.enter_sheet(game_id, principal, body)), False
    except REFUSED as refused:
        db.session.rollback()
        return ("refused", type(refused).__name__, str(refused)), False


@PROPERTY
@given(form=st.sampled_from([("wec-singles", {}), ("wec-doubles", {})]),
       # Twelve hands score at least a point each, most often.
       points=st.integers(0, 16).flatmap(
           lambda a: st.tuples(st.just(a), st.integers(max(0, 11 - a), 16))),
       bumps=st.dictionaries(st.sampled_from("1234"), st.integers(0, 4), max_size=4),
       hands_played=st.sampled_from([None, None, None, 12, 11, 13]),
       tie=st.one_of(st.none(), st.none(), st.none(),
                     st.builds(lambda m, w: {"method": m, "winner": w},
                               st.sampled_from(["playoff-hand", "card-draw"]), SIDE)))
def test_a_game_sheet_the_short_way_leaves_the_game_the_long_way_does(
        app, form, points, bumps, hands_played, tie):
    short, long_ = _setup(app, *form), _setup(app, *form)
    body = {"points": {"A": points[0], "B": points[1]}, "bumps": bumps,
            "hands_played": hands_played, "tie": tie}
    with app.app_context():
        principal = {"S": _principal(short["key"]), "L": _principal(long_["key"])}
        names = {"S": _names(short["event"]), "L": _names(long_["event"])}
        got, stored_short = _game_sheet(short["game"], principal["S"], dict(body), True)
        wanted, _ = _game_sheet(long_["game"], principal["L"], dict(body), False)
        _same(got, wanted, names, body)
        event("stored the short way" if stored_short else f"{got[0]} the long way")
        if got[0] == "view":
            assert stored_short or tie, "a first sheet without a tie goes the short way"
            rows_short = _check_against_a_fresh_read(short["game"], got[1])
            rows_long = _check_against_a_fresh_read(long_["game"], wanted[1])
            _same(rows_short, rows_long, names, "result rows")
