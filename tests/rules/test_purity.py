"""The rules engine is plain Python: it imports the standard library and itself, nothing else."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "api" / "rules"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_every_rules_module_imports_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    modules = sorted(RULES.glob("*.py"))
    assert len(modules) >= 10
    for path in modules:
        outside = imported_modules(path) - allowed
        assert not outside, f"{path.name} imports {sorted(outside)}"
