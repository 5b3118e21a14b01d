"""Fuzzing every operation of the OpenAPI document with schemathesis, in-process (WSGI).

Every case must answer without a 5xx, every error must be problem+json whose `status` is the
HTTP status, and every answer must match the documented status codes, content types, headers
and schemas (schemathesis's checks, all of them).

The cases run against the seeded world of world.py, as its organizers: a request naming an
event, round, match or game of the world carries that event's organizer key, so the fuzzer
gets past authorization into the services. Path parameters and body ids are drawn from the
world's real ids and codes half the time (random values the other half), and edits and
deletes of hands carry the game's current version in If-Match, so the cases reach the
rules and the database, not only the 404s.

Two groups:
- a smoke run of a few cases per operation (SQLite, no coverage phase), always on;
- the full run, slow-marked (`--run-slow`, or CI=true): FUZZ_EXAMPLES cases per operation
  (default 10) plus schemathesis's coverage phase (boundary values and every kind of wrong
  input), on PostgreSQL: the stricter of the two databases (a 32-bit integer column, no NUL
  in text), where out-of-range values show first. The coverage phase is four fifths of the
  cases; run on SQLite too it doubled the fuzz run's time (about 3 minutes of CI) and had
  found nothing there that PostgreSQL had not. `pytest tests/security/test_fuzz.py
  --run-slow -k "every and sqlite" --fuzz-everywhere` runs it on SQLite as well.

Each run is seeded (hypothesis `derandomize`), so CI sees the same cases every time; set
FUZZ_SEED to another number to explore further. The counts are printed at the end of the run.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, seed, settings
from schemathesis.core.failures import FailureGroup, as_reported_failure
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.pytest._test_builder import build_operation_test
from schemathesis.python._constants.orchestrator import make_constants_value_source
from schemathesis.specs.openapi.checks import negative_data_rejection
from sqlalchemy import select

from api import create_app
from api.core.db import db
from api.core.models import Game
from api.problems import PROBLEM_JSON

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
FUZZ_SEED = os.environ.get("FUZZ_SEED")
SMOKE_EXAMPLES = 3

# Statuses a request valid by the schema may get: besides success, the refusals the contract
# names (401/403 keys, 404 unknown ids, 409 conflicts with the game's state, 412 a stale
# If-Match, 422 a hand the rules refuse (the schema cannot know the score), 428 no If-Match).
POSITIVE = ["2xx", "304", "401", "403", "404", "409", "412", "422", "428"]
# A missing required header: If-Match is the one, and its absence is a 428 (RFC 6585).
MISSING_HEADER = ["400", "401", "403", "406", "415", "422", "428"]
# Invalid input is refused; a body past the size limit before it is read (413), an edit
# with a stale If-Match before its body is looked at (412, as RFC 9110 orders it).
NEGATIVE = ["400", "401", "403", "404", "405", "406", "409", "412", "413", "415", "422",
            "428"]


# The document the fuzzer reads, from an app over an in-memory database (only for its document):
# its operations are the tests' parameters.
DOCUMENT_APP = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})
DOCUMENT = DOCUMENT_APP.test_client().get("/api/openapi.json").get_json()
OPERATIONS = sorted((method.upper(), path) for path, item in DOCUMENT["paths"].items()
                    for method in item if method in {"get", "put", "post", "delete", "patch"})


def load_schema(*, coverage: bool):
    config = schemathesis.Config.from_dict({
        "checks": {
            "positive_data_acceptance": {"expected-statuses": POSITIVE},
            "missing_required_header": {"expected-statuses": MISSING_HEADER},
            "negative_data_rejection": {"expected-statuses": NEGATIVE},
        },
        "phases": {"coverage": {"enabled": coverage}},
    })
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", DOCUMENT_APP, config=config)
    # The constants of the app's code the generator draws from, found once per schema.
    return schema, FeedbackSources(constants_value_source=make_constants_value_source(schema))


@pytest.fixture(scope="session")
def full_schema():
    return load_schema(coverage=True)


@pytest.fixture(scope="session")
def smoke_schema():
    return load_schema(coverage=False)


def fuzz(loaded, method: str, path: str, examples: int, target) -> None:
    """Run one operation's cases through `run_case`: the test schemathesis' `parametrize()`
    makes of it (its coverage phase's cases, then `examples` random ones), built here, on the
    worker that runs it. Built at collection, as `parametrize()` builds every operation's,
    each xdist worker spent about 6 s of CPU building all of them (the coverage phase's
    cases are made as the test is built), whichever tests it then ran.
    `schemathesis.pytest.from_fixture`, the public way to build at run time, fails under
    pytest 9.2 (schemathesis 4.32), hence its builder; failures are reported as it does."""
    schema, feedback = loaded

    @seeded
    @settings(max_examples=examples, **SETTINGS)
    def test_operation(case, target):
        run_case(case, target)

    test = build_operation_test(config=schema.config, operation=schema[path][method],
                                test_func=test_operation, given_kwargs={},
                                feedback=feedback)
    try:
        test(target=target)
    except FailureGroup as failures:
        raise as_reported_failure(failures) from None


# What the run saw, printed by pytest_terminal_summary in conftest.py.
TALLY: Counter = Counter()


# --- the world the cases point into ---------------------------------------------------------

# Path parameter -> the table whose ids (or other column) it names.
ID_SOURCES = {"event_id": ("events", "id"), "game_id": ("games", "id"),
              "round_id": ("rounds", "id"), "match_id": ("matches", "id"),
              "player_id": ("players", "id"), "team_id": ("teams", "id"),
              "key_id": ("api_keys", "id"), "hand_id": ("hands", "id"),
              "code": ("events", "code")}
FIXED_CHOICES = {"name": ["hands", "games", "standings", "scoresheets"],
                 "kind": ["join", "board", "projector"],
                 "key": ["progressive", "league", "teams", "wec-singles", "wec-doubles"],
                 # A league's week (a forfeit ahead taken back): the seeded league's first
                 # weeks, week 1 under way.
                 "week": [1, 2, 3]}
BODY_IDS = {"player_id": "players", "team_id": "teams"}


class Target:
    """The app under test and what the world holds (a short repr: hypothesis prints it)."""

    def __init__(self, app, world, rows):
        self.app = app
        self.organizers = {s.id: s.organizer for s in world.values()}
        self.choices = {name: sorted({row[column] for row in rows[table]})
                        for name, (table, column) in ID_SOURCES.items()}
        self.choices.update(FIXED_CHOICES)
        self.body_ids = {name: sorted(row["id"] for row in rows[table])
                         for name, table in BODY_IDS.items()}
        self.event_of = {(name, row["id"]): row["event_id"]
                         for name, table in (("game_id", "games"), ("round_id", "rounds"),
                                             ("match_id", "matches"))
                         for row in rows[table]}

    def __repr__(self):
        return "Target()"

    def version(self, game_id) -> int | None:
        """The game's version, as its ETag gives it (api/routes/games.py), read from its row:
        a GET of the game built the whole game for that number (a tenth of the cases' time
        in the operations that take If-Match)."""
        if not isinstance(game_id, int) or not 0 < game_id < 2**31:
            return None
        with self.app.app_context(), db.engine.connect() as conn:
            return conn.execute(select(Game.version).where(Game.id == game_id)).scalar()

    def organizer_for(self, path_parameters: dict) -> str:
        """The organizer key of the event the path names (the first seeded event's if none)."""
        event = path_parameters.get("event_id")
        for name, value in path_parameters.items():
            event = self.event_of.get((name, value), event)
        return self.organizers.get(event, next(iter(self.organizers.values())))


@pytest.fixture
def target(app, world, world_rows):
    return Target(app, world, world_rows)


def aim(case, target: Target, rng: random.Random) -> None:
    """Point a valid case at the world: half its ids become real ones. Only where the case
    is valid: an invalid one must stay invalid, or refusing it would look like a bug."""
    if case.path_parameters and not case.meta.is_negative_at(ParameterLocation.PATH):
        for name in case.path_parameters:
            if target.choices.get(name) and rng.random() < 0.5:
                case.path_parameters[name] = rng.choice(target.choices[name])
    if isinstance(case.body, dict) and not case.meta.is_negative_at(ParameterLocation.BODY):
        for name in case.body:
            if target.body_ids.get(name) and rng.random() < 0.5:
                case.body[name] = rng.choice(target.body_ids[name])


# --- the checks and the call ----------------------------------------------------------------

def problem_json(ctx, response, case):
    """Every error is RFC 9457 problem+json, its `status` the HTTP status, with a `detail`."""
    if response.status_code < 400:
        return None
    media = response.headers.get("content-type", [""])[0].split(";")[0].strip()
    assert media == PROBLEM_JSON, f"a {response.status_code} answered as {media!r}"
    body = response.json()
    assert body.get("status") == response.status_code, body
    assert body.get("title") and body.get("detail"), body
    return None


def run_case(case, target: Target) -> None:
    rng = random.Random(f"{case.method} {case.path} {case.path_parameters} {case.body!r}")
    aim(case, target, rng)
    parameters = case.path_parameters or {}
    # Schemathesis' WSGI calls ask for gzip but do not decode it (a browser would): the
    # leaderboard is gzipped for clients that take it, so ask for the plain body.
    headers = {"Authorization": f"Bearer {target.organizer_for(parameters)}",
               "Accept-Encoding": "identity"}
    if "If-Match" in (case.headers or {}) and \
            not case.meta.is_negative_at(ParameterLocation.HEADER) and rng.random() < 0.5:
        # Half the valid edits and deletes carry the game's real version: past If-Match.
        version = target.version(parameters.get("game_id"))
        if version is not None:
            headers["If-Match"] = f'"{version}"'
    response = case.call(app=target.app, headers=headers)
    TALLY["cases"] += 1
    TALLY[f"{response.status_code // 100}xx"] += 1
    if response.status_code >= 500:
        TALLY["server errors"] += 1
    case.validate_response(response, headers=headers, additional_checks=[problem_json],
                           excluded_checks=_unknown_query_only(case))


def _unknown_query_only(case) -> list:
    """An unknown query parameter is ignored, as HTTP intends (a cache-busting `_=1` must not
    break a read); only the declared ones are checked. A case made negative by extra query
    parameters is still sent and checked for everything else (no 5xx, problem+json, the
    answer's schema), but not for being refused."""
    declared = {parameter.name for parameter in case.operation.query}
    extra = set(case.query or {}) - declared
    if extra and case.meta is not None and case.meta.is_negative_at(ParameterLocation.QUERY):
        return [negative_data_rejection]
    return []


SETTINGS = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck),
                print_blob=False, derandomize=FUZZ_SEED is None)


def seeded(test):
    return seed(int(FUZZ_SEED))(test) if FUZZ_SEED is not None else test


OPERATION_IDS = [f"{method} {path}" for method, path in OPERATIONS]


@pytest.mark.slow
@pytest.mark.parametrize("app", ["postgres", "sqlite"], indirect=True)
@pytest.mark.parametrize("method, path", OPERATIONS, ids=OPERATION_IDS)
def test_fuzz_every_operation(full_schema, method, path, target):
    fuzz(full_schema, method, path, FUZZ_EXAMPLES, target)  # SQLite: --fuzz-everywhere


@pytest.mark.parametrize("app", ["sqlite"], indirect=True)
@pytest.mark.parametrize("method, path", OPERATIONS, ids=OPERATION_IDS)
def test_fuzz_smoke(smoke_schema, method, path, target):
    fuzz(smoke_schema, method, path, SMOKE_EXAMPLES, target)
