"""Who sits where at a table: sides, partners, opponents, the deal and who signs a game off.

Seats 1 and 3 are side A, 2 and 4 side B; the deal passes clockwise (1, 2, 3, 4, 1, ...).
"""

from __future__ import annotations

from collections.abc import Sequence

A, B = "A", "B"
SIDES = (A, B)
SEATS = (1, 2, 3, 4)
SEATS_OF = {A: (1, 3), B: (2, 4)}
SIDE_OF_SEAT = {1: A, 2: B, 3: A, 4: B}
PARTNER_OF = {1: 3, 3: 1, 2: 4, 4: 2}


def other(side: str) -> str:
    return B if side == A else A


def partner_of(seat: int) -> int:
    """The seat across the table: the partner."""
    return PARTNER_OF[seat]


def opponents_of(seat: int) -> tuple[int, int]:
    """The two seats of the other side, in seat order."""
    return SEATS_OF[other(SIDE_OF_SEAT[seat])]


def dealer_after(dealer: int, hands: int = 1) -> int:
    """The seat that deals `hands` hands after `dealer` (the deal passes clockwise)."""
    return (dealer - 1 + hands) % 4 + 1


def next_dealer(first_dealer: int | None, dealers: Sequence[int | None]) -> int | None:
    """The seat due to deal the next hand, given the first dealer of the game (if known) and
    the dealer recorded with each hand played so far (None where none was recorded). The
    latest recorded dealer wins over the first dealer: the table may have started elsewhere.
    A misdeal is not a hand, so it is not in `dealers`."""
    for back, dealer in enumerate(reversed(dealers)):
        if dealer:
            return dealer_after(dealer, back + 1)
    if first_dealer is None:
        return None
    return dealer_after(first_dealer, len(dealers))


def dealing_seat(dealer: int, ghost_seats: Sequence[int]) -> int:
    """The seat whose player handles the deal: a ghost's cards are dealt by its partner."""
    return partner_of(dealer) if dealer in ghost_seats else dealer


def signing_sides(winner: str | None, *, level_allowed: bool) -> tuple[str, ...]:
    """The sides whose players may sign a finished game off: the side that lost confirms the
    winners' result; a level game may be signed by either side only where a level result
    stands (a championship settled by a playoff round), else by nobody until it is settled."""
    if winner is not None:
        return (other(winner),)
    return SIDES if level_allowed else ()
