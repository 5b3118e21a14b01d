"""One portable file: an event, a league season or a club's year as one versioned JSON
document (format.py says what it holds), made (exporting.py) and read back into this or
another instance (importing.py, remap.py); and a club's past seasons from a spreadsheet
(history.py). See docs/portable-format.md."""
