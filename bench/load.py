"""The load: an event set up over HTTP, runners entering hands at table pace and in bursts,
viewers polling the leaderboard with If-None-Match, an organizer closing and seating rounds;
and the closed-loop phases that find how much of each the server can take.

Every phase is bounded by a deadline (and so in count); tasks stop starting requests when it
passes and finish the one in flight, so the event is consistent between phases.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import threading
import time
import uuid
from dataclasses import dataclass, field

from .http import Connection, LoopLag, Recorder, percentile, run_measured, timed

JSON = {"Content-Type": "application/json"}
# What a browser sends: leaderboards come gzipped (the static read ceiling serves them so too).
GZIP = {"Accept-Encoding": "gzip, deflate, br"}
# Tricks the makers take, as often as at a real table (3 and 4 most, a march often enough).
TRICKS = (0, 1, 2, 3, 4, 5)
TRICK_WEIGHTS = (2, 3, 10, 38, 27, 20)


@dataclass
class Target:
    """Where requests go: one port per gunicorn master; connection i uses port i mod n, so
    load is spread evenly (as a load balancer in front of n app instances would)."""

    ports: list[int]
    host: str = "127.0.0.1"

    def conn(self, i: int) -> Connection:
        return Connection(self.host, self.ports[i % len(self.ports)])


@dataclass
class Table:
    game_id: int
    seats: dict[int, int | None]  # seat -> player id


@dataclass
class EventState:
    """The event under load, as the organizer and the runners know it."""

    event_id: int
    organizer_key: str
    runner_keys: dict[int, str] = field(default_factory=dict)
    round_no: int = 0
    round_id: int = 0
    tables: dict[int, Table] = field(default_factory=dict)
    done: set[int] = field(default_factory=set)  # tables whose game of this round is over
    transitions: list[dict] = field(default_factory=list)
    # asyncio objects, made anew in each phase's event loop
    round_event: asyncio.Event | None = None
    all_done: asyncio.Event | None = None

    @property
    def board_path(self) -> str:
        return f"/api/events/{self.event_id}/leaderboard"

    def organizer(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.organizer_key}"}

    def install_round(self, view: dict) -> None:
        self.round_no, self.round_id = view["number"], view["id"]
        self.tables = {t["table"]: Table(t["games"][0]["id"],
                                         {s["seat"]: s["player_id"] for s in t["seats"]})
                       for t in view["tables"]}
        self.done = {t["table"] for t in view["tables"] if t["status"] == "over"}

    def new_loop(self) -> None:
        self.round_event = asyncio.Event()
        self.all_done = asyncio.Event()
        if len(self.done) >= len(self.tables):
            self.all_done.set()

    def table_done(self, table: int) -> None:
        self.done.add(table)
        if len(self.done) >= len(self.tables):
            self.all_done.set()


async def wait_until(event: asyncio.Event, deadline: float) -> bool:
    left = deadline - time.monotonic()
    if left <= 0:
        return event.is_set()
    try:
        await asyncio.wait_for(event.wait(), left)
    except TimeoutError:
        return False
    return True


async def sleep_until(moment: float) -> None:
    left = moment - time.monotonic()
    if left > 0:
        await asyncio.sleep(left)


def _check(response, what: str) -> dict:
    if response is None:
        raise RuntimeError(f"setting up the event failed at: {what}")
    return response.json()


# --- setting up the event -------------------------------------------------------------------

async def setup_event(target: Target, runners: int, recorder: Recorder) -> EventState:
    """A progressive tournament of 4 x runners checked-in players (no ghost seats), round 1
    seated, and one table-limited runner key per table, all over HTTP."""
    conn = target.conn(0)
    body = json.dumps({"name": "Benchmark night", "preset": "progressive",
                       "overrides": {"rounds": 60}}).encode()
    event = _check(await timed(conn, recorder, "setup: create event", "POST", "/api/events",
                               expect=(201,), headers=JSON, body=body), "create event")
    state = EventState(event["id"], event["organizer_key"])
    csv = "name,checked_in\n" + "".join(f"Player {i:04d},yes\n"
                                         for i in range(1, 4 * runners + 1))
    _check(await timed(conn, recorder, "setup: import players", "POST",
                       f"/api/events/{state.event_id}/import", expect=(201,),
                       headers={**state.organizer(), "Content-Type": "text/csv"},
                       body=csv.encode()), "import players")
    view = _check(await timed(conn, recorder, "round seat", "POST",
                              f"/api/events/{state.event_id}/rounds", expect=(201,),
                              headers={**state.organizer(), **JSON},
                              body=b'{"number": 1}'), "seat round 1")
    state.install_round(view)
    for table in state.tables:
        key = _check(await timed(conn, recorder, "setup: runner key", "POST",
                                 f"/api/events/{state.event_id}/keys", expect=(201,),
                                 headers={**state.organizer(), **JSON},
                                 body=json.dumps({"table": table,
                                                  "label": f"table {table}"}).encode()),
                     "runner key")
        state.runner_keys[table] = key["key"]
    conn.close()
    return state


# --- the people -----------------------------------------------------------------------------

def random_hand(rng: random.Random, hand_id: str) -> bytes:
    tricks = rng.choices(TRICKS, TRICK_WEIGHTS)[0]
    body = {"id": hand_id, "maker": rng.choice("AB"), "tricks": tricks,
            "alone": tricks == 5 and rng.random() < 0.15}
    return json.dumps(body).encode()


@dataclass
class Pace:
    """How a runner enters hands: think time between hands, and now and then a burst (the
    phone's outbox flushing hands queued while the bar's wifi was down)."""

    think: tuple[float, float] | None = (2.0, 5.0)  # None: no think time (closed loop)
    burst_chance: float = 0.1
    burst: tuple[int, int] = (3, 5)
    replay_chance: float = 0.02  # a hand sent again with the same id (lost answer)


async def runner(table: int, state: EventState, target: Target, recorder: Recorder,
                 deadline: float, rng: random.Random, pace: Pace,
                 hand_log: list | None, arrive_within: float = 0.0) -> None:
    """One table's runner: plays its table's game of each round, hand by hand (arriving at a
    random moment within the first `arrive_within` seconds)."""
    await sleep_until(min(time.monotonic() + rng.uniform(0, arrive_within), deadline))
    conn = target.conn(table)
    auth = {"Authorization": f"Bearer {state.runner_keys[table]}", **JSON}
    played_round = 0
    prefix = uuid.uuid4().hex[:8]
    count = 0
    while time.monotonic() < deadline:
        if table in state.done or state.round_no == played_round:
            if not await wait_until(state.round_event, deadline):
                break
            continue
        played_round, info = state.round_no, state.tables[table]
        game = await timed(conn, recorder, "game GET", "GET", f"/api/games/{info.game_id}")
        if game is not None and game.json()["over"]:
            state.table_done(table)
            continue
        over = False
        while not over and time.monotonic() < deadline:
            hands = 1
            if pace.think is not None:
                # The first wait of a phase: the table is somewhere in its hand already.
                think = rng.uniform(0, pace.think[1]) if count == 0 else rng.uniform(*pace.think)
                await sleep_until(min(time.monotonic() + think, deadline))
                if time.monotonic() >= deadline:
                    break
                if rng.random() < pace.burst_chance:
                    hands = rng.randint(*pace.burst)
            for _ in range(hands):
                count += 1
                body = random_hand(rng, f"b{prefix}-{table}-{count}")
                path = f"/api/games/{info.game_id}/hands"
                view = await timed(conn, recorder, "hand POST", "POST", path, expect=(201,),
                                   headers=auth, body=body)
                tries = 0
                while view is None and tries < 5 and time.monotonic() < deadline:
                    tries += 1  # the outbox sends the same hand (same id) again
                    await asyncio.sleep(0.5)
                    view = await timed(conn, recorder, "hand POST retry", "POST", path,
                                       expect=(200, 201), headers=auth, body=body)
                if view is None:
                    break
                answered = time.monotonic()
                game = view.json()
                if hand_log is not None and view.status == 201:
                    hand_log.append((answered, played_round, info.seats[1], game["points"]["A"],
                                     info.seats[2], game["points"]["B"]))
                if rng.random() < pace.replay_chance:
                    await timed(conn, recorder, "hand replay", "POST", path, expect=(200,),
                                headers=auth, body=body)
                if game["over"]:
                    if game["needs_settlement"]:
                        await timed(conn, recorder, "settlement", "POST",
                                    f"/api/games/{info.game_id}/settlement", expect=(200,),
                                    headers=auth,
                                    body=b'{"method": "card-draw", "winner": "A"}')
                    over = True
                    break
        if over:
            state.table_done(table)
    conn.close()


async def organizer(state: EventState, target: Target, recorder: Recorder,
                    deadline: float) -> None:
    """Closes each round when every game is over and seats the next (the full movement)."""
    conn = target.conn(0)
    headers = {**state.organizer(), **JSON}
    while time.monotonic() < deadline:
        if not await wait_until(state.all_done, deadline):
            break
        start = time.monotonic()
        closed = await timed(conn, recorder, "round close", "POST",
                             f"/api/rounds/{state.round_id}/close", headers=headers)
        if closed is None:
            break
        seated = await timed(conn, recorder, "round seat", "POST",
                             f"/api/events/{state.event_id}/rounds", expect=(201,),
                             headers=headers,
                             body=json.dumps({"number": state.round_no + 1}).encode())
        if seated is None:
            break
        state.install_round(seated.json())
        state.transitions.append({"round": state.round_no,
                                  "seconds": round(time.monotonic() - start, 3)})
        previous, state.round_event = state.round_event, asyncio.Event()
        state.all_done = asyncio.Event()
        previous.set()
    conn.close()


class Probe:
    """A viewer that also reads the leaderboards it gets, to time when each new hand shows:
    a hand is visible once both sides' players show at least the game's points after it."""

    def __init__(self, hand_log: list):
        self.log = hand_log
        self.next = len(hand_log)  # only hands answered after this viewer started
        self.unseen: dict[int, tuple] = {}
        self.lags: list[float] = []

    def check(self, response, received: float) -> None:
        while self.next < len(self.log):
            self.unseen[self.next] = self.log[self.next]
            self.next += 1
        if not self.unseen:
            return
        rows = {r["entrant_id"]: r["rounds"] for r in response.json()["rows"]}
        for index, (answered, rnd, player_a, points_a, player_b, points_b) in \
                list(self.unseen.items()):
            key = str(rnd)
            if rows.get(player_a, {}).get(key, -1) >= points_a and \
                    rows.get(player_b, {}).get(key, -1) >= points_b:
                self.lags.append(max(0.0, received - answered))
                del self.unseen[index]

    def stale(self, older_than: float) -> int:
        """Hands answered before `older_than` that this viewer never saw."""
        return sum(1 for entry in self.unseen.values() if entry[0] < older_than)


async def viewer(number: int, board_path: str, target: Target, recorder: Recorder,
                 deadline: float, rng: random.Random, interval: tuple[float, float],
                 probe: Probe | None) -> None:
    """A phone (or the projector) polling the leaderboard with If-None-Match."""
    conn = target.conn(number)
    etag = None
    await sleep_until(time.monotonic() + rng.uniform(0, interval[1]))
    while time.monotonic() < deadline:
        headers = {**GZIP, "If-None-Match": etag} if etag else GZIP
        start = time.perf_counter()
        try:
            response = await conn.request("GET", board_path, headers)
        except Exception as exc:  # noqa: BLE001 (any failure is an error to count)
            recorder.error("leaderboard poll", f"{type(exc).__name__}: {exc}")
        else:
            seconds = time.perf_counter() - start
            if response.status == 200:
                recorder.ok("leaderboard 200", seconds, 200, response.size)
                etag = response.headers.get("etag")
                if probe is not None:
                    probe.check(response, time.monotonic())
            elif response.status == 304:
                recorder.ok("leaderboard 304", seconds, 304)
            else:
                recorder.error("leaderboard poll", f"status {response.status}",
                               status=response.status, seconds=seconds)
        await sleep_until(min(time.monotonic() + rng.uniform(*interval), deadline))
    conn.close()


# --- phases ---------------------------------------------------------------------------------

async def live_phase(state: EventState, target: Target, runners: int, viewers: int,
                     seconds: float, pace: Pace, interval: tuple[float, float],
                     probes: int, seed: int,
                     probe_interval: tuple[float, float] | None = None,
                     warmup: float = 0.0) -> dict:
    """The realistic event: runners at table pace with bursts, viewers polling, the organizer
    moving rounds on. Returns the recorder's summary and the visibility lags.

    The viewers poll from a process of their own, as phones are devices of their own: in one
    event loop with the runners, reading a thousand phones' answers (and the probes parsing
    800-player boards) held a runner's answer back by up to 45-70 ms at times, which was
    then timed as the server's. Each process reports how late its own loop ran.

    The first `probes` viewers also time when each new hand shows; they poll every
    `probe_interval` seconds (default: as the other viewers), so the lag they measure is the
    server's delay plus at most one of their own polling intervals.

    Runners and viewers arrive over the first `warmup` seconds, and the requests started in
    them are not timed: the figures are those of the event under way."""
    state.new_loop()
    rng = random.Random(seed)
    runner_seeds = [rng.random() for _ in sorted(state.tables)[:runners]]
    viewing = Viewing(target.ports, target.host, state.board_path, viewers, interval,
                      min(probes, viewers), probe_interval or interval,
                      [rng.random() for _ in range(viewers)], warmup)
    others = viewing.start() if viewers else NoViewers()
    recorder = Recorder(warmup)
    deadline = time.monotonic() + seconds
    hand_log = others.hand_log()
    others.go(deadline)
    tasks = [organizer(state, target, recorder, deadline)]
    tasks += [runner(t, state, target, recorder, deadline, random.Random(s), pace, hand_log,
                     warmup) for t, s in zip(sorted(state.tables)[:runners], runner_seeds,
                                              strict=True)]
    loop_lag = LoopLag()
    tasks.append(loop_lag.watch(deadline))
    await asyncio.gather(*tasks)
    recorder.stop()
    seen = others.result()
    lags = seen["lags"]
    timed = seconds - warmup
    return {
        "requests": {**recorder.summary(timed), **seen["requests"]},
        "warmup_seconds": warmup,
        "hands_entered": len(hand_log),
        "hands_per_second": round(len(hand_log) / seconds, 2),
        "client_loop_lag": loop_lag.summary(),
        "viewers_loop_lag": seen["loop_lag"],
        "viewers_cpu_seconds": seen["cpu_seconds"],
        "visibility": {
            "probe_viewers": seen["probe_viewers"], "samples": len(lags),
            "probe_poll_seconds": list(probe_interval or interval),
            "p50_ms": _ms(percentile(lags, 50)), "p99_ms": _ms(percentile(lags, 99)),
            "max_ms": _ms(lags[-1] if lags else None),
            "within_2s_pct": round(100 * sum(1 for x in lags if x < 2.0) / len(lags), 2)
            if lags else None,
            "never_seen_after_3s": seen["stale"],
        },
    }


@dataclass
class Viewing:
    """The viewers of a live phase, polling from a process of their own (`start`), told of
    each hand answered (for the probes) through a queue as the runners log it."""

    ports: list[int]
    host: str
    board_path: str
    viewers: int
    interval: tuple[float, float]
    probes: int
    probe_interval: tuple[float, float]
    seeds: list[float]
    warmup: float

    def start(self) -> ViewingProcess:
        context = multiprocessing.get_context("spawn")  # nothing of this loop is inherited
        hands, out = context.Queue(), context.Queue()
        process = context.Process(target=_view, args=(self, hands, out), daemon=True,
                                  name="bench-viewers")
        process.start()
        if out.get(timeout=60) != "ready":  # imported, so the phase starts with everyone
            raise RuntimeError("the viewers' process did not start")
        return ViewingProcess(process, hands, out)

    async def watch(self, hand_log: list, deadline: float) -> dict:
        target = Target(self.ports, self.host)
        recorder = Recorder(self.warmup)
        probe_list = [Probe(hand_log) for _ in range(self.probes)]
        tasks = [viewer(v, self.board_path, target, recorder, deadline,
                        random.Random(self.seeds[v]),
                        self.probe_interval if v < self.probes else self.interval,
                        probe_list[v] if v < self.probes else None)
                 for v in range(self.viewers)]
        loop_lag = LoopLag()
        tasks.append(loop_lag.watch(deadline))
        await asyncio.gather(*tasks)
        recorder.stop()
        cutoff = deadline - 3.0  # hands answered in the last 3 s may not have been polled yet
        seconds = deadline - recorder.started
        return {"requests": recorder.summary(seconds - self.warmup),
                "lags": sorted(x for p in probe_list for x in p.lags),
                "stale": sum(p.stale(cutoff) for p in probe_list),
                "probe_viewers": len(probe_list), "loop_lag": loop_lag.summary()}


class HandLog(list):
    """The runners' log of answered hands, each also sent to the viewers' process."""

    def __init__(self, queue):
        super().__init__()
        self.queue = queue

    def append(self, entry) -> None:
        super().append(entry)
        self.queue.put(entry)


@dataclass
class ViewingProcess:
    process: multiprocessing.Process
    hands: object  # multiprocessing queues
    out: object

    def hand_log(self) -> list:
        return HandLog(self.hands)

    def go(self, deadline: float) -> None:
        self.hands.put(deadline)  # time.monotonic() is the machine's, the same in both

    def result(self) -> dict:
        self.hands.put(None)
        result = self.out.get(timeout=120)
        self.process.join(30)
        return result


class NoViewers:
    """A phase without viewers: nobody to tell of the hands, nothing seen."""

    def hand_log(self) -> list:
        return []

    def go(self, deadline: float) -> None:
        pass

    def result(self) -> dict:
        return {"requests": {}, "lags": [], "stale": 0, "probe_viewers": 0,
                "loop_lag": None, "cpu_seconds": 0.0}


def _view(viewing: Viewing, hands, out) -> None:
    """The viewers' process: wait for the phase's deadline, poll until it, report."""
    out.put("ready")
    deadline = hands.get()
    hand_log: list = []

    def receive() -> None:
        while (entry := hands.get()) is not None:
            hand_log.append(entry)

    receiver = threading.Thread(target=receive, daemon=True)
    receiver.start()
    result = run_measured(viewing.watch(hand_log, deadline))
    receiver.join(30)
    result["cpu_seconds"] = time.process_time()
    out.put(result)


async def write_phase(state: EventState, target: Target, runners: int,
                      seconds: float, seed: int) -> dict:
    """Closed loop: every runner enters its next hand as soon as the last one is answered."""
    state.new_loop()
    recorder = Recorder()
    before = len(state.transitions)
    deadline = time.monotonic() + seconds
    rng = random.Random(seed)
    pace = Pace(think=None, replay_chance=0.0)
    tasks = [organizer(state, target, recorder, deadline)]
    tasks += [runner(t, state, target, recorder, deadline, random.Random(rng.random()), pace,
                     None) for t in sorted(state.tables)[:runners]]
    await asyncio.gather(*tasks)
    recorder.stop()
    moving = sum(t["seconds"] for t in state.transitions[before:])
    summary = recorder.summary(seconds)
    hands = summary.get("hand POST", {}).get("count", 0)
    return {"requests": summary, "hands": hands,
            "hands_per_second": round(hands / seconds, 1),
            "round_transitions": len(state.transitions) - before,
            "transition_seconds": round(moving, 2),
            "hands_per_second_excluding_transitions":
                round(hands / max(seconds - moving, 1e-9), 1)}


async def read_phase(target: Target, path: str, headers: dict | None, connections: int,
                     seconds: float, kind: str, expect: int,
                     recorder: Recorder | None = None) -> dict | None:
    """Closed loop: `connections` clients each asking again as soon as answered. With a
    `recorder` given, adds to it (one slice of an interleaved measurement) and returns None."""
    slice_of = recorder is not None
    recorder = recorder or Recorder()
    deadline = time.monotonic() + seconds

    async def loop(i: int) -> None:
        conn = target.conn(i)
        while time.monotonic() < deadline:
            await timed(conn, recorder, kind, "GET", path, expect=(expect,), headers=headers)
        conn.close()

    await asyncio.gather(*(loop(i) for i in range(connections)))
    if slice_of:
        return None
    recorder.stop()
    return recorder.summary(seconds)[kind]


async def fetch(target: Target, path: str, headers: dict | None = None):
    conn = target.conn(0)
    try:
        return await conn.request("GET", path, headers, timeout=120)
    finally:
        conn.close()


async def drain(target: Target, limit: float = 180.0) -> float:
    """Wait until every app process answers a cheap request quickly again (after an overload
    its queue of requests whose clients gave up still has to be worked off); returns the
    seconds it took."""
    start = time.monotonic()
    for i in range(len(target.ports)):
        conn = target.conn(i)
        while time.monotonic() - start < limit:
            asked = time.monotonic()
            try:
                await conn.request("GET", "/api/presets", timeout=limit)
            except Exception:  # noqa: BLE001
                await asyncio.sleep(1)
                continue
            if time.monotonic() - asked < 0.1:
                break
            await asyncio.sleep(0.5)
        conn.close()
    return round(time.monotonic() - start, 1)


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)
