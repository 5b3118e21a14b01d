"""The base every area stands on: the database and its tables, domain errors, text rules,
limits, keys, rows and the audit log, and the shapes every area's schemas share."""
