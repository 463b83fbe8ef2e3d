#!/usr/bin/env python3
"""A SWAPI-like HTTP server on 127.0.0.1 for the tests and the benchmark.

It serves the recorded responses in Fixtures/swapi (index.txt names the URL
and status of each) with their https://swapi.dev/api/ links rewritten to
itself, and computes `species/?search=` pages it has no recording for the way
SWAPI does (a case-insensitive substring of the name, 10 a page, in id order).

Any path segments before `api/` name a session, such as /t42/api/species/:
the links it serves keep the session, and GET /<session>/_log answers the
list of requests made in that session, so that concurrent tests can count
their own requests.

It prints `listening on http://127.0.0.1:PORT/` once it accepts connections.
With --exit-with-stdin (the tests pass it) it exits when its standard input
closes, so it never outlives the process that started it.
Python 3 standard library only.
"""

import argparse
import json
import math
import os
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RECORDED_ROOT = "https://swapi.dev/api/"
PAGE_SIZE = 10
NOT_FOUND = b'{"detail":"Not found"}'


def query_key(query):
    """The query as a comparable set; SWAPI treats page=1 as no page."""
    pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
    return frozenset((k, v) for k, v in pairs if (k, v) != ("page", "1"))


class Recordings:
    def __init__(self, directory):
        self.responses = {}
        self.species = []
        with open(os.path.join(directory, "index.txt"), encoding="utf-8") as index:
            for line in index:
                parts = line.split()
                if len(parts) != 3 or not parts[1].startswith(RECORDED_ROOT):
                    continue
                name, url, status = parts
                with open(os.path.join(directory, name), "rb") as body:
                    data = body.read()
                parsed = urllib.parse.urlsplit(url[len(RECORDED_ROOT):])
                self.responses[(parsed.path, query_key(parsed.query))] = (int(status), data)
                if parsed.path.startswith("species/") and parsed.path[8:-1].isdigit() and status == "200":
                    self.species.append((int(parsed.path[8:-1]), json.loads(data)))
        self.species.sort(key=lambda pair: pair[0])

    def lookup(self, path, query):
        recorded = self.responses.get((path, query_key(query)))
        if recorded:
            return recorded
        params = dict(urllib.parse.parse_qsl(query, keep_blank_values=True))
        if path == "species/" and "search" in params:
            return self.search(params["search"], params.get("page", "1"))
        return 404, NOT_FOUND

    def search(self, text, page_text):
        if not page_text.isdigit() or int(page_text) < 1:
            return 404, NOT_FOUND
        page = int(page_text)
        matches = [s for _, s in self.species if text.lower() in s["name"].lower()]
        pages = max(1, math.ceil(len(matches) / PAGE_SIZE))
        if page > pages:
            return 404, NOT_FOUND

        def link(number):
            query = urllib.parse.urlencode({"search": text, "page": number}, quote_via=urllib.parse.quote)
            return f"{RECORDED_ROOT}species/?{query}"

        body = {
            "count": len(matches),
            "next": link(page + 1) if page < pages else None,
            "previous": link(page - 1) if page > 1 else None,
            "results": matches[(page - 1) * PAGE_SIZE:page * PAGE_SIZE],
        }
        return 200, json.dumps(body, separators=(",", ":")).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Without this, each keep-alive response waits ~40 ms (Nagle + delayed ACK).
    disable_nagle_algorithm = True

    def do_GET(self):
        server = self.server
        target = urllib.parse.urlsplit(self.path)
        session, separator, rest = target.path.lstrip("/").partition("api/")
        if target.path.endswith("/_log"):
            with server.lock:
                entries = list(server.log.get(target.path[1:-len("_log")], []))
            return self.send(200, json.dumps(entries).encode())
        if not separator:
            return self.send(404, NOT_FOUND)
        with server.lock:
            server.log.setdefault(session, []).append(self.path)
        if server.latency:
            time.sleep(server.latency)
        if not rest.endswith("/"):
            location = f"/{session}api/{rest}/" + (f"?{target.query}" if target.query else "")
            return self.send(301, b"", {"Location": location})
        status, body = server.recordings.lookup(rest, target.query)
        own_root = f"http://{self.headers.get('Host', '127.0.0.1')}/{session}api/"
        self.send(status, body.replace(RECORDED_ROOT.encode(), own_root.encode()))

    def send(self, status, body, headers=None):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--fixtures", default=os.path.join(here, "..", "..", "Fixtures", "swapi"))
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--latency-ms", type=float, default=0, help="delay before each answer")
    parser.add_argument("--verbose", action="store_true", help="log each request on stderr")
    parser.add_argument("--exit-with-stdin", action="store_true", help="exit when standard input closes")
    options = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    server.recordings = Recordings(options.fixtures)
    server.latency = options.latency_ms / 1000
    server.verbose = options.verbose
    server.lock = threading.Lock()
    server.log = {}

    def exit_when_stdin_closes():
        while sys.stdin.buffer.read(65536):
            pass
        os._exit(0)

    if options.exit_with_stdin:
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
