#!/usr/bin/env python3
"""Write the service worker's shell list and cache version from the files in pwa/.

Run after changing anything in pwa/: `python3 scripts/stamp_sw.py`. With `--check` it changes
nothing and exits 1 when pwa/sw.js is out of date (the test suite runs it that way), so a shell
change can never ship under an old cache version and leave phones on stale files.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

PWA = Path(__file__).resolve().parent.parent / "pwa"
STAMP = re.compile(r"(// --- stamped by scripts/stamp_sw\.py: do not edit by hand ---\n)"
                   r".*?(// --- end of stamp ---)", re.S)


def shell_files() -> list[Path]:
    """Every file the app may load, except the service worker itself."""
    files = [p for p in PWA.rglob("*") if p.is_file() and p.name != "sw.js"
             and not p.name.startswith(".") and p.suffix not in {".md", ".txt"}
             and "LICENSE" not in p.name]
    return sorted(files, key=lambda p: p.relative_to(PWA).as_posix())


def stamp() -> str:
    files = shell_files()
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(PWA).as_posix().encode() + b"\0" + path.read_bytes())
    urls = ["/" + p.relative_to(PWA).as_posix() for p in files]
    body = (f"const VERSION = '{digest.hexdigest()[:12]}';\n"
            f"const SHELL = {json.dumps(urls, indent=2)};\n").replace('"', "'")
    return body


def main() -> int:
    sw = PWA / "sw.js"
    text = sw.read_text()
    new = STAMP.sub(lambda m: m.group(1) + stamp() + m.group(2), text)
    if "--check" in sys.argv:
        if new != text:
            print("pwa/sw.js is out of date: run python3 scripts/stamp_sw.py", file=sys.stderr)
            return 1
        return 0
    sw.write_text(new)
    print("stamped pwa/sw.js")
    return 0


if __name__ == "__main__":
    sys.exit(main())
