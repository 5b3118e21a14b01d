"""One hand: what the makers did, reneges and surrenders, and what it scores for each side."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import IllegalHand
from .presets import Preset

# The seat words are defined in seats.py; a hand is scored in them (and callers that only
# score hands find them here too).
from .seats import SEATS_OF, SIDE_OF_SEAT, SIDES, A, B, other  # noqa: F401

PLAY = "play"  # an ordinary hand, the common case
PENALTY = "penalty"  # cards thrown in unplayed: bumps only, not a hand of the game
KINDS = (PLAY, PENALTY)


RESULT_WORDS = {
    "made": "made it", "march": "marched", "loner-made": "made it alone",
    "loner-march": "marched alone", "euchred": "euchred", "renege": "reneged",
    "penalty": "threw in cards",
}


@dataclass(frozen=True)
class Renege:
    """A renege claim against side `by`; `upheld` says whether the claim stood."""

    by: str
    upheld: bool


@dataclass(frozen=True)
class Hand:
    """A hand as the runner reports it, from the scoresheet's point of view."""

    maker: str | None = None
    tricks: int | None = None
    alone: bool = False
    loner_seat: int | None = None  # who went alone; needed only for the bump cup
    renege: Renege | None = None
    kind: str = PLAY
    surrendered: tuple[int, ...] = ()  # seats that threw in cards (penalty entries)


@dataclass(frozen=True)
class HandScore:
    """What a hand is worth: points per side, bump dollars per seat, and a plain-words outcome."""

    points_a: int
    points_b: int
    result: str  # made, march, loner-made, loner-march, euchred, renege, penalty
    outcome: str
    counts: bool = True  # False for penalty entries, which are not hands of the game
    bumps: dict[int, int] = field(default_factory=dict)

    def points(self, side: str) -> int:
        return self.points_a if side == A else self.points_b

    @property
    def scoring_side(self) -> str | None:
        """The side that scored, when exactly one did."""
        if self.points_a and not self.points_b:
            return A
        if self.points_b and not self.points_a:
            return B
        return None


def _points(**by_side: int) -> tuple[int, int]:
    return by_side.get(A, 0), by_side.get(B, 0)


def check_hand(hand: Hand, preset: Preset) -> None:
    """Refuse a hand that cannot have happened, saying what is wrong with it."""
    if hand.kind not in KINDS:
        raise IllegalHand(f"Unknown kind of entry '{hand.kind}'; use 'play' or 'penalty'.")
    if hand.kind == PENALTY:
        if not preset.bumps:
            raise IllegalHand("This format keeps no bump cup, so thrown-in cards are not "
                              "recorded; enter the hand as it was scored.")
        if not hand.surrendered:
            raise IllegalHand("Say which seats threw in their cards.")
        if len(set(hand.surrendered)) != len(hand.surrendered):
            raise IllegalHand("Each seat can throw in its cards only once per entry.")
        if any(seat not in SIDE_OF_SEAT for seat in hand.surrendered):
            raise IllegalHand("Seats are numbered 1 to 4.")
        if hand.maker is not None or hand.tricks is not None or hand.renege or hand.alone:
            raise IllegalHand("A thrown-in-cards entry carries only the seats; enter the hand "
                              "itself separately.")
        return
    if hand.surrendered:
        raise IllegalHand("Record thrown-in cards as a separate penalty entry.")
    if hand.maker not in SIDES:
        raise IllegalHand("Say which side called trump: A or B.")
    upheld = hand.renege is not None and hand.renege.upheld
    if hand.tricks is None:
        if not upheld:
            raise IllegalHand("Say how many tricks the makers took (0 to 5).")
    elif not isinstance(hand.tricks, int) or isinstance(hand.tricks, bool) \
            or not 0 <= hand.tricks <= 5:
        raise IllegalHand(f"The makers took {hand.tricks} tricks? A hand has 5 tricks: enter "
                          "0 to 5.")
    if hand.loner_seat is not None:
        if not hand.alone:
            raise IllegalHand("A loner seat was given but the hand was not played alone.")
        if hand.loner_seat not in SEATS_OF[hand.maker]:
            raise IllegalHand(f"Seat {hand.loner_seat} is not on the makers' side "
                              f"({hand.maker}); only a maker can go alone.")
    if hand.renege is not None and hand.renege.by not in SIDES:
        raise IllegalHand("Say which side is accused of reneging: A or B.")


def score_hand(hand: Hand, preset: Preset) -> HandScore:
    """Score one hand under a preset. Raises IllegalHand for a hand that cannot have happened."""
    check_hand(hand, preset)
    if hand.kind == PENALTY:
        bumps = {seat: 1 for seat in sorted(hand.surrendered)}
        seats = ", ".join(str(s) for s in sorted(hand.surrendered))
        return HandScore(0, 0, "penalty", f"cards thrown in (seat {seats}): a bump each",
                         counts=False, bumps=bumps)

    maker, defenders = hand.maker, other(hand.maker)
    renege = hand.renege
    if renege is not None and renege.upheld:
        entry, wronged = renege_entry(maker, hand.alone, renege)
        gain = preset.renege_loner_points if entry == "renege-loner" else preset.renege_points
        bumps = {seat: 1 for seat in SEATS_OF[renege.by]} if preset.bumps else {}
        return HandScore(*_points(**{wronged: gain}), result="renege",
                         outcome=f"renege by {renege.by}: {wronged} +{gain}", bumps=bumps)

    tricks = hand.tricks
    bumps: dict[int, int] = {}
    entry, makers_scored = tricks_entry(tricks, hand.alone)
    gain = preset.hand_points()[entry]
    scorer = maker if makers_scored else defenders
    result = "euchred" if entry == "loner-euchred" else entry
    if not makers_scored and preset.bumps:
        if hand.alone and hand.loner_seat is not None:
            bumps = {hand.loner_seat: 2}
        elif hand.alone:
            raise IllegalHand("A loner was euchred: say which seat went alone, so the bump "
                              "goes to the right player.")
        else:
            bumps = {seat: 1 for seat in SEATS_OF[maker]}
    points = _points(**{scorer: gain})
    loner = " on a loner" if result == "euchred" and hand.alone else ""
    words = f"{maker} {RESULT_WORDS[result]}{loner}: {scorer} +{gain}"

    if renege is not None and preset.false_claim_points:
        # The claim was found wrong: the accused side is paid, and the hand stands as played.
        pa, pb = points
        extra = _points(**{renege.by: preset.false_claim_points})
        points = (pa + extra[0], pb + extra[1])
        words += f"; wrong renege claim: {renege.by} +{preset.false_claim_points}"
    return HandScore(*points, result=result, outcome=words, bumps=bumps)


def tricks_entry(tricks: int, alone: bool) -> tuple[str, bool]:
    """The points-table entry a played hand's tricks earn, and whether the makers score it
    (else the defenders do)."""
    if tricks == 5:
        return ("loner-march" if alone else "march"), True
    if tricks >= 3:
        return ("loner-made" if alone else "made"), True
    return ("loner-euchred" if alone else "euchred"), False


def renege_entry(maker: str, alone: bool, renege: Renege) -> tuple[str, str]:
    """The points-table entry a renege claim adds, and the side it pays: an upheld claim pays
    the wronged side (the loner's rate when the wronged side went alone) and ends the hand; a
    claim found wrong pays the accused side its false-claim points on top of the hand."""
    if renege.upheld:
        wronged = other(renege.by)
        return ("renege-loner" if alone and wronged == maker else "renege"), wronged
    return "false-claim", renege.by


def renege_table() -> list[dict]:
    """Every shape of renege claim (the accused are the makers or the defenders, the makers
    alone or not, upheld or not) with the points-table entry it adds, who scores it, and
    whether the tricks still count: a client adds table values with it, knowing no rule."""
    rows = []
    for accused in ("makers", "defenders"):
        for alone in (False, True):
            for upheld in (True, False):
                by = A if accused == "makers" else B
                entry, paid = renege_entry(A, alone, Renege(by, upheld))
                rows.append({"accused": accused, "alone": alone, "upheld": upheld,
                             "points_key": entry,
                             "scorer": "makers" if paid == A else "defenders",
                             "tricks_count": not upheld})
    return rows


def outcome_table(preset: Preset) -> list[dict]:
    """What each result is worth, for labelling buttons: no arithmetic needed in a client."""
    rows = []
    for alone in (False, True):
        for tricks in range(6):
            score = score_hand(Hand(maker=A, tricks=tricks, alone=alone, loner_seat=1 if alone
                                    else None), preset)
            entry, makers_scored = tricks_entry(tricks, alone)
            rows.append({
                "alone": alone,
                "tricks": tricks,
                "result": score.result,
                "label": RESULT_WORDS[score.result],
                "makers_score": score.points_a,
                "defenders_score": score.points_b,
                "points_key": entry,
                "scorer": "makers" if makers_scored else "defenders",
            })
    return rows
