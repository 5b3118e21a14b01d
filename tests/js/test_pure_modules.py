"""The PWA's pure modules (pwa/js/provisional.js, words.js) tested by Node's own test runner,
without a browser: `node --test tests/js/`. The provisional score is checked against the rules
engine: this writes every format as the API serves it, with every hand a runner can tap and
the points api/rules scores for it, and the JavaScript must add exactly those."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from api.rules.errors import IllegalHand
from api.rules.hands import Hand, Renege, check_hand, score_hand
from api.rules.presets import PRESETS
from tests.conftest import require_or_skip

HERE = Path(__file__).resolve().parent


def _hands(preset):
    """Every hand a runner can tap: maker, tricks, alone, and a renege claim either way."""
    for maker in "AB":
        for alone in (False, True):
            # The lone player's seat, as the phone asks for it (the bump cup needs it).
            seat = {"loner_seat": 1 if maker == "A" else 2} if alone else {}
            for tricks in range(6):
                yield {"maker": maker, "tricks": tricks, "alone": alone, **seat}
            for by in "AB":
                for upheld in (False, True):
                    yield {"maker": maker, "tricks": 3, "alone": alone, **seat,
                           "renege": {"by": by, "upheld": upheld}}


def _served_formats() -> dict[str, dict]:
    """Every format as the API serves it to a phone (GET /api/presets)."""
    from api import create_app

    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True})
    answer = app.test_client().get("/api/presets")
    assert answer.status_code == 200
    return {p["key"]: p for p in answer.get_json()}


def _cases() -> dict:
    served = _served_formats()
    formats = []
    for preset in PRESETS.values():
        hands = []
        for body in _hands(preset):
            renege = body.get("renege")
            hand = Hand(maker=body["maker"], tricks=body["tricks"], alone=body["alone"],
                        loner_seat=body.get("loner_seat"),
                        renege=Renege(**renege) if renege else None)
            try:
                check_hand(hand, preset)
                score = score_hand(hand, preset)
            except IllegalHand:
                continue  # not a hand this format takes: the server refuses it
            hands.append({"body": body, "points": {"A": score.points_a, "B": score.points_b}})
        formats.append({"format": served[preset.key], "hands": hands})
    return {"formats": formats}


def test_the_pwas_pure_modules_pass_nodes_own_tests(tmp_path):
    node = shutil.which("node")
    require_or_skip(node is not None, "Node.js (node), for the PWA's pure-module tests")
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(_cases()))
    done = subprocess.run([node, "--test", *sorted(str(p) for p in HERE.glob("*.test.mjs"))],
                          env={**os.environ, "CASES": str(cases)}, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# skipped 0" in done.stdout, done.stdout[-2000:]
