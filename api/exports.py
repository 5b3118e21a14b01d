"""CSV exports: hands, games, standings and scoresheets, streamed row by row.

Every file is UTF-8 with a byte-order mark (so spreadsheets read accents right), has a header
row, and neutralises cells that a spreadsheet would run as a formula.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Iterator
from datetime import UTC
from zoneinfo import ZoneInfo

from sqlalchemy import and_, func, select
from sqlalchemy.orm import aliased

from .core.common import get_event, preset_of
from .core.db import db
from .core.models import Game, Hand, Match, Player, Round, Ruling, Seat
from .games.result_notes import event_game_notes, ruling_what
from .games.rulings import ADJUST, FORFEITS
from .leaderboard.board import leaderboard
from .league.nights import night_lookup
from .rules.seats import SEATS_OF
from .standings.scoresheets import all_scoresheets

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
EXPORTS = ("hands", "games", "standings", "scoresheets")


PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def safe_cell(value):
    """Text that a spreadsheet would treat as a formula gets a leading apostrophe (a plain
    number such as "-2.5" stays a number)."""
    if isinstance(value, TextCell):
        return value.cell
    if isinstance(value, str) and value.startswith(FORMULA_START) \
            and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


# Text a spreadsheet opening the file would turn into something else: numbers ("007" -> 7,
# "1,5"), fractions and dates ("1/2", "3-4", "Mar 5", "5 March"), times, percentages,
# scientific notation, TRUE / FALSE.
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"
MANGLED = re.compile(
    r"\s*(?:[+-]?[\d.,\s]*\d[\d.,\s]*%?"  # numbers, with separators or a percent sign
    r"|[+-]?\d+(?:\.\d*)?e[+-]?\d+"  # 1e5
    r"|\d{1,4}\s*[-/.]\s*\d{1,4}(?:\s*[-/.]\s*\d{1,4})?"  # 1/2, 3-4, 2026-11-24
    r"|\d{1,2}:\d{2}(?::\d{2})?\s*(?:am|pm)?"  # 7:30, 7:30 pm
    rf"|(?:\d{{1,2}}[\s./-]*(?:{_MONTHS})\w*\.?(?:[\s./-]*\d{{1,4}})?)"  # 5 March
    rf"|(?:(?:{_MONTHS})\w*\.?[\s./-]*\d{{1,4}}(?:[\s,./-]+\d{{1,4}})?)"  # Mar 5, 2027
    r"|true|false)\s*", re.IGNORECASE)


class TextCell:
    """A name that must stay text: written as ="007", which spreadsheets (LibreOffice, Excel)
    show as the text 007 instead of the number 7."""

    __slots__ = ("cell",)

    def __init__(self, text: str):
        self.cell = '="' + text.replace('"', '""') + '"'


def as_text(value):
    """A name, kept as text where a spreadsheet would read it as a number or a date."""
    if isinstance(value, str) and MANGLED.fullmatch(value):
        return TextCell(value)
    return value


def local_time(moment, zone: ZoneInfo) -> str:
    """A moment as "2026-11-24 19:05:33" in the event's time zone: what a spreadsheet reads
    as a date and time (an ISO text with a T and an offset stays text)."""
    if moment is None:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")


CHUNK = 64 * 1024  # characters sent at a time (one HTTP chunk, not one per row)


def stream_csv(header: list, rows: Iterable[Iterable]) -> Iterator[str]:
    """The one CSV writer of the app: every cell, the header's too (event names head a
    series' columns), goes through safe_cell."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    buffer.write("\ufeff")
    writer.writerow([safe_cell(v) for v in header])
    for row in rows:
        writer.writerow([safe_cell(v) for v in row])
        if buffer.tell() >= CHUNK:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def _side_names(seats: dict[int, str], side: str) -> str:
    return " & ".join(seats.get(n, "Ghost") for n in SEATS_OF[side])


def _seat_names(event_id: int) -> dict[int, dict[int, str]]:
    """{match id: {seat: name}} for the whole event, read once."""
    names = {p.id: p.name for p in get_event(event_id).players}
    seats: dict[int, dict[int, str]] = {}
    for seat in db.session.execute(
            select(Seat).join(Match).where(Match.event_id == event_id)).scalars():
        seats.setdefault(seat.match_id, {})[seat.seat] = (
            names.get(seat.player_id, "?") if seat.player_id else "Ghost")
    return seats


SIDE_LETTER = re.compile(r"\b[AB]\b")

HAND_COLUMNS = (Hand.number, Hand.kind, Hand.maker, Hand.alone, Hand.tricks, Hand.renege_by,
                Hand.renege_upheld, Hand.points_a, Hand.points_b, Hand.outcome, Hand.note,
                Hand.created_at)


def _with_seat_names(query):
    """The query with each of the match's four seats' player (id and name) joined on, as
    seat1..seat4 and player1..player4: names come with the rows instead of from a map of
    every seat of the event held in memory (100,000 seats in a big event)."""
    for n in range(1, 5):
        seat, player = aliased(Seat), aliased(Player)
        query = (query.add_columns(seat.player_id.label(f"player{n}"),
                                   player.name.label(f"seat{n}"))
                 .outerjoin(seat, and_(seat.match_id == Match.id, seat.seat == n))
                 .outerjoin(player, player.id == seat.player_id))
    return query


def _row_seats(row) -> dict[int, str]:
    return {n: ("Ghost" if getattr(row, f"player{n}") is None
                else getattr(row, f"seat{n}") or "?") for n in range(1, 5)}


def _ruling_rows(event_id: int, zone: ZoneInfo) -> list[tuple[tuple, list]]:
    """hands.csv's row for each standing ruling (withdrawn ones have no effect, so no row),
    with its game's place (round, table, game), in that order: kind `ruling`, the points it
    adds to each side, what it does in words and its reason in the note, so that a game's
    rows add up to its points. An adjustment adds its points. A forfeit (or an upheld
    protest) makes the game 0-0 whatever was played: its row takes back what the game's other
    rows add up to. A rejected protest adds nothing."""
    rulings = list(db.session.execute(_with_seat_names(
        select(Ruling, Game.points_a, Game.points_b, Game.number.label("game_number"),
               Match.table.label("table_number"), Round.number.label("round_number"))
        .join(Game, Ruling.game_id == Game.id).join(Match, Game.match_id == Match.id)
        .join(Round, Match.round_id == Round.id)
        .where(Ruling.event_id == event_id, Ruling.withdrawn_at.is_(None))
        .order_by(Round.number, Match.table, Game.number, Ruling.id))))
    if not rulings:
        return []
    played = {game: (a or 0, b or 0) for game, a, b in db.session.execute(
        select(Hand.game_id, func.sum(Hand.points_a), func.sum(Hand.points_b))
        .where(Hand.game_id.in_({r.Ruling.game_id for r in rulings})).group_by(Hand.game_id))}
    added: dict[int, list[int]] = {}  # each game's adjustments, for its forfeit's row
    for r in rulings:
        if r.Ruling.kind == ADJUST:
            sums = added.setdefault(r.Ruling.game_id, [0, 0])
            sums[0 if r.Ruling.side == "A" else 1] += r.Ruling.points
    rows = []
    for r in rulings:
        ruling, seats = r.Ruling, _row_seats(r)
        game = ruling.game_id
        points, what = [0, 0], ruling_what(ruling)
        if ruling.kind == ADJUST:
            points[0 if ruling.side == "A" else 1] = ruling.points
        elif ruling.kind in FORFEITS:  # the game's points are its points now
            hands, adjusted = played.get(game, (0, 0)), added.get(game, [0, 0])
            points = [r.points_a - hands[0] - adjusted[0], r.points_b - hands[1] - adjusted[1]]
            if points != [0, 0]:
                what += ": the hands played no longer count"
        # "side A" read as the table does: "side A (Ann & Carol)".
        what = SIDE_WORD.sub(lambda m, seats=seats: f"{m.group(0)} "
                             f"({_side_names(seats, m.group(1))})", what)
        rows.append(((r.round_number, r.table_number, r.game_number), [
            r.round_number, r.table_number, r.game_number, "", "ruling", "", "", "", "", "",
            "", points[0], points[1], f"Ruling: {what}", as_text(ruling.reason),
            local_time(ruling.created_at, zone)]))
    return rows


SIDE_WORD = re.compile(r"\bside ([AB])\b")


def hands_rows(event_id: int, zone: ZoneInfo) -> Iterator[list]:
    """Every hand, by round, table, game and hand number, each game's rulings after its
    hands (`_ruling_rows`)."""
    rulings = _ruling_rows(event_id, zone)
    next_ruling = 0
    # Plain columns, not ORM objects, fetched 1,000 at a time from a server-side cursor on
    # PostgreSQL (stream_results): memory stays flat however many hands the event has.
    query = _with_seat_names(
        select(*HAND_COLUMNS, Game.number.label("game_number"),
               Match.table.label("table_number"), Round.number.label("round_number"))
        .join(Game, Hand.game_id == Game.id).join(Match, Game.match_id == Match.id)
        .join(Round, Match.round_id == Round.id).where(Hand.event_id == event_id)
        .order_by(Round.number, Match.table, Game.number, Hand.number)
        .execution_options(stream_results=True, yield_per=1000))
    for hand in db.session.execute(query):
        place = (hand.round_number, hand.table_number, hand.game_number)
        while next_ruling < len(rulings) and rulings[next_ruling][0] < place:
            yield rulings[next_ruling][1]  # the rulings of the games before this hand's
            next_ruling += 1
        seats = _row_seats(hand)
        makers = _side_names(seats, hand.maker) if hand.maker else ""
        # "A marched: A +2" as the table reads it: "Ann & Carol marched: Ann & Carol +2".
        outcome = SIDE_LETTER.sub(lambda m, seats=seats: _side_names(seats, m.group(0)),
                                  hand.outcome)
        yield [hand.round_number, hand.table_number, hand.game_number, hand.number, hand.kind,
               hand.maker or "", as_text(makers),
               "yes" if hand.alone else "no", "" if hand.tricks is None else hand.tricks,
               hand.renege_by or "",
               "" if hand.renege_upheld is None else ("upheld" if hand.renege_upheld
                                                       else "rejected"),
               hand.points_a, hand.points_b, outcome, as_text(hand.note or ""),
               local_time(hand.created_at, zone)]
    for _place, row in rulings[next_ruling:]:
        yield row


HANDS_HEADER = ["round", "table", "game", "hand", "kind", "maker_side", "makers", "alone",
                "tricks", "renege_by", "renege", "points_a", "points_b", "outcome", "note",
                "entered_at"]


def _league_nights(event_id: int):
    """A league's night for each match (its week's, its own when it was moved, or its playoff
    round's), as a function of (match id, round number, stage); None outside leagues or
    without dates."""
    event = get_event(event_id)
    if preset_of(event).movement != "league-schedule":
        return lambda match_id, week, stage: None
    return night_lookup(event)


def games_rows(event_id: int) -> Iterator[list]:
    seats = _seat_names(event_id)
    notes = event_game_notes(event_id)
    night_of = _league_nights(event_id)
    query = (select(Game, Match, Round.number, Round.label, Round.stage, Round.status)
             .join(Match, Game.match_id == Match.id).join(Round, Match.round_id == Round.id)
             .where(Game.event_id == event_id).order_by(Round.number, Match.table, Game.number))
    for game, match, number, label, stage, status in db.session.execute(query):
        names = seats.get(match.id, {})
        side_a = match.team_a.name if match.team_a else _side_names(names, "A")
        side_b = match.team_b.name if match.team_b else _side_names(names, "B")
        night = night_of(match.id, number, stage)
        yield [number, label, night.isoformat() if night else "", match.table, game.number,
               game.stage, as_text(side_a),
               as_text(side_b),
               game.points_a, game.points_b, game.hands_played, game.winner or "",
               # a league week seated ahead and not started is not being played yet
               game.end or ("scheduled" if status == "scheduled" else "playing"),
               game.tie_method or "", game.forfeited_by or "",
               "yes" if game.signed_off_at else "no", as_text(game.signed_off_by or ""),
               "yes" if game.ruled else "no", game.adjust_a or 0, game.adjust_b or 0,
               as_text("; ".join(notes.get(game.id, [])))]


GAMES_HEADER = ["round", "round_label", "night", "table", "game", "stage", "side_a", "side_b",
                "points_a", "points_b", "hands", "winner", "ended_by", "tie_settled_by",
                "forfeited_by", "signed_off", "signed_off_by", "ruled", "ruling_points_a",
                "ruling_points_b", "rulings_and_corrections"]


def standings_table(event_id: int) -> tuple[list[str], list[list]]:
    board = leaderboard(event_id)
    rounds = sorted({int(r) for row in board["rows"] for r in row["rounds"]})
    # A league in divisions (RULES.md §6): each team's division and its place there, and no
    # overall place, since the divisions play different schedules.
    divided = any(row["division"] for row in board["rows"])
    header = (["division", "division_place"] if divided else ["place"]) + \
        ["name", "total", "games_won", "games_played"] + \
        [f"round_{r}" for r in rounds] + ["shared_place", "prize", "withdrawn", "removed"]
    money = "money" in board  # the payout column, when the event has an entry fee
    header += ["disqualified"] + (["payout"] if money else [])
    rows = [([as_text(row["division"] or "")] if divided else [])
            + ["" if row["place"] is None else row["place"], as_text(row["name"]), row["total"],
             row["games_won"], row["games_played"]]
            + [row["rounds"].get(str(r), "") for r in rounds]
            + ["yes" if row["shared"] else "no", "yes" if row["prize"] else "no",
               "yes" if row["withdrawn"] else "no", "yes" if row["removed"] else "no",
               as_text(row["disqualified"] or "")]
            + ([row["payout"] or 0] if money else [])
            for row in board["rows"]]
    return header, rows


def scoresheet_rows(event_id: int) -> Iterator[list]:
    for sheet in all_scoresheets(event_id):
        for row in sheet["rounds"]:
            yield [as_text(sheet["name"]), row["round"], row["label"], row["table"],
                   row["seat"], as_text(row["partner"]), as_text(" & ".join(row["opponents"])),
                   row["points"],
                   row["against"], row["score"], row["games_won"],
                   "" if row["running_total"] is None else row["running_total"],
                   as_text("; ".join(row["notes"]))]


SCORESHEET_HEADER = ["player", "round", "round_label", "table", "seat", "partner",
                     "opponents", "points", "against", "score", "games_won", "running_total",
                     "notes"]


# Latin letters that NFKD does not take apart into a base letter and an accent.
_NO_DECOMPOSITION = str.maketrans({"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D",
                                   "đ": "d", "ß": "ss", "Æ": "AE", "æ": "ae", "Œ": "OE",
                                   "œ": "oe", "Þ": "Th", "þ": "th", "ı": "i"})


def file_slug(name: str) -> str:
    """The event's name in ASCII for a file name: response headers are Latin-1 on the wire,
    and gunicorn refuses (a 500) a Content-Disposition naming "Łódź" or "Турнир"."""
    spelled = unicodedata.normalize("NFKD", name.translate(_NO_DECOMPOSITION))
    ascii_name = spelled.encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:40].strip("-")


def export(event_id: int, name: str) -> tuple[str, Iterator[str]]:
    """The file name and a stream of CSV text for one export."""
    event = get_event(event_id)
    preset_of(event)
    filename = f"{file_slug(event.name) or 'event'}-{name}.csv"
    if name == "hands":
        return filename, stream_csv(HANDS_HEADER, hands_rows(event_id,
                                                             ZoneInfo(event.time_zone)))
    if name == "games":
        return filename, stream_csv(GAMES_HEADER, games_rows(event_id))
    if name == "standings":
        header, rows = standings_table(event_id)
        return filename, stream_csv(header, rows)
    return filename, stream_csv(SCORESHEET_HEADER, scoresheet_rows(event_id))
