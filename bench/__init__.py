"""Load and speed benchmarks for the scorekeeper (issue 7), run by hand: see BENCHMARKS.md.

`python -m bench run ...` plays a live event against the app under gunicorn on 127.0.0.1 and
measures it against ceilings taken in the same run; `python -m bench all` runs the three
configurations that BENCHMARKS.md reports. Nothing here is imported by the app.
"""
