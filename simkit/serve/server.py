"""The live page's server: the standard library's ThreadingHTTPServer, one page and four JSON endpoints.

    GET  /             the page (simkit/serve/page.html: its own script and style inline, nothing fetched
                       from elsewhere; its Content-Security-Policy lets it reach this server only)
    GET  /api/form     the form's choices (simkit.serve.form.offer)
    GET  /api/status   the run: games, compile notice, edge and interval, looks, report (Session.status)
    POST /api/play     play the run a JSON request asks for (simkit.serve.form.read)
    POST /api/stop     stop the run playing

No path names a file: a request for any other path is refused (404), so nothing outside the run folders
can be read through it. Bound to a loopback address it answers only to the loopback's names (a page of
another site cannot reach it through a name of its own), and it takes a play or a stop only as JSON (a
form of another site cannot post one). Bad input gets 400 and one line, the command line's words; a failure of
the server 500, one line on the page and one in the terminal, never a traceback.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import sys
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from simkit.game.players import LineupError
from simkit.game.rules import RulesError
from simkit.presentation.report import json_value
from simkit.serve import form
from simkit.serve.live import Session

MAX_BODY = 64 * 1024  # bytes of a request's JSON, at most
POLICY = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The page's Content-Security-Policy: its inline script and style, requests to this server, nothing else."""
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def page() -> bytes:
    """The page's HTML."""
    return resources.files("simkit.serve").joinpath("page.html").read_bytes()


def loopback(host: str) -> bool:
    """Whether `host` (a name or an address) is this machine's loopback."""
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class LiveServer(ThreadingHTTPServer):
    """The page's server, bound to (host, port); port 0 takes a free port (`url` says which)."""

    daemon_threads = True

    def __init__(self, host: str, port: int, session: Session, say: Callable[[str], None]):
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.session, self.say, self.host = session, say, host
        super().__init__((host, port), Handler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}/"

    def names(self) -> set[str]:
        """The host names a request may give: the bound address's; on a loopback address, the loopback names."""
        return {self.host, *LOOPBACK_NAMES} if loopback(self.host) else set()

    def handle_error(self, request, client_address) -> None:  # a connection that failed: one line, no traceback
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError)):
            self.say(f"error: a request from {client_address[0]} failed ({type(error).__name__}: {error})")


class Handler(BaseHTTPRequestHandler):
    """One request: the page or a JSON endpoint."""

    server: LiveServer
    server_version = "simkit-serve"
    sys_version = ""

    def do_GET(self) -> None:
        self._answer(self.command)

    # a post, and the methods refused (as JSON, 405: never the library's HTML page)
    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_GET

    def log_message(self, format: str, *args: Any) -> None:  # the terminal gets runs and errors, not requests
        pass

    def _answer(self, method: str) -> None:
        path = urlsplit(self.path).path
        try:
            refusal = self._refusal(method)
            if refusal is not None:
                self._json(*refusal)
                return
            if method == "GET" and path == "/":
                self._send(200, page(), "text/html; charset=utf-8", {"Content-Security-Policy": POLICY})
                return
            routes: dict[tuple[str, str], Callable[[], dict]] = {
                ("GET", "/api/form"): form.offer,
                ("GET", "/api/status"): self.server.session.status,
                ("POST", "/api/play"): lambda: self.server.session.play(self._body()),
                ("POST", "/api/stop"): self.server.session.stop,
            }
            if (method, path) not in routes:
                known = any(p == path for _, p in routes)
                self._json(405 if known else 404, f"{method} {path} is not a page of simkit serve; the page is /")
                return
            try:
                self._json(200, routes[(method, path)]())
            except (RulesError, LineupError, ValueError) as e:  # bad input: the command line's words
                self._json(400, form.message(e))
        except Exception as e:  # noqa: BLE001 - the page gets one line, the terminal one line, never a traceback
            self.server.say(f"error: {method} {path} failed: {type(e).__name__}: {e}")
            self._json(500, f"the server failed ({type(e).__name__}); the terminal of simkit serve says more")

    def _refusal(self, method: str) -> tuple[int, str] | None:
        """(status, why) for a request this server does not take: another host name, a post that is not JSON."""
        names = self.server.names()
        host = urlsplit(f"//{self.headers.get('Host', '')}").hostname or ""
        if names and host not in names:
            return 403, f"simkit serve answers to {', '.join(sorted(names))} only, not {host or 'no host name'}"
        if method == "POST" and self.headers.get_content_type() != "application/json":
            return 415, "a request to simkit serve is JSON (Content-Type: application/json)"
        return None

    def _body(self) -> Any:
        try:
            size = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            size = -1
        if not 0 <= size <= MAX_BODY:
            raise ValueError(f"a request is at most {MAX_BODY:,} bytes of JSON")
        try:
            return json.loads(self.rfile.read(size) or b"{}")
        except (ValueError, UnicodeDecodeError):
            raise ValueError("a request is a JSON object of the form's fields") from None

    def _json(self, status: int, body: dict | str) -> None:
        data = {"error": body} if isinstance(body, str) else body
        self._send(status, json.dumps(json_value(data), allow_nan=False).encode(), "application/json", {})

    def _send(self, status: int, data: bytes, kind: str, headers: dict[str, str]) -> None:
        self.send_response(status)
        for name, value in {
            "Content-Type": kind,
            "Content-Length": str(len(data)),
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
            **headers,
        }.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


def make_server(workspace: Path, host: str, port: int, say: Callable[[str], None]) -> LiveServer:
    """The page's server on (host, port), its runs in `workspace`; OSError when the address cannot be bound."""
    return LiveServer(host, port, Session(workspace, say), say)
