"""The club's people: a person's record, names matched across events, and where a player's name
links."""
