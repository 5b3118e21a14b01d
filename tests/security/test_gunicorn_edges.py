"""What gunicorn itself answers and writes, with the project's gunicorn.conf.py: a line break
smuggled into a URL cannot forge a line of the access log, and the answers gunicorn makes
before the app sees a request (400, 414) carry the app's security headers."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request

import pytest

from tests.live import LiveServer, wait_until


@pytest.fixture(scope="module")
def logged_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gunicorn-edges")
    log = folder / "gunicorn.log"
    with LiveServer(folder=folder, workers=1, threads=2, log=log, project_config=True,
                    env={"ACCESS_LOG": "1"}) as server:
        yield server, log


def _raw(server, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(request)
        chunks = []
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def test_a_line_break_in_a_url_stays_on_one_line_of_the_access_log(logged_server):
    server, log = logged_server
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(f"{server.url}/api/events/1%0AFORGED%20200%20OK", timeout=10)
    assert wait_until(lambda: "FORGED" in log.read_text(errors="replace"), 10)
    lines = log.read_text(errors="replace").splitlines()
    assert not any(line.startswith("FORGED") for line in lines)
    assert any("/api/events/1\\x0aFORGED" in line for line in lines)


@pytest.mark.parametrize(("request_bytes", "status"), [
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", b"414"),
    (b"NOT A REQUEST\r\n\r\n", b"400"),
])
def test_gunicorns_own_error_answers_carry_the_security_headers(logged_server, request_bytes,
                                                                status):
    server, _ = logged_server
    answer = _raw(server, request_bytes)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b" ")[1] == status
    for header in (b"X-Content-Type-Options: nosniff", b"X-Frame-Options: DENY",
                   b"Content-Security-Policy: default-src 'none'",
                   b"Content-Type: application/problem+json"):
        assert header in head, head
    assert b'"status": ' + status in body
