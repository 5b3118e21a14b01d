"""Rounds: planning and seating the next one by the format's movement, the clock, the round's
view, seat changes and the teams format's championship."""
