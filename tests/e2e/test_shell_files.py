"""The PWA's files as shipped: size budgets, the service worker's stamp, nothing from elsewhere.

Two budgets: the runner's and players' shell (everything outside pwa/js/console/), which a
phone in a bar loads before its first screen, and the organizer console (pwa/js/console/),
which is imported only when a console address is opened. The import graph is read from the
sources (static `import ... from` and dynamic `import('...')`), so a module the app can load is
never missing from the service worker's list, and no console module creeps into the shell.

These read files only (no browser), so they run even where chromium is missing.
"""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PWA = ROOT / "pwa"
CONSOLE = PWA / "js" / "console"
CLUB = PWA / "js" / "club"
# 60 KB until the boards learned their final state and whole names on the projector's
# seating pages, and the phone's paper sheet kept its draft (about 3 KB, issue 26).
SHELL_BUDGET = 66 * 1024
# Organizer screens load on first use, never in the runner's shell: the console grows with
# what an organizer does (it was 40 KB before the clubs, awards and league nights, 48 KB before
# the event day's prizes, door and seat changes, 64 KB before the desk took every key typed
# ahead in its own grid and the door, draws and money cards their checks); each section loads
# only its own modules, so an organizer's phone fetches a part of it at a time. The club's
# pages have their own budget.
CONSOLE_BUDGET = 76 * 1024
CLUB_BUDGET = 16 * 1024
# Ratings (issue 30): a person's rating and chart, the club's table; loaded on first use by the
# profile and the club page, with a budget of its own.
RATINGS = {CLUB / "ratings.js"}
RATINGS_BUDGET = 3 * 1024
# A league team's pages (a captain registering, the team page) and the League section's season
# tools: opened from a QR or the console, never on a runner's first screen.
LEAGUE = PWA / "js" / "league"
LEAGUE_BUDGET = 12 * 1024
# A paper sheet's grid and its styles: for entering sheets after play (at a desk, or a runner
# once the cards are down), never needed for a phone's first screen, so they load on first use,
# inside the console's budget.
LATER = {PWA / "js" / "game" / "sheet-grid.js", PWA / "js" / "game" / "sheet-grid.css"}
# Agreeing scores by both sides (issue 29): loaded only for a game whose event confirms each
# hand or takes a double entry, so neither in the shell nor in the console; its own budget.
# (The console's Corrections loads mismatch.js too, only when a game has a mismatch to settle.)
VERIFY = {PWA / "js" / "game" / "verify.js", PWA / "js" / "game" / "mismatch.js"}
VERIFY_BUDGET = 6 * 1024
# The projector's screens: a venue's big screen, never a runner's or a player's phone; they load
# on first use (issue 29 needed their 5.8 KB in the runner's shell). Their own budget.
SCREENS = PWA / "js" / "screens"
PROJECTOR = {SCREENS / "projector.js", SCREENS / "projector-door.js", SCREENS / "projector-draw.js"}
PROJECTOR_BUDGET = 8 * 1024
# A club's history from a spreadsheet and its year as one file (issue 31): the club's console
# opens it on first use. Its own budget.
PORTABLE = PWA / "js" / "portable"
PORTABLE_BUDGET = 3 * 1024
# The audit log's words (the console's Corrections): every action the server records, in
# sentences; loaded when the log is opened, so they left the console's full budget.
AUDIT = {PWA / "js" / "audit-words.js"}
AUDIT_BUDGET = 6 * 1024
# "Add to calendar" (issue 31): the feeds' links on the board, the club and team pages, loaded
# when one of them is shown. Its own budget.
FEEDS = PWA / "js" / "feeds"
FEEDS_BUDGET = 2 * 1024
# Issue 30: the night's story (the finished board and the club's page load it then) and the
# Rounds preview's balanced first round (loaded for round 1 only). Their own budgets.
STORY = PWA / "js" / "story"
STORY_BUDGET = 2 * 1024
BALANCE = PWA / "js" / "balance"
BALANCE_BUDGET = 1024
# The console's Webhooks screen (issue 31): registering URLs and the delivery log, for the
# organizer who wires the night to a club's site or chat; loaded on first use, its own budget.
WEBHOOKS = {PWA / "js" / "webhooks" / "webhooks.js"}
WEBHOOKS_BUDGET = 3 * 1024

STATIC = re.compile(r"^\s*(?:import|export)\b[^'\"();]*?\bfrom\s*['\"]([^'\"]+)['\"]"
                    r"|^\s*import\s*['\"]([^'\"]+)['\"]", re.M)
DYNAMIC = re.compile(r"\bimport\(\s*['\"]([^'\"]+)['\"]\s*\)")
ANY_DYNAMIC = re.compile(r"\bimport\(")


def url(path: Path) -> str:
    return "/" + path.relative_to(PWA).as_posix()


def in_console(path: Path) -> bool:
    """Loaded on first use, outside the runner's shell: the organizer console, and the club's
    pages (club, series, profiles, managing the club), and the paper sheet's grid (LATER)."""
    return CONSOLE in path.parents or CLUB in path.parents or LEAGUE in path.parents or \
        FEEDS in path.parents or STORY in path.parents or BALANCE in path.parents or \
        path.resolve() in LATER or path.resolve() in VERIFY or path.resolve() in PROJECTOR or \
        PORTABLE in path.parents or path.resolve() in AUDIT or \
        path.resolve() in WEBHOOKS


def code_files() -> list[Path]:
    """All the JS and CSS in pwa/ (sw.js runs apart, in the service worker)."""
    return sorted(p for p in PWA.rglob("*") if p.suffix in {".js", ".css"} and p.name != "sw.js")


def imports(module: Path) -> tuple[set[Path], set[Path]]:
    """A module's static and dynamic imports, as files."""
    text = re.sub(r"/\*.*?\*/|^\s*//[^\n]*$", "", module.read_text(), flags=re.S | re.M)
    found = ([m.group(1) or m.group(2) for m in STATIC.finditer(text)],
             DYNAMIC.findall(text))
    assert len(ANY_DYNAMIC.findall(text)) == len(found[1]), \
        f"{module}: import() with a computed path; write each path out so it can be checked"
    return tuple({(module.parent / spec).resolve() for spec in specs} for specs in found)


def graph() -> tuple[set[Path], set[Path], set[Path]]:
    """From js/app.js: the modules loaded up front (static imports only), every module the app
    may load (dynamic imports too), and the targets of dynamic imports."""
    start = (PWA / "js" / "app.js").resolve()

    def walk(follow_dynamic: bool) -> tuple[set[Path], set[Path]]:
        seen, lazy, todo = set(), set(), [start]
        while todo:
            module = todo.pop()
            if module in seen:
                continue
            assert module.is_file(), f"{module} is imported but does not exist"
            seen.add(module)
            static, dynamic = imports(module)
            lazy |= dynamic
            todo += list(static) + (list(dynamic) if follow_dynamic else [])
        return seen, lazy

    eager, _ = walk(False)
    everything, lazy = walk(True)
    return eager, everything, lazy


def gzipped(paths) -> dict[str, int]:
    return {url(p): len(gzip.compress(p.read_bytes(), 9)) for p in paths}


def test_the_runner_shell_fits_in_66_kb_the_console_in_76_kb_and_club_pages_in_16_kb():
    shell = gzipped(p for p in code_files() if not in_console(p))
    console = gzipped(p for p in code_files() if CONSOLE in p.parents or p in LATER)
    club = gzipped(p for p in code_files() if CLUB in p.parents and p not in RATINGS)
    ratings = gzipped(RATINGS)
    assert sum(ratings.values()) <= RATINGS_BUDGET, f"ratings.js is over its budget: {ratings}"
    print(f"\nrunner/player shell JS+CSS gzipped: {sum(shell.values())} bytes over "
          f"{len(shell)} files (budget {SHELL_BUDGET})")
    print(f"organizer console JS gzipped: {sum(console.values())} bytes over "
          f"{len(console)} files (budget {CONSOLE_BUDGET})")
    assert sum(shell.values()) <= SHELL_BUDGET, f"the shell is over its budget: {shell}"
    assert sum(console.values()) <= CONSOLE_BUDGET, f"the console is over its budget: {console}"
    assert sum(club.values()) <= CLUB_BUDGET, f"the club pages are over their budget: {club}"
    verify = gzipped(VERIFY)
    projector = gzipped(PROJECTOR)
    assert sum(projector.values()) <= PROJECTOR_BUDGET, f"the projector is over: {projector}"
    assert sum(verify.values()) <= VERIFY_BUDGET, f"verify.js is over its budget: {verify}"
    words = gzipped(AUDIT)
    print(f"audit log words gzipped: {sum(words.values())} bytes (budget {AUDIT_BUDGET})")
    assert sum(words.values()) <= AUDIT_BUDGET, f"the audit words are over budget: {words}"
    webhooks = gzipped(WEBHOOKS)
    print(f"webhooks screen gzipped: {sum(webhooks.values())} bytes (budget {WEBHOOKS_BUDGET})")
    assert sum(webhooks.values()) <= WEBHOOKS_BUDGET, f"the webhooks screen is over: {webhooks}"
    league = gzipped(p for p in code_files() if LEAGUE in p.parents)
    print(f"league team pages and tools gzipped: {sum(league.values())} bytes (budget "
          f"{LEAGUE_BUDGET})")
    assert sum(league.values()) <= LEAGUE_BUDGET, f"the league pages are over budget: {league}"
    feeds = gzipped(p for p in code_files() if FEEDS in p.parents)
    assert sum(feeds.values()) <= FEEDS_BUDGET, f"the calendar links are over budget: {feeds}"
    story = gzipped(p for p in code_files() if STORY in p.parents)
    balance = gzipped(p for p in code_files() if BALANCE in p.parents)
    print(f"the night's story {sum(story.values())} bytes (budget {STORY_BUDGET}), the balanced "
          f"first round {sum(balance.values())} bytes (budget {BALANCE_BUDGET})")
    assert sum(story.values()) <= STORY_BUDGET, f"the story is over its budget: {story}"
    assert sum(balance.values()) <= BALANCE_BUDGET, f"balancing is over its budget: {balance}"
    portable = gzipped(p for p in code_files() if PORTABLE in p.parents)
    print(f"history import and portable file gzipped: {sum(portable.values())} bytes (budget "
          f"{PORTABLE_BUDGET})")
    assert sum(portable.values()) <= PORTABLE_BUDGET, f"history.js is over its budget: {portable}"


def test_the_console_is_loaded_only_by_dynamic_import_and_never_preloaded():
    eager, everything, lazy = graph()
    assert not [url(p) for p in eager if in_console(p)], "a console module is imported up front"
    assert lazy and all(in_console(p) for p in lazy), "only console sections load on first use"
    html = (PWA / "index.html").read_text()
    preloaded = {(PWA / href.lstrip("/")).resolve()
                 for href in re.findall(r'rel="modulepreload" href="([^"]+)"', html)}
    assert not [url(p) for p in preloaded if in_console(p)], "index.html preloads the console"
    assert preloaded <= eager, "index.html preloads a module the shell does not import"
    # Every module shipped is one the app can load (no dead files in the budgets).
    shipped = {p.resolve() for p in code_files() if p.suffix == ".js"}
    assert shipped == everything, f"not imported by anything: {shipped - everything}"


def test_the_service_worker_stamp_matches_the_shell_files():
    check = subprocess.run([sys.executable, str(ROOT / "scripts" / "stamp_sw.py"), "--check"],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_the_service_worker_caches_every_module_the_app_imports():
    sw = (PWA / "sw.js").read_text()
    listed = set(re.findall(r"'(/[^']+)'", sw.split("// --- end of stamp ---")[0]))
    _, everything, lazy = graph()
    for path in sorted(everything | set(code_files())):
        assert url(path) in listed, f"{url(path)} is not precached"
    assert lazy <= everything
    assert "/index.html" in listed and "/manifest.webmanifest" in listed


def test_nothing_is_loaded_from_another_site_and_no_inline_code_or_style():
    for path in [p for p in PWA.rglob("*") if p.suffix in {".js", ".css", ".html",
                                                           ".webmanifest"}]:
        text = path.read_text()
        assert not re.search(r"https?://", text), f"{path} names another site"
    html = (PWA / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script in index.html"
    assert not re.search(r"\sstyle=", html), "inline style attribute in index.html"
    assert not re.search(r"\bon[a-z]+=", html), "inline event handler in index.html"
    for path in PWA.rglob("*.js"):
        code = path.read_text()
        assert not re.search(r"\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML", code), \
            f"{path} builds markup from strings"
        assert "setAttribute('style'" not in code
        assert not re.search(r"['\"]style['\"]\s*:", code), f"{path} sets a style attribute"
        # A module is imported by its own path on this site, never from elsewhere.
        for spec in DYNAMIC.findall(code) + [m.group(1) or m.group(2)
                                             for m in STATIC.finditer(code)]:
            assert spec.startswith("."), f"{path} imports {spec}"
