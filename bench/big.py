"""The big event: a progressive tournament of 2,000 players with 200,000 hands entered, seeded
fast and then read over HTTP: the leaderboard cold, warm, as a 304 and right after a hand, and
the hands CSV export streamed, with the serving worker's memory watched.

Seeding: the event and its players are made over HTTP; the rounds are stored directly through
the app's models (bulk inserts), with every hand scored and every game and result computed by
the app's own rules (`api.rules`) exactly as recording hands one by one would. Then one more
round is seated, playing, so hands can be entered during the measurements.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta

from . import servers
from .http import Recorder, timed
from .load import GZIP, JSON, Target, random_hand


def seed(database_url: str, event_id: int, rounds: int, hands_per_game: int,
         rng_seed: int = 7) -> dict:
    """Store `rounds` closed rounds of finished games (every hand) and one more round being
    played. Returns counts and timings."""
    from sqlalchemy import insert, select, update

    from api import create_app
    from api.config import normalise_database_url
    from api.core.common import preset_of
    from api.core.db import db
    from api.core.models import Event, Game, Hand, Match, Player, Result, Round, Seat
    from api.games import game_state
    from api.games import hands as hand_service
    from api.rules import games as rgames
    from api.rules.hands import score_hand

    app = create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(database_url)})
    started = time.monotonic()
    rng = random.Random(rng_seed)
    hands_total = 0
    with app.app_context():
        event = db.session.get(Event, event_id)
        preset = preset_of(event)
        fmt = rgames.GameFormat(target_points=None, hands_per_game=hands_per_game)
        players = list(db.session.execute(select(Player.id).where(Player.event_id == event_id)
                                          .order_by(Player.position)).scalars())
        assert len(players) % 4 == 0, "the big event has no ghost seats"
        base_time = datetime.now(UTC) - timedelta(hours=rounds)
        for number in range(1, rounds + 2):
            playing = number == rounds + 1
            order = players[:]
            rng.shuffle(order)
            tables = [order[i:i + 4] for i in range(0, len(order), 4)]
            at = base_time + timedelta(minutes=25 * number)
            round_id = db.session.scalars(insert(Round).returning(Round.id), [{
                "event_id": event_id, "number": number, "stage": rgames.REGULAR,
                "label": f"Round {number}", "status": "playing" if playing else "closed",
                "minutes": preset.round_minutes, "clock_started_at": at,
                "closed_at": None if playing else at + timedelta(minutes=25)}]).one()
            games = []
            for seats in tables:
                hands = []
                scores = []
                for n in range(1, hands_per_game + 1):
                    body = json.loads(random_hand(rng, f"big-{number}-{len(games)}-{n}"))
                    score = score_hand(game_state.rules_hand(body), preset)
                    scores.append(score)
                    hands.append((n, body, score))
                state = rgames.play_game(fmt, scores)
                tie = None
                if state.level:
                    tie = "A"
                    state = rgames.play_game(fmt, scores, tie_winner=tie)
                games.append((seats, hands, state, tie))
            if playing:
                games = [(seats, [], rgames.play_game(fmt, []), None) for seats, *_ in games]
            match_ids = list(db.session.scalars(
                insert(Match).returning(Match.id, sort_by_parameter_order=True),
                [{"event_id": event_id, "round_id": round_id, "table": t,
                  "games_planned": 1, "best_of": False, "winner": state.winner,
                  "status": "playing" if playing else "over"}
                 for t, (_, _, state, _) in enumerate(games, start=1)]))
            db.session.execute(insert(Seat), [
                {"match_id": m, "seat": s, "player_id": pid}
                for m, (seats, *_) in zip(match_ids, games, strict=True)
                for s, pid in enumerate(seats, start=1)])
            game_ids = list(db.session.scalars(
                insert(Game).returning(Game.id, sort_by_parameter_order=True),
                [{"event_id": event_id, "match_id": m, "number": 1, "stage": rgames.REGULAR,
                  "target_points": None, "hands_per_game": hands_per_game,
                  "points_a": state.points_a, "points_b": state.points_b,
                  "hands_played": state.hands_played, "entries": state.hands_played,
                  "end": state.end, "winner": state.winner, "level": state.level,
                  "tie_method": "card-draw" if tie else None, "tie_winner": tie,
                  "bumps": {}, "version": state.hands_played + 1 + bool(tie),
                  "last_entry_at": at if state.hands_played else None}
                 for m, (_, _, state, tie) in zip(match_ids, games, strict=True)]))
            hand_rows = []
            result_rows = []
            for table, (game_id, (seats, hands, state, _tie)) in enumerate(
                    zip(game_ids, games, strict=True), start=1):
                for n, body, score in hands:
                    hand_rows.append({
                        "id": body["id"], "event_id": event_id, "game_id": game_id,
                        "number": n, "fingerprint": hand_service.fingerprint(body),
                        "created_at": at + timedelta(seconds=20 * n),
                        **hand_service.hand_columns(body, score)})
                if playing:
                    continue
                for index, pid in enumerate(seats):
                    side = "A" if index in (0, 2) else "B"
                    partner = seats[(index + 2) % 4]
                    points = state.points_a if side == "A" else state.points_b
                    against = state.points_b if side == "A" else state.points_a
                    result_rows.append({
                        "event_id": event_id, "game_id": game_id, "round_number": number,
                        "stage": rgames.REGULAR, "table": table, "entrant_id": pid, "side": side,
                        "partner_id": partner, "opponent_id": None, "points": points,
                        "against": against, "won": state.winner == side,
                        "ghost_table": False, "forfeited": False})
            for start in range(0, len(hand_rows), 2000):
                db.session.execute(insert(Hand), hand_rows[start:start + 2000])
            if result_rows:
                db.session.execute(insert(Result), result_rows)
            hands_total += len(hand_rows)
            db.session.commit()
        db.session.execute(update(Event).where(Event.id == event_id)
                           .values(revision=Event.revision + 1))
        db.session.commit()
        playing_games = game_ids
        db.engine.dispose()
    return {"players": len(players), "rounds_closed": rounds, "hands": hands_total,
            "games": len(players) // 4 * rounds,
            "seed_seconds": round(time.monotonic() - started, 1),
            "playing_games": playing_games}


class RssSampler(threading.Thread):
    """Polls a process's resident memory while an export streams."""

    def __init__(self, pid: int, every: float = 0.01):
        super().__init__(daemon=True)
        self.pid, self.every = pid, every
        self.peak = 0.0
        self.running = True

    def run(self) -> None:
        while self.running:
            rss = servers.memory(self.pid)["rss_mb"] or 0.0
            self.peak = max(self.peak, rss)
            time.sleep(self.every)

    def stop(self) -> float:
        self.running = False
        self.join()
        return self.peak


async def measure(target: Target, event_id: int, organizer_key: str, playing_games: list[int],
                  worker_pid: int, repeats: int, restart=None) -> dict:
    """Leaderboard reads (cold, warm, 304, after a hand) and the hands CSV export.
    `restart`: stops the workers and returns (seconds until a new one answered, the new
    worker's pid), for the first read after a worker starts."""
    recorder = Recorder()
    path = f"/api/events/{event_id}/leaderboard"
    auth = {"Authorization": f"Bearer {organizer_key}"}
    out: dict = {}
    # Cold: the first read in each process (nothing cached there yet).
    gz = GZIP  # as a browser asks
    for i in range(len(target.ports)):
        conn = target.conn(i)
        response = await timed(conn, recorder, "leaderboard cold (first read)", "GET", path,
                               headers=gz)
        if response is not None:
            out["leaderboard_bytes"] = len(response.text_body())
            out["leaderboard_gzip_bytes"] = response.size
            etag = response.headers.get("etag")
        conn.close()
    if restart is not None:
        # A worker started while the event is in play (a deploy, a crash): it builds the
        # board before taking requests, so its first read should find it ready.
        seconds, worker_pid = restart()
        out["worker_restart_s"] = round(seconds, 2)
        conn = target.conn(0)
        await timed(conn, recorder, "leaderboard first read after a worker start", "GET",
                    path, headers=gz)
        conn.close()
    conn = target.conn(0)
    for _ in range(repeats):
        await timed(conn, recorder, "leaderboard warm 200", "GET", path, headers=gz)
    for _ in range(repeats):
        await timed(conn, recorder, "leaderboard 304", "GET", path, expect=(304,),
                    headers={**gz, "If-None-Match": etag})
    # A hand changes the revision. The next poll (as a phone makes it, with the ETag of the
    # board it has) gets that board or the new one at once; the new board is built behind the
    # polls (POLL_BUILD_BEHIND_MS) and shows to the polls that follow, every 10 ms here.
    rng = random.Random(11)
    new_board = []
    for i in range(min(repeats, 10)):
        game = playing_games[i % len(playing_games)]
        body = random_hand(rng, f"bigx-{uuid.uuid4().hex[:10]}")
        await timed(conn, recorder, "hand POST (big event)", "POST",
                    f"/api/games/{game}/hands", expect=(201,), headers={**auth, **JSON},
                    body=body)
        posted = time.perf_counter()
        poll = {**gz, "If-None-Match": etag}
        response = await timed(conn, recorder, "leaderboard after a hand", "GET", path,
                               headers=poll, expect=(200, 304))
        while time.perf_counter() - posted < 5:
            if response is not None and response.status == 200 and \
                    response.headers.get("etag") != etag:
                new_board.append(time.perf_counter() - posted)
                etag = response.headers.get("etag")
                break
            await asyncio.sleep(0.01)
            response = await timed(conn, recorder, "leaderboard poll until the new board",
                                   "GET", path, headers=poll, expect=(200, 304))
        else:
            recorder.error("new board after a hand", "not seen within 5 s")
    new_board.sort()
    out["new_board_ms"] = {
        "count": len(new_board),
        "p50": round(1000 * new_board[len(new_board) // 2], 1) if new_board else None,
        "max": round(1000 * new_board[-1], 1) if new_board else None,
    }
    conn.close()
    # The export, streamed to nowhere, with the worker's memory watched.
    await asyncio.sleep(0.5)
    before = servers.memory(worker_pid)
    peak_reset = servers.reset_peak(worker_pid)
    sampler = RssSampler(worker_pid)
    sampler.start()
    conn = target.conn(0)
    start = time.perf_counter()
    response = await timed(conn, recorder, "export hands.csv", "GET",
                           f"/api/events/{event_id}/export/hands.csv", headers=auth,
                           discard_body=True, timeout=900)
    seconds = time.perf_counter() - start
    conn.close()
    sampled_peak = sampler.stop()
    after = servers.memory(worker_pid)
    out["export"] = {
        "seconds": round(seconds, 2),
        "mb": round(response.size / 1e6, 1) if response else None,
        "worker_rss_before_mb": before["rss_mb"], "worker_rss_after_mb": after["rss_mb"],
        "worker_peak_during_mb": after["peak_mb"] if peak_reset else sampled_peak,
        "worker_peak_sampled_mb": sampled_peak,
        "peak_growth_mb": round((after["peak_mb"] if peak_reset else sampled_peak)
                                - (before["rss_mb"] or 0), 1),
    }
    out["requests"] = recorder.summary()
    return out
