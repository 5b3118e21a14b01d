"""The PWA's files as shipped: size budget, the service worker's stamp, nothing from elsewhere.

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
BUDGET = 60 * 1024


def shell_code() -> list[Path]:
    """All the JS and CSS the app loads (every module is in the shell; sw.js runs apart)."""
    return sorted(p for p in PWA.rglob("*") if p.suffix in {".js", ".css"} and p.name != "sw.js")


def test_the_shell_js_and_css_fit_in_60_kb_gzipped():
    sizes = {p.relative_to(PWA).as_posix(): len(gzip.compress(p.read_bytes(), 9))
             for p in shell_code()}
    total = sum(sizes.values())
    print(f"shell JS+CSS gzipped: {total} bytes over {len(sizes)} files")
    assert total <= BUDGET, f"{total} bytes gzipped is over the {BUDGET}-byte budget: {sizes}"


def test_the_service_worker_stamp_matches_the_shell_files():
    check = subprocess.run([sys.executable, str(ROOT / "scripts" / "stamp_sw.py"), "--check"],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_the_service_worker_caches_every_module_the_app_imports():
    sw = (PWA / "sw.js").read_text()
    listed = set(re.findall(r"'(/[^']+)'", sw.split("// --- end of stamp ---")[0]))
    for path in shell_code():
        assert "/" + path.relative_to(PWA).as_posix() in listed
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
