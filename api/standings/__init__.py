"""Standings and prizes: standings computed from the results, tiebreaks, awards, score sheets,
money and payouts, named awards, categories and door-prize draws."""
