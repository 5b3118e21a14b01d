"""`flask` commands for operators (backups and the like)."""

from __future__ import annotations


def register_commands(app) -> None:
    """Attach the operator commands to the app's CLI."""
