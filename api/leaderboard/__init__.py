"""The live leaderboard, in one place: the board (board.py) ranked from totals kept per
process (totals.py), cached per event revision (cache.py), written as JSON with its ETag and
gzip (body.py). The WSGI layer that answers polls before Flask is in api/serving (polls.py).

Routes and the serving layers call it; it calls the services below it and nothing above.
"""
