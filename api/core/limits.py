"""Rate limits kept in the database, so they hold across every worker and process: how many
times something happened in a bucket's current window, counted with one atomic statement.

A bucket is a name such as "pin:12:203.0.113.7" (wrong join PINs at event 12 from one address) or
"create:203.0.113.7" (events made from one address). A window starts at a bucket's first
count and lasts `window` seconds; the first count after it ends starts a new one.

To hold a limit exactly when one address sends many requests at once (over several workers
and events), a use case counts first and checks the count it got (`take`): the counting
statement holds the bucket's row until the transaction ends, so the next request from that
address waits and sees one more. A refusal rolls its own count back with the transaction.

Some buckets slow a client down instead of stopping it for a window (`failed`, `wait_left`):
they keep the time of the last failure and how many came in a row; past a free allowance each
further try waits a little longer, doubling up to a longest wait, and a quiet spell forgets
them.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from sqlalchemy import case, delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from .db import db
from .errors import TooManyAttempts
from .models import RateLimit, utcnow


def _aware(moment: datetime, now: datetime) -> datetime:
    return moment.replace(tzinfo=now.tzinfo) if moment.tzinfo is None else moment


def _upsert(bucket: str, window: int, by: int, restamp: bool) -> int:
    now = utcnow()
    cutoff = now - timedelta(seconds=window)
    table = RateLimit.__table__
    insert = (postgresql.insert if db.session.get_bind().dialect.name == "postgresql"
              else sqlite.insert)(table)
    expired = table.c.window_start < cutoff
    stamp = insert.excluded.window_start if restamp else case(
        (expired, insert.excluded.window_start), else_=table.c.window_start)
    statement = insert.values(bucket=bucket, window_start=now, attempts=by).on_conflict_do_update(
        index_elements=[table.c.bucket],
        set_={"attempts": case((expired, by), else_=table.c.attempts + by),
              "window_start": stamp},
    ).returning(table.c.attempts)
    return db.session.execute(statement).scalar_one()


def count(bucket: str, window: int, by: int = 1) -> int:
    """`by` more in the bucket's current window (a new window if the last has ended); returns
    the count now. One statement, so two workers counting at once both count."""
    return _upsert(bucket, window, by, restamp=False)


def failed(bucket: str, forget: int) -> int:
    """One more failure in a row for a slowed bucket, now (the row starts again when the last
    failure was `forget` seconds ago or more); returns how many in a row."""
    return _upsert(bucket, forget, 1, restamp=True)


def wait_left(bucket: str, free: int, longest: int, forget: int) -> int:
    """Seconds a slowed bucket must still wait before its next try: none after fewer than
    `free` failures in a row; from the `free`-th on, 2 seconds after the last failure, then
    twice as long after each further one, up to `longest`. Failures `forget` seconds old are
    forgotten."""
    row = db.session.execute(select(RateLimit.window_start, RateLimit.attempts)
                             .where(RateLimit.bucket == bucket)).first()
    if row is None or row.attempts < max(1, free):
        return 0
    now = utcnow()
    since = (now - _aware(row.window_start, now)).total_seconds()
    if since >= forget:
        return 0
    wait = min(2 ** min(row.attempts - max(1, free) + 1, 30), longest)
    return max(0, math.ceil(wait - since))


def current(bucket: str, window: int) -> tuple[int, int]:
    """(count in the current window, seconds until it ends); (0, 0) when none is running."""
    row = db.session.execute(select(RateLimit.window_start, RateLimit.attempts)
                             .where(RateLimit.bucket == bucket)).first()
    if row is None:
        return 0, 0
    now = utcnow()
    left = window - (now - _aware(row.window_start, now)).total_seconds()
    if left <= 0:
        return 0, 0
    return row.attempts, max(1, math.ceil(left))


def too_many(why: str, left: int) -> TooManyAttempts:
    """The refusal: `why`, and when it works again (`left` seconds, said in seconds under a
    minute, else in minutes)."""
    left = max(1, left)
    if left < 60:
        return TooManyAttempts(f"{why} Try again in {left} second{'s' if left > 1 else ''}.",
                               retry_after=left)
    minutes = math.ceil(left / 60)
    return TooManyAttempts(f"{why} Try again in {minutes} minute"
                           f"{'s' if minutes > 1 else ''}.", retry_after=left)


def refuse_if_over(bucket: str, limit: int, window: int, why: str) -> None:
    """TooManyAttempts, saying `why` and when it works again, once the bucket's current
    window holds `limit` counts."""
    attempts, left = current(bucket, window)
    if attempts >= limit:
        raise too_many(why, left)


def take(bucket: str, limit: int, window: int, why: str, amount: int = 1) -> None:
    """Count `amount` in the bucket, and refuse (TooManyAttempts) when that makes more than
    `limit` in its window. The caller's transaction must end in a rollback when it refuses, or
    when what was counted did not happen (a request that raises ends in one), or call
    `give_back`."""
    if count(bucket, window, amount) > limit:
        _, left = current(bucket, window)
        raise too_many(why, left)


def give_back(bucket: str) -> None:
    """Take back one count `take` made, for something that turned out not to count (the
    right PIN: only wrong ones are limited)."""
    table = RateLimit.__table__
    db.session.execute(update(table).where(table.c.bucket == bucket, table.c.attempts > 0)
                       .values(attempts=table.c.attempts - 1))


def clear(*buckets: str, prefix: str | None = None) -> None:
    """Forget these buckets' counts, and those of every bucket named `prefix`... (a new PIN
    starts its event's afresh)."""
    where = RateLimit.bucket.in_(buckets)
    if prefix:
        # LIKE's wildcards are escaped: a prefix is taken literally.
        literal = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where = or_(where, RateLimit.bucket.like(f"{literal}%", escape="\\"))
    db.session.execute(delete(RateLimit).where(where))
