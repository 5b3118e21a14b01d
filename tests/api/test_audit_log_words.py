"""The audit log says every field a correction changed, and which key made it: two desks (two
runner links) can be told apart, and 3 tricks -> 4 is not "nothing that counts"."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from tests.conftest import require_or_skip

ROOT = Path(__file__).resolve().parents[2]


def _edit(api, key, game_id, hand, **changes):
    game = api.game(game_id)
    body = {k: hand[k] for k in ("maker", "tricks", "alone")} | changes
    return api.put(f"/api/games/{game_id}/hands/{hand['id']}", key=key, json=body,
                   headers={"If-Match": f'"{game["version"]}"'}, expect=200).get_json()


def test_a_correction_that_keeps_the_score_still_names_what_it_changed_and_who(api):
    event = api.create_event("progressive")
    organizer = event["organizer_key"]
    api.add_players(event, ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal"])
    table = api.seat_round(event, 1)["tables"][0]
    game_id = table["games"][0]["id"]
    desk = api.post(f"/api/events/{event['id']}/keys", key=organizer,
                    json={"label": "Desk 2"}, expect=201).get_json()
    state = api.hand(desk["key"], game_id, "A", 3)
    hand = state["hands"][0]

    _edit(api, desk["key"], game_id, hand, tricks=4)
    _edit(api, organizer, game_id, {**hand, "tricks": 4}, note="scorer misread")

    log = api.get(f"/api/events/{event['id']}/audit", key=organizer, expect=200).get_json()
    note, tricks = log[0], log[1]
    assert tricks["action"] == "edit-hand" and tricks["changed"] == ["tricks"]
    assert tricks["before"]["points"] == tricks["after"]["points"], "the same score"
    assert tricks["key"]["label"] == "Desk 2" and tricks["key"]["role"] == "runner"
    assert tricks["key"]["hint"] == desk["key"][-4:]
    assert note["changed"] == ["note"] and note["key"]["role"] == "organizer"
    assert note["key"]["hint"] == organizer[-4:]


def test_a_filter_the_log_does_not_know_is_refused_not_ignored(api):
    """`?rnd=2` (a typo) must not quietly show the whole log as if it were round 2's."""
    event = api.create_event("progressive")
    organizer = event["organizer_key"]
    path = f"/api/events/{event['id']}/audit"
    assert api.get(f"{path}?round=1&table=1", key=organizer, expect=200).get_json() == []
    for bad in ("rnd=2", "round=1&=null", "=x"):
        problem = api.get(f"{path}?{bad}", key=organizer, expect=422).get_json()
        assert problem["status"] == 422 and "Unknown field" in problem["detail"]


def _actions_recorded() -> set[str]:
    """Every action name the server writes to the audit log: the literal second argument of
    each `audit(...)` call under api/ (an action named through a variable is listed by hand)."""
    found = set()
    for path in ROOT.joinpath("api").rglob("*.py"):
        found |= set(re.findall(r"\baudit\(\s*[^,]+,\s*[^,]+,\s*\"([a-z-]+)\"", path.read_text()))
    return found | {"ruling", "withdraw-ruling"}  # rulings.py passes its action along


def test_every_action_the_audit_log_records_has_words_not_its_raw_name():
    """The console's log says each action in a sentence; an action without words falls back
    to its raw name ("reject hand entry"), which is what an organizer must never read."""
    require_or_skip(shutil.which("node") is not None, "Node.js (node), to run the PWA's words")
    actions = sorted(_actions_recorded())
    assert {"hand-mismatch", "settle-mismatch", "confirm-hand-entry", "reject-hand-entry",
            "withdraw-hand-entry", "change-hand-entry", "call",
            "answer-call", "ruling"} <= set(actions)
    script = (
        "const m = await import(process.argv[1]);"
        "const side = {A: {name: 'Hearts'}, B: {name: 'Spades'}};"
        "const raw = [];"
        "for (const action of JSON.parse(process.argv[2])) {"
        "  const [what] = m.entryWords({action, before: {}, after: {}}, side, 'Round 1', 1);"
        "  if (!what || what === action.replace(/-/g, ' ')) raw.push(action);"
        "}"
        "console.log(JSON.stringify(raw));")
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script, "--",
         ROOT.joinpath("pwa/js/audit-words.js").as_uri(), json.dumps(actions)],
        capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [], "audit actions shown by their raw names"


def test_a_verification_entry_reads_in_words_with_the_sides_names():
    require_or_skip(shutil.which("node") is not None, "Node.js (node), to run the PWA's words")
    entry = {"action": "reject-hand-entry",
             "before": {"number": 3, "side": "A", "kind": "hand",
                        "hand": {"maker": "A", "tricks": 5, "alone": False}},
             "after": {"rejected_by": "side B", "reason": "They took four"}}
    script = ("const m = await import(process.argv[1]);"
              "console.log(JSON.stringify(m.entryWords(JSON.parse(process.argv[2]),"
              " {A: {name: 'Hearts'}, B: {name: 'Spades'}}, 'Round 1', 1)));")
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script, "--",
         ROOT.joinpath("pwa/js/audit-words.js").as_uri(), json.dumps(entry)],
        capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["Hand 3 rejected by Spades",
                                       "It said: Hearts called trump, 5 tricks",
                                       "Reason: They took four"]
