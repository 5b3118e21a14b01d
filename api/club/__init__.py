"""The club's year: clubs, series, profiles, finishes and a person's data."""
