"""An operation that needs a key refuses a call without a valid one (401) before it reads the
body: a stranger learns nothing of what the operation takes, and tools reading the OpenAPI
document's security get the 401 it promises. Public operations still say what is wrong."""

from __future__ import annotations


def test_a_keyed_write_without_a_valid_key_is_a_401_whatever_its_body(api):
    event = api.create_event("progressive")
    revoked = api.post(f"/api/events/{event['id']}/keys", key=event["organizer_key"],
                       json={"label": "desk"}, expect=201).get_json()
    api.delete(f"/api/events/{event['id']}/keys/{revoked['id']}", key=event["organizer_key"],
               expect=200)
    calls = [("PATCH", f"/api/events/{event['id']}", {"time_zone": ""}),
             ("POST", f"/api/events/{event['id']}/players", {"nmae": "Ann"}),
             ("POST", f"/api/events/{event['id']}/teams", {"players": "[" * 40}),
             ("POST", f"/api/events/{event['id']}/rounds", {"number": "one"})]
    for key in (None, "not-a-key", revoked["key"]):
        for method, path, body in calls:
            answer = api.request(method, path, key=key, json=body)
            assert answer.status_code == 401, (key, path, answer.get_data(as_text=True))
            assert answer.mimetype == "application/problem+json"
            assert answer.headers["WWW-Authenticate"].startswith("Bearer")
    # With the organizer's key the same body is read, and its mistake named.
    wrong = api.patch(f"/api/events/{event['id']}", key=event["organizer_key"],
                      json={"time_zone": ""})
    assert wrong.status_code == 422 and "time_zone" in wrong.get_json()["errors"]


def test_public_operations_still_say_what_is_wrong_with_a_body(api):
    made = api.post("/api/events", json={"name": "Night", "preset": "progressive",
                                          "time_zone": "Mars/Olympus"})
    assert made.status_code == 422 and "time_zone" in made.get_json()["errors"]
    joined = api.post("/api/join", json={"code": "ABCDEF"})
    assert joined.status_code == 422 and "pin" in joined.get_json()["errors"]


def test_public_reads_answer_head_as_get(api):
    event = api.create_event("progressive")
    for path in (f"/api/events/{event['id']}", f"/api/events/{event['id']}/players"):
        assert api.client.head(path).status_code == 200
    assert api.client.head(f"/api/events/{event['id']}/access").status_code == 401
