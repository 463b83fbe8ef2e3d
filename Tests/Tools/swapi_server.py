#!/usr/bin/env python3
"""A SWAPI-like HTTP server on 127.0.0.1 for the tests and the benchmark.

It serves the recorded responses in Fixtures/swapi (index.txt names the URL
and status of each) with their https://swapi.dev/api/ links rewritten to
itself, and computes `species/?search=` pages it has no recording for the way
SWAPI does (a case-insensitive substring of the name, 10 a page, in id order).

Any path segments before `api/` name a session, such as /t42/api/species/:
the links it serves keep the session, and GET /<session>/_log answers the
list of requests made in that session, so that concurrent tests can count
their own requests. A session segment `fault=NAME` makes the server hostile
in one way (see FAULTS), for that session only.

Its 200 answers carry an ETag; a request with a matching If-None-Match gets
304 Not Modified. It prints `listening on http://127.0.0.1:PORT/` once it
accepts connections.
With --exit-with-stdin (the tests pass it) it exits when its standard input
closes, so it never outlives the process that started it.
Python 3 standard library only.
"""

import argparse
import email.utils
import hashlib
import json
import math
import os
import select
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RECORDED_ROOT = "https://swapi.dev/api/"
PAGE_SIZE = 10
NOT_FOUND = b'{"detail":"Not found"}'
HTML_ERROR = b"<!DOCTYPE html>\n<html><head><title>503 Service Unavailable</title></head><body>Try later.</body></html>\n"

FAULTS = {
    "429-once": "the first request answers 429 with Retry-After: 1",
    "429-date-once": "the first request answers 429 with an HTTP-date Retry-After one second ahead",
    "429-long": "every request answers 429 with Retry-After: 25924",
    "500-once": "the first request answers 500",
    "503-once": "the first request answers 503",
    "503-always": "every request answers 503",
    "page3-500": "species page 3 answers 500",
    "drop-once": "the first request is closed without an answer",
    "half-headers": "a status line, then the connection closes",
    "hang": "requests are accepted and never answered",
    "drip": "the body comes one byte a second",
    "html": "every answer is an HTML page under status 200",
    "truncated": "every JSON body is cut in half",
    "loop": "species page 3 links back to page 2",
    "cross-host-next": "species page 1 links to another host",
    "file-next": "species page 1 links to file:///etc/passwd",
    "wrong-types": "species page 1 is Fixtures/bad/wrong-types.json",
    "escape-name": "species 1, alone and on page 1, has terminal escape sequences in its name and language",
    "oversized": "species page 1 is 2 MiB, sent without a Content-Length",
    "oversized-declared": "species page 1 is 2 MiB, with its Content-Length",
    "count-mismatch": "species page 1 counts 38 species",
    "big-page": "species page 1 holds 2,000 species and no next link",
    "huge-page": "species page 1 holds --huge-page species (100,000: about 70 MB) and no next link",
    "redirect-off-host": "every request redirects to localhost instead of 127.0.0.1",
    "dangling-film": "species 3 links to films/7 too, which answers 404, as on SWAPI",
    "off-host-homeworld": "species 3's homeworld is on another host",
}


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
            count = len(server.log[session])
        if server.latency:
            time.sleep(server.latency)
        faults = [part[len("fault="):] for part in session.split("/") if part.startswith("fault=")]
        fault = faults[0] if faults else None
        if fault and fault not in FAULTS:
            return self.send(400, f"unknown fault {fault}".encode())
        if fault and self.misbehave(fault, count, session, rest):
            return
        if not rest.endswith("/"):
            location = f"/{session}api/{rest}/" + (f"?{target.query}" if target.query else "")
            return self.send(301, b"", {"Location": location})
        status, body = server.recordings.lookup(rest, target.query)
        own_root = f"http://{self.headers.get('Host', '127.0.0.1')}/{session}api/"
        body = body.replace(RECORDED_ROOT.encode(), own_root.encode())
        if fault:
            status, body = self.alter(fault, status, body, rest, target.query, own_root)
        if fault == "drip":
            return self.drip(status, body)
        if fault == "oversized":
            return self.send_without_length(status, body)
        if status == 200:
            etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == etag:
                return self.send(304, b"", {"ETag": etag})
            return self.send(status, body, {"ETag": etag})
        self.send(status, body)

    def misbehave(self, fault, count, session, rest):
        """Answers in place of the server for faults that do not need a body;
        True when it did."""
        retry_after = {
            "429-once": "1",
            "429-date-once": email.utils.formatdate(time.time() + 1, usegmt=True),
            "429-long": "25924",
        }
        if fault in retry_after and (count == 1 or fault == "429-long"):
            self.send(429, b'{"detail":"Request was throttled."}', {"Retry-After": retry_after[fault]})
        elif fault in ("500-once", "503-once") and count == 1:
            self.send(int(fault[:3]), HTML_ERROR, content_type="text/html")
        elif fault == "503-always" or (fault == "page3-500" and "page=3" in self.path):
            self.send(503 if fault == "503-always" else 500, HTML_ERROR, content_type="text/html")
        elif fault == "drop-once" and count == 1:
            self.close_connection = True
        elif fault == "half-headers":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
            self.close_connection = True
        elif fault == "hang":
            self.wait_for_client_to_leave(300)
            self.close_connection = True
        elif fault == "redirect-off-host":
            port = self.server.server_address[1]
            self.send(302, b"", {"Location": f"http://localhost:{port}/{session}api/{rest}"})
        else:
            return False
        return True

    def alter(self, fault, status, body, rest, query, own_root):
        """The recorded answer, changed as the fault says."""
        first_page = rest == "species/" and query_key(query) == frozenset()
        if fault == "html":
            return 200, HTML_ERROR
        if fault == "truncated":
            return status, body[:len(body) // 2]
        if fault == "wrong-types" and first_page:
            with open(os.path.join(self.server.fixtures, "..", "bad", "wrong-types.json"), "rb") as file:
                return 200, file.read().replace(RECORDED_ROOT.encode(), own_root.encode())
        if fault == "loop" and query_key(query) == frozenset({("page", "3")}):
            return status, self.edit(body, next=f"{own_root}species/?page=2")
        if fault == "cross-host-next" and first_page:
            return status, self.edit(body, next="http://evil.example/api/species/?page=2")
        if fault == "file-next" and first_page:
            return status, self.edit(body, next="file:///etc/passwd")
        if fault == "count-mismatch" and first_page:
            return status, self.edit(body, count=38)
        if fault == "escape-name" and (first_page or rest == "species/1/"):
            document = json.loads(body)
            human = document["results"][0] if first_page else document
            human["name"] = "\x1b[2J\x1b[31mRed\x1b[0m Human\x07"
            human["language"] = "Galactic\u009b31m Basic"
            return status, json.dumps(document).encode()
        if fault == "dangling-film" and rest == "species/3/":
            document = json.loads(body)
            return status, self.edit(body, films=document["films"] + [f"{own_root}films/7/"])
        if fault == "off-host-homeworld" and rest == "species/3/":
            return status, self.edit(body, homeworld="http://evil.example/api/planets/14/")
        if fault in ("oversized", "oversized-declared") and first_page:
            return status, body[:-1] + b" " * (2 * 1024 * 1024) + b"}"
        if fault == "huge-page" and first_page:
            return status, self.server.huge_page(own_root)
        if fault == "big-page" and first_page:
            page = json.loads(body)
            page.update(count=2000, next=None, results=page["results"] * 200)
            return status, json.dumps(page).encode()
        return status, body

    @staticmethod
    def edit(body, **changes):
        page = json.loads(body)
        page.update(changes)
        return json.dumps(page).encode()

    def wait_for_client_to_leave(self, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            readable, _, _ = select.select([self.connection], [], [], 1)
            if readable and not self.connection.recv(1024):
                return

    def drip(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            for byte in body:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(1)
        except OSError:
            pass
        self.close_connection = True

    def send_without_length(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            for start in range(0, len(body), 65536):
                self.wfile.write(body[start:start + 65536])
        except OSError:
            pass
        self.close_connection = True

    def send(self, status, body, headers=None, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


class Server(ThreadingHTTPServer):
    # The default backlog of 5 drops connections when many tests start at
    # once, and a dropped SYN is resent only after a second.
    request_queue_size = 256
    daemon_threads = True
    huge_pages = {}

    def huge_page(self, own_root):
        """One page of --huge-page species, the recorded ones over and over,
        each with an id and URL of its own; made once per root."""
        with self.lock:
            if own_root not in self.huge_pages:
                species = [s for _, s in self.recordings.species]
                results = []
                for number in range(1, self.huge_page_species + 1):
                    item = dict(species[(number - 1) % len(species)])
                    item["url"] = f"{RECORDED_ROOT}species/{number}/"
                    results.append(item)
                page = {"count": len(results), "next": None, "previous": None, "results": results}
                body = json.dumps(page, separators=(",", ":")).encode()
                self.huge_pages[own_root] = body.replace(RECORDED_ROOT.encode(), own_root.encode())
            return self.huge_pages[own_root]


def main():
    faults = "\n".join(f"  {name}: {what}" for name, what in FAULTS.items())
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=f"faults:\n{faults}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--fixtures", default=os.path.join(here, "..", "..", "Fixtures", "swapi"))
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--latency-ms", type=float, default=0, help="delay before each answer")
    parser.add_argument("--verbose", action="store_true", help="log each request on stderr")
    parser.add_argument("--exit-with-stdin", action="store_true", help="exit when standard input closes")
    parser.add_argument("--huge-page", type=int, default=100_000, help="species on the page of the huge-page fault")
    options = parser.parse_args()

    server = Server(("127.0.0.1", options.port), Handler)
    server.recordings = Recordings(options.fixtures)
    server.fixtures = options.fixtures
    server.huge_page_species = options.huge_page
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
