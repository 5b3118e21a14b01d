"""The game of euchre as this scorekeeper plays it: pure Python, standard library only.

Presets (formats as data), hand scoring, game and match state, standings and tie-breaks,
seating and movement, league schedules and playoff brackets. Nothing here knows about
Flask, SQLAlchemy or HTTP; outer layers translate plain data in and out.
"""
