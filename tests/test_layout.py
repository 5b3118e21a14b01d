"""The layout stays one-way: read from the source (AST), with no new dependency.

- no import cycle among the modules of `api/` (imports inside functions count too; `db`
  importing `models` to register the tables is the one pair allowed);
- no module imports another module's `_private` name;
- nothing below the HTTP layer imports it (only the app factory wires routes in);
- services raise domain errors, never HTTP ones;
- the game's use cases and the runner's game screen stay in modules a reader can hold.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "api"

def allowed_cycle(modules: list[str]) -> bool:
    """`db` importing the tables to register them is the one cycle allowed."""
    return all(m == "api.core.db" or m.startswith("api.core.models") for m in modules)


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for all the checks (each walked every tree again
    and again: the private-names check alone took 18 s on a loaded machine)."""
    return ast.parse(path.read_text())


def modules_under(root: Path) -> dict[str, Path]:
    """Every module of the `api` package under `root`, by dotted name."""
    return {module_name(root, p): p for p in (root / "api").rglob("*.py")}


def imports_of(modules: dict[str, Path], name: str) -> list[tuple[str, str | None, int]]:
    """(module imported, name taken from it or None, line) for every import in the module,
    top level and inside functions alike, resolved to the modules given."""
    found = []
    for node in ast.walk(parsed(modules[name])):
        if isinstance(node, ast.Import):
            found += [(alias.name, None, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name if modules[name].name == "__init__.py" else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in modules:  # `from . import rounds`: the module itself
                    found.append((submodule, None, node.lineno))
                else:
                    found.append((source, alias.name, node.lineno))
    return [(module, taken, line) for module, taken, line in found if module in modules]


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    return {name: {m for m, _, _ in imports_of(modules, name) if m != name} for name in modules}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other round a cycle (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


# The areas of the house, lowest first: each imports only areas before it (rules/ sits below
# them all; the HTTP layer - routes, auth, problems, web, exports - and serving above them all).
AREAS = ["core", "people", "night", "games", "standings", "rounds", "league", "leaderboard",
         "club", "ratings", "story", "feeds", "portable", "webhooks"]

MODULES = modules_under(ROOT)
GRAPH = import_graph(MODULES)


def test_the_modules_of_api_import_each_other_one_way_only():
    found = [c for c in cycles(GRAPH) if not allowed_cycle(c)]
    assert not found, f"import cycles: {found}"


def test_the_cycle_check_sees_a_cycle_hidden_inside_functions(tmp_path):
    package = tmp_path / "api"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "one.py").write_text("def f():\n    from .two import g\n")
    (package / "two.py").write_text("def g():\n    from . import one\n")
    (package / "three.py").write_text("from .one import f\n")
    assert cycles(import_graph(modules_under(tmp_path))) == [["api.one", "api.two"]]


def test_no_module_takes_another_modules_private_names():
    taken = [f"{name}:{line} takes {source}.{what}"
             for name in MODULES for source, what, line in imports_of(MODULES, name)
             if what and what.startswith("_") and not what.startswith("__") and source != name]
    attributes = []
    for name, path in MODULES.items():
        aliases = {}
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.ImportFrom | ast.Import):
                for alias in node.names:
                    aliases[alias.asname or alias.name.split(".")[0]] = alias.name
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                    node.attr.startswith("_") and not node.attr.startswith("__") and \
                    node.value.id in aliases and node.value.id not in ("self", "cls"):
                attributes.append(f"{name}:{node.lineno} uses {node.value.id}.{node.attr}")
    assert not taken and not attributes, taken + attributes


def _above(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_nothing_below_the_routes_imports_them():
    wiring = {"api", "api.routes"}  # the app factory, and the routes' own package
    upward = [f"{name} imports {module}" for name in MODULES
              if not name.startswith("api.routes.") and name not in wiring
              and not _above(name, "api.serving")  # the layers that wrap the app
              for module in GRAPH[name] if module.startswith("api.routes")]
    assert not upward, upward


def test_only_the_app_factory_wires_the_speed_tricks_in():
    upward = [f"{name} imports {module}" for name in MODULES
              if not _above(name, "api.serving") and name != "api"
              for module in GRAPH[name] if _above(module, "api.serving")]
    assert not upward, upward


# Who is asking (a checked key) and minting a new key are in core (keys.py); checking the key
# on a request (`require`, `current_principal`, in auth.py) is the HTTP layer's job.


def test_the_areas_raise_no_http_errors_and_check_no_keys():
    below = [n for n in MODULES if n.split(".")[1:2] and n.split(".")[1] in AREAS]
    refused = {"api.problems", "api.routes", "api.auth"}
    wrong = []
    for name in below:
        tree = parsed(MODULES[name])
        for source, what, line in imports_of(MODULES, name):
            if source in refused:
                wrong.append(f"{name}:{line} imports {what or source} from {source}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in (
                    "werkzeug.exceptions", "flask") and \
                    any(a.name in ("abort", "HTTPException") for a in node.names):
                wrong.append(f"{name}:{node.lineno} imports an HTTP error")
    assert not wrong, wrong


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines())


def test_the_games_use_cases_are_each_a_module_a_reader_can_hold():
    games = ["game_state", "game_writes", "hands", "game_end"]
    sizes = {name: _lines(API / "games" / f"{name}.py") for name in games}
    assert all(size <= 350 for size in sizes.values()), sizes


def _function_lines(text: str, opening: str) -> int:
    """The lines of a top-level JS function, from its opening line to its closing brace."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(opening))
    end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    return end - start + 1


def test_the_game_screen_and_its_components_are_each_a_module_a_reader_can_hold():
    screen = ROOT / "pwa" / "js" / "screens" / "game.js"
    components = sorted((ROOT / "pwa" / "js" / "game").glob("*.js"))
    assert len(components) >= 4, "the entry pad, renege walk, hand list and game-over panel"
    sizes = {p.name: _lines(p) for p in [screen, *components]}
    assert all(size <= 250 for size in sizes.values()), sizes
    # The screen lays its components out; it does not draw them over a state they all share.
    text = screen.read_text()
    assert _function_lines(text, "export async function render(") <= 40
    shared = [p.name for p in [screen, *components] if "ctx" in p.read_text()]
    assert not shared, f"a shared context object is back: {shared}"


def area_of(module: str) -> str | None:
    """The area a module of api/ belongs to; None for rules/ (below every area) and the HTTP
    and serving layers (above every area)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in AREAS else None


def area_arrows(graph: dict[str, set[str]]) -> set[tuple[str, str, str, str]]:
    """(area, area imported, module, module imported) for every import between two areas."""
    return {(area_of(name), area_of(module), name, module) for name, imported in graph.items()
            for module in imported
            if area_of(name) and area_of(module) and area_of(name) != area_of(module)}


def wrong_arrows(graph: dict[str, set[str]]) -> list[str]:
    """Imports from an area to a later one, or to anything above the areas; from the rules to
    anything but the rules."""
    order = {area: i for i, area in enumerate(AREAS)}
    upward = [f"{name} ({a}) imports {module} ({b})"
              for a, b, name, module in sorted(area_arrows(graph)) if order[a] < order[b]]
    upward += [f"{name} ({area_of(name)}) imports {module}, above the areas"
               for name in sorted(graph) if area_of(name)
               for module in sorted(graph[name])
               if not area_of(module) and not module.startswith("api.rules")]
    upward += [f"{name} (rules) imports {module}" for name in sorted(graph)
               if name.startswith("api.rules") for module in sorted(graph[name])
               if not module.startswith("api.rules")]
    return upward


def test_every_area_imports_only_the_areas_below_it():
    assert not wrong_arrows(GRAPH), wrong_arrows(GRAPH)


def test_no_two_areas_import_each_other():
    pairs = {(a, b) for a, b, _, _ in area_arrows(GRAPH)}
    both = sorted({tuple(sorted(p)) for p in pairs if (p[1], p[0]) in pairs})
    assert not both, both


def test_the_area_check_sees_an_upward_arrow():
    graph = {"api.core.common": {"api.club.series"}, "api.club.series": {"api.core.common"},
             "api.night.door": {"api.routes.door"}, "api.games.hands": {"api.rules.hands"},
             "api.rules.games": {"api.rules.hands", "api.core.models"}}
    assert wrong_arrows(graph) == [
        "api.core.common (core) imports api.club.series (club)",
        "api.night.door (night) imports api.routes.door, above the areas",
        "api.rules.games (rules) imports api.core.models"]


def test_every_module_outside_the_rules_is_one_a_reader_can_hold():
    sizes = {name: _lines(path) for name, path in MODULES.items()
             if not name.startswith("api.rules")}
    assert all(size <= 400 for size in sizes.values()), \
        {name: size for name, size in sizes.items() if size > 400}


def test_no_module_of_api_branches_on_testing():
    found = [f"{name}:{number}" for name, path in MODULES.items()
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"app\.testing\b|config\[.TESTING.\]", line)]
    assert not found, found
