"""https at the venue: with TLS_CERT and TLS_KEY the project's gunicorn serves the app, its
service worker and the API over https (a secure origin, so phones get the offline shell), and
plain http to the same port is not served."""

from __future__ import annotations

import shutil
import subprocess
import urllib.error
import urllib.request

import pytest

from tests.conftest import require_or_skip
from tests.live import LiveServer, unverified


def _certificate(folder):
    require_or_skip(shutil.which("openssl") is not None, "openssl (to make a test certificate)")
    cert, key = folder / "venue.pem", folder / "venue-key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def test_the_app_is_served_over_https_with_a_certificate(tmp_path):
    cert, key = _certificate(tmp_path)
    env = {"TLS_CERT": str(cert), "TLS_KEY": str(key)}
    with LiveServer(folder=tmp_path, project_config=True, env=env) as server:
        assert server.url.startswith("https://")
        for path, kind in (("/", "text/html"), ("/sw.js", "javascript"),
                           ("/api/presets", "application/json")):
            with urllib.request.urlopen(server.url + path, timeout=10,
                                        context=unverified()) as answer:
                assert answer.status == 200 and kind in answer.headers["Content-Type"], path
        plain = server.url.replace("https://", "http://")
        with pytest.raises((urllib.error.URLError, ConnectionError, OSError)):
            urllib.request.urlopen(plain + "/api/health", timeout=5).read()
