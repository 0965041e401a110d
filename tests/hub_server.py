"""A local stand-in for the Hugging Face Hub's Space file layout, on 127.0.0.1.

``GET``/``HEAD /spaces/<org>/<name>/resolve/main/<file>`` serves ``<root>/<name>/<file>``,
as the Hub serves a Space's files; any other revision (evaluate first asks for its own
version tag, ``v0.4.6``) and any other path answer 404, as the Hub does for a Space
without that tag. Every request is recorded so tests can see what was fetched.
"""
from __future__ import annotations

import http.server
import threading
from pathlib import Path


class SpaceServer:
    def __init__(self, root: Path, org: str):
        self.root, self.org = Path(root), org
        self.requests: list[tuple[str, str]] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self, send_body: bool):
                server.requests.append((self.command, self.path))
                file = server.resolve(self.path)
                data = file.read_bytes() if file else b""
                self.send_response(200 if file else 404)
                self.send_header("Content-Length", str(len(data)))
                if file:
                    self.send_header("ETag", f'"{hash(data) & 0xFFFFFFFF:x}"')
                self.end_headers()
                if send_body:
                    self.wfile.write(data)

            def do_GET(self):
                self._answer(True)

            def do_HEAD(self):
                self._answer(False)

            def log_message(self, *args):  # keep test output clean
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def resolve(self, url_path: str) -> Path | None:
        parts = url_path.split("?", 1)[0].strip("/").split("/")
        if len(parts) < 6 or parts[0] != "spaces" or parts[1] != self.org \
                or parts[3] != "resolve" or parts[4] != "main":
            return None
        file = (self.root / parts[2] / "/".join(parts[5:])).resolve()
        if self.root.resolve() not in file.parents or not file.is_file():
            return None
        return file

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
