"""Use cases: load rows, ask the rules, write rows; one transaction per request."""
