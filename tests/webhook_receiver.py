"""A webhook receiver for the tests: a local HTTP server in a thread that records every POST
(its headers and body) and answers with the status it is told, or holds the answer until
released (a slow receiver); over https when given a certificate. A request cut short (its
sender killed while sending the body) is not a delivery and is not recorded, as a web
framework would not hand it on either."""

from __future__ import annotations

import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    def __init__(self, status: int = 200, tls: tuple[str, str] | None = None):
        self.status = status
        self.received: list[tuple[dict, str]] = []
        self.changed = threading.Condition()
        self.hold = threading.Event()
        self.hold.set()  # cleared: every answer waits until it is set again
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                if len(body) < length:  # the sender died mid-request: nothing was delivered
                    self.close_connection = True
                    return
                with receiver.changed:
                    receiver.received.append(({k.lower(): v for k, v in self.headers.items()},
                                              body.decode()))
                    receiver.changed.notify_all()
                receiver.hold.wait(30)
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.scheme = "https" if tls else "http"
        if tls:  # (certificate, key): https, the handshake in each request's thread
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True,
                                                     do_handshake_on_connect=False)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.server.server_port}/hook"

    def wait_for(self, count: int, timeout: float = 10) -> list[tuple[dict, str]]:
        with self.changed:
            self.changed.wait_for(lambda: len(self.received) >= count, timeout)
            return list(self.received)

    def close(self) -> None:
        self.hold.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)
