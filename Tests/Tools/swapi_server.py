#!/usr/bin/env python3
"""A SWAPI server on 127.0.0.1 for the tests and the benchmark, written from
docs/swapi-dialects.md. It serves the data set of Fixtures/swapi-data in
each of SWAPI's three dialects:

  drf   swapi.dev: pages of 10 with count/next/previous, ?search= (every
        term a part of the name), URLs ending in "/", 301 to add a missing
        slash, 404 {"detail":"Not found"}. Its species, people, planets and
        films are byte for byte what swapi.dev answered (Fixtures/swapi).
  tech  www.swapi.tech: an envelope around every answer; ?page=&limit=
        (clamped to the last page), &expanded=true, ?name= (a regular
        expression), no films, its own created/edited, item URLs on the
        stored host https://www.swapi.tech/api/, planets/null for no
        homeworld.
  info  swapi.info: one array of everything at /api/species, query strings
        ignored, tab-indented JSON, item URLs on https://swapi.info/api/,
        404 as an HTML page.

Path segments before `api/` make a session, such as /t42/api/species/: the
links served keep the session, and GET /<session>/_log lists the requests of
that session (with ?wait=N, once there are N, or after 10 minutes; with
?agents=1, the User-Agent of each instead; with ?sent=1, "PATH BYTES" for
each flood of `fault=flood-beside` that ended, the bytes it sent). Segments of the session choose how it behaves:
`dialect=tech`, `delay=MS` (each answer waits MS milliseconds), `faulty=N`
(the fault applies to the session's first N requests only; then it is
healthy), `sound=N` (the session's first N requests are healthy; then the
fault applies), `gate=N`
(requests are answered N at a time: each waits until the session's count of
requests reaches the next multiple of N, so that a client that asks for N
pages in one round trip passes, and one that waits for an answer first gets
504 after GATE_SECONDS), and `fault=NAME` (hostile in one way, see FAULTS).

drf answers carry an ETag, and a matching If-None-Match gets 304. With
--host, --dialect and --fault it stands in for a public host (Tests/Tools/public_hosts.py),
and --connection-log counts the connections it accepts. The server prints
`listening on http(s)://HOST:PORT/` once it accepts connections;
with --exit-with-stdin it exits when its standard input closes, so that it
never outlives the process that started it. Python 3 standard library only.
"""

import argparse
import email.utils
import gzip
import hashlib
import json
import math
import os
import re
import select
import ssl
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from swapi_data import DataSet

PAGE_SIZE = 10
NOT_FOUND = b'{"detail":"Not found"}'
HTML_NOT_FOUND = b"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body>Nothing here.</body></html>\n"
HTML_ERROR = b"<!DOCTYPE html>\n<html><head><title>503 Service Unavailable</title></head><body>Try later.</body></html>\n"
TECH_STORED_ROOT = "https://www.swapi.tech/api/"
INFO_STORED_ROOT = "https://swapi.info/api/"
TECH_LOADED = "2025-03-17T10:34:01.234Z"
HUGE_PAGE_ROOT = "https://huge-page.invalid/api/"  # a stand-in, replaced by the root that asks
# How long `gate=N` waits for the rest of a round trip: far past any stall of
# a busy machine (CI once saw a round's last three requests come more than
# 10 s after its first), so that only a client that waits for an answer
# before asking the rest is refused.
GATE_SECONDS = 60
# How long page 1 of `fault=flood-beside` waits for the floods beside it to
# end, and they for page 1 to begin: as long as the gate, for the same reason.
FLOOD_SECONDS = GATE_SECONDS
# The length of a flood of `fault=flood-beside`: within species' default
# response size limit (100 MiB), so that only the first bytes of page 1 end
# it early.
FLOOD_BYTES = 64 << 20

FAULTS = {
    "429-once": "the first request answers 429 with Retry-After: 1",
    "429-date-once": "the first request answers 429 with an HTTP-date Retry-After one second ahead",
    "429-long": "every request answers 429 with Retry-After: 25924",
    "retry-after-huge": "every request answers 503 with Retry-After: 99999999999999999999",
    "retry-after-hex": "the first request answers 503 with Retry-After: 0x10, which is no number of seconds",
    "retry-after-4": "every request answers 503 with Retry-After: 4",
    "500-once": "the first request answers 500",
    "503-once": "the first request answers 503",
    "503-always": "every request answers 503",
    "page3-500": "species page 3 answers 500",
    "drop-once": "the first request is closed without an answer",
    "drop-always": "every request is closed without an answer",
    "half-headers": "a status line, then the connection closes",
    "hang": "requests are accepted and never answered",
    "drip": "the body comes one byte a second",
    "slow-body": "every body comes at 1.1 KiB/s, in chunks of 110 bytes a tenth of a second apart",
    "html": "every answer is an HTML page under status 200 (a captive portal)",
    "truncated": "every JSON body is cut in half",
    "loop": "species page 3 links back to page 2",
    "cross-host-next": "species page 1 links to another host",
    "file-next": "species page 1 links to file:///etc/passwd",
    "wrong-types": "species page 1 is Fixtures/bad/wrong-types.json",
    "escape-name": "species 1, alone and on page 1, has terminal escape sequences in its name and language",
    "bidi-name": "species 1, alone and on page 1, has bidi overrides, zero-width characters, separators and emoji in its name",
    "impossible-date": "species 1, alone and on page 1, was created on 2014-02-30",
    "far-dates": "species 1, alone and on page 1, was created 1500-06-01T00:00:00+00:00 and edited 9999-12-31T23:59:59.999999Z; species 2 was created 2014-12-10T15:16:16Zjunk and edited 2014-12-10T15:16:16+00:60",
    "oversized": "species page 1 is 2 MiB, sent without a Content-Length",
    "oversized-declared": "species page 1 is 2 MiB, with its Content-Length",
    "many-headers": "every answer carries 20,000 header lines (about 250 KB) before its body",
    "gzip-bomb": "species page 1 is a gzip body of about 100 KB that inflates to 100 MiB",
    "content-length-huge": "every answer announces a Content-Length of 30000000000, sends 100 bytes and closes",
    "content-length-max": "every answer announces a Content-Length of 9223372036854775807, sends 100 bytes and closes",
    "count-mismatch": "species page 1 counts 38 species",
    "shifting": "species pages move by one species a request: the Nth request's list is rotated by N - 1",
    "later-pages-tech": "species pages after the first answer in swapi.tech's form",
    "dialect-flip": "answers alternate between swapi.dev's and swapi.tech's forms, request by request",
    "big-page": "the species list is one array of 2,000 species, as swapi.info's is (page 1's over and over, each with a URL and a name of its own)",
    "empty-objects": "species page 1 holds 3,000,000 empty objects (6 MB)",
    "dense-page": "species page 1 is one species with 1,092,000 strings of 90 bytes and 1,092,000 of one (100 MiB), the most species accepts",
    "huge-page": "the species list is one array of --huge-page species (100,000: about 70 MB), as swapi.info's is",
    "huge-array": "as huge-page, for every page asked too, as a copy of swapi.info's at another host answers",
    "flood-beside": "species pages after the first answer 200 with a body of FLOOD_BYTES, as fast as the client reads,"
                    " begun once page 1 has sent its first byte; page 1 sends the rest only when every later page asked"
                    " has ended (at most FLOOD_SECONDS); with dialect=info, a copy of swapi.info at another host",
    "redirect-off-host": "every request redirects to localhost instead of 127.0.0.1",
    "redirect-other-port": "every request redirects to another port of 127.0.0.1",
    "redirect-no-location": "every request answers 302 without a Location",
    "redirect-later-pages": "species pages 3 and 4 redirect to another port of 127.0.0.1",
    "not-modified": "every request answers 304 Not Modified, asked or not",
    "dangling-film": "species 3 links to films/7 too, which answers 404, as on SWAPI",
    "off-host-homeworld": "species 3's homeworld is on another host",
    "person-500": "person 13 (a Wookie) answers 500",
    "person-html": "person 13 (a Wookie) answers an HTML page under status 200",
    "later-500": "species pages after the first answer 500",
    "later-drop": "species pages after the first are closed without an answer",
    "later-hang": "species pages after the first are accepted and never answered",
    "later-html": "species pages after the first are an HTML page under status 200",
    "later-empty": "species pages after the first are empty: count 0, no results, no next link",
    "related-hang": "planets, people and films are accepted and never answered",
    "404-json": "every request answers 404 with swapi.dev's JSON, as an API that is not there",
    "404-html": "every request answers 404 with an HTML page",
    "401": "every request answers 401 Unauthorized",
    "403": "every request answers 403 Forbidden",
    "empty-list": "the species list, unsearched, is empty: count 0, no results",
    "gzip-bombs": "every species page is a gzip body of about 4.5 MB that inflates to 1 GiB",
    "spreadsheet-names": "the first six species of page 1 are named as formulas, a number and HTML (SPREADSHEET_NAMES)",
    "invisible-name": "species 1, alone and on page 1, has a soft hyphen and an Arabic letter mark in its name",
    "count-missing": "species pages carry no count (swapi.tech's: no total_records)",
    "count-null": "species pages count null",
    "count-string": 'species pages count "37", a string',
    "count-negative": "species pages count -1",
    "count-huge": "species pages count 1e400",
    "short-page-2": "species page 2 holds 9 species (not the Ewok), and still links to page 3",
    "next-back": "species page 2 links back to page 1 as its next",
    "next-self": "species page 2 links to itself as its next",
    "ignore-search": "the species list ignores ?search= (swapi.tech's ?name=), as a caching proxy that drops the query would",
    "element-empty": "the first species of page 2 (swapi.info's 11th) is {}",
    "element-nameless": "the first species of page 2 (swapi.info's 11th) has a null name",
    "element-planet": "the first species of page 2 (swapi.info's 11th) has a planet's URL",
    "element-null": "the first species of page 2 (swapi.info's 11th) is null",
    "element-again": "the first species of page 2 (swapi.info's 11th) is species 1 again, its URL spelled with a final slash or without",
    "short-page-1": "species page 1 holds 9 species (not its last), and still links to page 2",
    "count-billion": "species pages count 1,000,000,000",
    "one-fewer": "species pages are those of a listing without the last species (count 36, page 4 of 6)",
    "oversized-page-2": "species page 2 is padded past 2 MiB",
    "as-array": "the species list is one array of page 1's species, as swapi.info's is",
    "search-form": "swapi.tech's species pages are written in the form of its search: result, no next",
    "thousands": "the species list holds 5,000 species in 500 pages of 10 (SWAPI's species over and over, each with an id and a name of its own)",
    "element-person": "the first species of page 2 (swapi.info's 11th) is Luke Skywalker, a person, under that species' URL",
    "element-named-again": "the first species of page 2 (swapi.info's 11th) is named Human, under its own URL",
    "element-vehicle": "the first species of page 2 (swapi.info's 11th) carries a Sand Crawler's fields too, a vehicle's",
    "element-named-upper": "the first species of page 2 (swapi.info's 11th) is named HUMAN, under its own URL",
    "element-named-nbsp": "the first species of page 2 (swapi.info's 11th) is named 'Yoda's\u00a0species' beside 'Yoda's species'",
    "related-species": "species 3 lists species 4 among its people",
    "pages-of-5": "the species list comes in pages of 5 (a copy of swapi.dev that keeps to them)",
    "pages-of-20": "the species list comes in pages of 20 (a copy of swapi.dev that keeps to them)",
    "public-urls": "species keep swapi.dev's URLs (https://swapi.dev/api/species/N/), as a copy of its data would",
    "count-fifteen": "species pages count 15, while all 37 are served",
    "empty-search": "every search of the species list answers an empty page (count 0)",
    "shrunk": "the species list holds its first 15 species only (count 15: 2 pages; page 3 and after answer 404)",
}

# What each ELEMENT fault makes of a species object.
ELEMENTS = {"element-empty": lambda species: {}, "element-nameless": lambda species: {**species, "name": None},
            "element-null": lambda species: None,
            "element-planet": lambda species: {**species, "url": re.sub(r"species/\d+", "planets/13", species["url"])},
            "element-person": lambda species: {"name": "Luke Skywalker", "height": "172", "mass": "77", "hair_color": "blond",
                                               "skin_color": "fair", "eye_color": "blue", "birth_year": "19BBY",
                                               "gender": "male", "url": species["url"]},
            "element-named-again": lambda species: {**species, "name": "Human"},
            "element-vehicle": lambda species: {**species, "model": "Digger Crawler", "manufacturer": "Corellia Mining Corporation",
                                                "vehicle_class": "wheeled"},
            "element-named-upper": lambda species: {**species, "name": "HUMAN"},
            "element-named-nbsp": lambda species: {**species, "name": "Yoda's\u00a0species"}}

# The count each COUNT fault writes into every species page; None leaves it out.
COUNTS = {"count-missing": None, "count-null": b"null", "count-string": b'"37"', "count-negative": b"-1",
          "count-huge": b"1e400", "count-fifteen": b"15"}

# Names a spreadsheet would run, or a Markdown renderer show as HTML.
SPREADSHEET_NAMES = ['=HYPERLINK("http://evil.example/","x")', "+1+1", "@SUM(A1)", "-5", "\tTabbed",
                     "<script>alert(1)</script> & <img src=x onerror=alert(1)>"]

# What later-KIND faults do to the species pages after the first.
LATER = {"later-500", "later-drop", "later-hang", "later-html", "later-empty"}


def later_page(rest, query):
    """Whether a request is for a page of the species list after the first."""
    page = dict(urllib.parse.parse_qsl(query)).get("page", "1")
    return rest.rstrip("/") == "species" and page.isdigit() and int(page) >= 2


def drf_query_key(query):
    """The query as a comparable set; swapi.dev treats page=1 as no page."""
    pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
    return frozenset((k, v) for k, v in pairs if (k, v) != ("page", "1"))


def search_terms(text):
    """Django REST Framework's SearchFilter: terms split on white space and commas."""
    return text.replace("\x00", "").replace(",", " ").split()


class Dialects:
    """The answers of each dialect for a path and query under api/."""

    def __init__(self, data):
        self.data = data

    # drf (swapi.dev)

    def drf(self, rest, query, own_root, rotate=0, size=PAGE_SIZE, species_root=None):
        def link(kind, number):
            return f"{species_root if kind == 'species' and species_root else own_root}{kind}/{number}/"

        params = dict(urllib.parse.parse_qsl(query, keep_blank_values=True))
        match = re.fullmatch(r"(species|people|planets|films)/(\d+)/", rest)
        if match:
            kind, number = match.group(1), int(match.group(2))
            if self.data.get(kind, number) is None:
                return 404, NOT_FOUND
            return 200, self.dumps(self.data.drf(kind, number, link))
        if rest != "species/":
            return 404, NOT_FOUND
        names = {pk: self.data.get("species", pk)["name"].lower() for pk in self.data.ids("species")}
        terms = [term.lower() for term in search_terms(params.get("search", ""))]
        matches = [pk for pk in self.data.ids("species") if all(term in names[pk] for term in terms)]
        if rotate % len(matches or [0]):
            matches = matches[-(rotate % len(matches)):] + matches[:-(rotate % len(matches))]
        page_text = params.get("page", "1")
        if not page_text.isdigit() or int(page_text) < 1:
            return 404, NOT_FOUND
        page = int(page_text)
        pages = max(1, math.ceil(len(matches) / size))
        if page > pages:
            return 404, NOT_FOUND

        def page_link(number):
            items = ([("search", params["search"])] if "search" in params else []) + [("page", number)]
            return f"{own_root}species/?" + urllib.parse.urlencode(items)

        body = {
            "count": len(matches),
            "next": page_link(page + 1) if page < pages else None,
            "previous": page_link(page - 1) if page > 1 else None,
            "results": [self.data.drf("species", pk, link) for pk in matches[(page - 1) * size:page * size]],
        }
        return 200, self.dumps(body)

    # tech (www.swapi.tech)

    def tech_properties(self, kind, number):
        def link(target, pk):
            return f"{TECH_STORED_ROOT}{target}/{pk if pk is not None else 'null'}"

        drf = self.data.drf(kind, number, link)
        properties = {"created": TECH_LOADED, "edited": TECH_LOADED}
        for key, value in drf.items():
            if key in ("created", "edited", "films", "url"):
                continue
            properties[key] = value
        if kind == "species" and self.data.get("species", number)["homeworld"] is None:
            properties["homeworld"] = link("planets", None)
        properties["url"] = link(kind, number)
        return properties

    def tech_document(self, kind, number):
        return {"properties": self.tech_properties(kind, number), "_id": f"5f63a{kind[:2]}{number:04d}",
                "description": "A sepcies within the Star Wars universe" if kind == "species" else f"A {kind} resource",
                "uid": str(number), "__v": 2}

    def tech_envelope(self, body):
        body.update({"apiVersion": "1.0", "timestamp": email.utils.formatdate(usegmt=True),
                     "support": {"contact": "admin@swapi.tech", "donate": "https://www.paypal.com/donate"}})
        return self.dumps(body)

    def tech(self, rest, query, own_root):
        params = dict(urllib.parse.parse_qsl(query, keep_blank_values=True))
        path = rest.rstrip("/").lower()
        not_found = self.tech_envelope({"message": "Not found"})
        if path == "":
            return 200, self.tech_envelope({"message": "ok", "result": {
                kind: f"{own_root}{kind}" for kind in ("films", "people", "planets", "species", "starships", "vehicles")}})
        match = re.fullmatch(r"(species|people|planets|films)/(\d+)", path)
        if match:
            kind, number = match.group(1), int(match.group(2))
            if self.data.get(kind, number) is None:
                return 404, not_found
            return 200, self.tech_envelope({"message": "ok", "result": self.tech_document(kind, number)})
        if path != "species":
            return 200, HTML_ERROR
        ids = self.data.ids("species")
        if "name" in params:
            try:
                pattern = re.compile(params["name"], re.IGNORECASE)
            except re.error:
                return 500, self.tech_envelope({"message": "Invalid regular expression"})
            found = [pk for pk in ids if pattern.search(self.data.get("species", pk)["name"])]
            return 200, self.tech_envelope({"message": "ok", "result": [self.tech_document("species", pk) for pk in found]})
        limit = int(params["limit"]) if params.get("limit", "").isdigit() and int(params["limit"]) > 0 else 10
        pages = max(1, math.ceil(len(ids) / limit))
        page = int(params["page"]) if "limit" in params and params.get("page", "").isdigit() else 1
        page = min(max(page, 1), pages)
        chosen = ids[(page - 1) * limit:page * limit]
        if params.get("expanded") == "true":
            results = [self.tech_document("species", pk) for pk in chosen]
        else:
            results = [{"uid": str(pk), "name": self.data.get("species", pk)["name"], "url": f"{TECH_STORED_ROOT}species/{pk}"}
                       for pk in chosen]

        def page_link(number):
            return f"{own_root}species?page={number}&limit={limit}"

        return 200, self.tech_envelope({
            "message": "ok", "total_records": len(ids), "total_pages": pages,
            "previous": page_link(page - 1) if page > 1 else None,
            "next": page_link(page + 1) if page < pages else None,
            "results": results})

    # info (swapi.info)

    def info(self, rest, query, own_root):
        def link(kind, number):
            return f"{INFO_STORED_ROOT}{kind}/{number}"

        not_found = b"<!DOCTYPE html><html><head><title>404: This page could not be found</title></head></html>"
        path = rest.rstrip("/")
        if path == "":
            return 200, json.dumps({kind: f"{INFO_STORED_ROOT}{kind}" for kind in (
                "films", "people", "planets", "species", "vehicles", "starships")}, indent="\t").encode()
        match = re.fullmatch(r"(species|people|planets|films)/(\d+)(?:\.json)?", path)
        if match:
            kind, number = match.group(1), int(match.group(2))
            if self.data.get(kind, number) is None:
                return 404, not_found
            return 200, json.dumps(self.data.drf(kind, number, link), indent="\t", ensure_ascii=False).encode()
        if path in ("species", "species/all"):
            everything = [self.data.drf("species", pk, link) for pk in self.data.ids("species")]
            return 200, json.dumps(everything, indent="\t", ensure_ascii=False).encode()
        return 404, not_found

    @staticmethod
    def dumps(body):
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Without this, each keep-alive response waits ~40 ms (Nagle + delayed ACK).
    disable_nagle_algorithm = True

    def do_GET(self):
        server = self.server
        target = urllib.parse.urlsplit(self.path)
        session, separator, rest = target.path.lstrip("/").partition("api/")
        if target.path.endswith("/_log"):
            wanted = int(urllib.parse.parse_qs(target.query).get("wait", ["0"])[0])
            chosen = server.agents if "agents=1" in target.query else server.sent if "sent=1" in target.query else server.log
            with server.logged:
                key = target.path[1:-len("_log")]
                server.logged.wait_for(lambda: len(chosen.get(key, [])) >= wanted, timeout=600)
                entries = list(chosen.get(key, []))
            return self.send(200, json.dumps(entries).encode())
        if not separator:
            return self.send(404, NOT_FOUND)
        with server.lock:
            server.log.setdefault(session, []).append(self.path)
            server.agents.setdefault(session, []).append(self.headers.get("User-Agent", ""))
            count = len(server.log[session])
            server.logged.notify_all()
        settings = dict(part.split("=", 1) for part in session.split("/") if "=" in part)
        if "gate" in settings:
            came = self.pass_gate(session, count, int(settings["gate"]))
            if came is not None:
                detail = f"gate: {came} of the {settings['gate']} requests of this round trip came in {GATE_SECONDS} s"
                return self.send(504, json.dumps({"detail": detail}).encode())
        delay = float(settings.get("delay", 0)) / 1000 or server.latency
        if delay:
            time.sleep(delay)
        fault = settings.get("fault", server.fault)
        if "faulty" in settings and count > int(settings["faulty"]):
            fault = None
        if "sound" in settings and count <= int(settings["sound"]):
            fault = None
        dialect = settings.get("dialect", server.dialect)
        if fault and fault not in FAULTS or dialect not in ("drf", "tech", "info"):
            return self.send(400, f"unknown fault or dialect in {session}".encode())
        if fault and self.misbehave(fault, count, session, rest):
            return
        scheme = "https" if server.tls else "http"
        own_root = f"{scheme}://{self.headers.get('Host', '127.0.0.1')}/{session}api/"
        if dialect == "drf" and rest and not rest.endswith("/"):
            location = f"/{session}api/{rest}/" + (f"?{target.query}" if target.query else "")
            return self.send(301, b"", {"Location": location})
        query = target.query
        if fault == "ignore-search":
            query = urllib.parse.urlencode([(k, v) for k, v in urllib.parse.parse_qsl(query) if k not in ("search", "name")])
        if fault == "shifting" and dialect == "drf":
            status, body = server.dialects.drf(rest, target.query, own_root, rotate=count - 1)
        elif fault in ("pages-of-5", "pages-of-20") and dialect == "drf":
            status, body = server.dialects.drf(rest, query, own_root, size=int(fault.split("-")[-1]))
        elif fault == "public-urls" and dialect == "drf":
            status, body = server.dialects.drf(rest, query, own_root, species_root="https://swapi.dev/api/")
        elif fault == "empty-search" and "search" in dict(urllib.parse.parse_qsl(query)):
            status, body = 200, b'{"count":0,"next":null,"previous":null,"results":[]}'
        elif fault == "later-pages-tech" and rest == "species/" and drf_query_key(target.query) != frozenset():
            page = dict(urllib.parse.parse_qsl(target.query)).get("page", "1")
            status, body = server.dialects.tech("species", f"page={page}&limit=10&expanded=true", own_root)
        elif fault == "dialect-flip":
            flipped = "tech" if count % 2 == 0 else "drf"
            if flipped == "tech" and rest.startswith("species/"):
                page = dict(urllib.parse.parse_qsl(target.query)).get("page", "1")
                status, body = server.dialects.tech("species", f"page={page}&limit=10&expanded=true", own_root)
            else:
                status, body = server.dialects.drf(rest, target.query, own_root)
        else:
            status, body = getattr(server.dialects, dialect)(rest, query, own_root)
        if fault:
            status, body = self.alter(fault, status, body, rest, query, own_root)
        content_type = "application/json" if body[:1] in (b"{", b"[") else "text/html"
        if fault == "drip":
            return self.drip(status, body)
        if fault == "slow-body":
            return self.drip(status, body, chunk=110, pause=0.1)
        if fault == "oversized":
            return self.send_without_length(status, body)
        if fault == "flood-beside" and rest == "species/":
            return self.send_when_floods_end(session, status, body)
        if fault == "many-headers":
            return self.send(status, body, {f"X-Filler-{number}": "x" for number in range(20_000)}, content_type=content_type)
        if fault == "gzip-bomb" and rest == "species/" and drf_query_key(target.query) == frozenset():
            return self.send(status, self.server.gzip_bomb(body), {"Content-Encoding": "gzip"})
        if fault == "gzip-bombs" and rest.rstrip("/") == "species":
            return self.send(status, self.server.big_gzip_bomb(), {"Content-Encoding": "gzip"})
        if fault in ("content-length-huge", "content-length-max"):
            length = "30000000000" if fault == "content-length-huge" else "9223372036854775807"
            return self.send_short(status, body[:100], length)
        if status == 200 and dialect == "drf":
            etag = self.server.etag(body)
            if self.headers.get("If-None-Match") == etag:
                return self.send(304, b"")
            return self.send(status, body, {"ETag": etag})
        self.send(status, body, content_type=content_type)

    def pass_gate(self, session, count, width):
        """Waits until the session has seen the rest of this request's round
        trip (up to the next multiple of `width`); None then, or after
        GATE_SECONDS how many of the round had come."""
        server = self.server
        round_end = -(-count // width) * width
        with server.gate:
            server.gate.notify_all()
            if server.gate.wait_for(lambda: len(server.log[session]) >= round_end, timeout=GATE_SECONDS):
                return None
            return len(server.log[session]) - (round_end - width)

    def misbehave(self, fault, count, session, rest):
        """Answers in place of the server for faults that need no body;
        True when it did."""
        retry_after = {
            "429-once": "1",
            "429-date-once": email.utils.formatdate(time.time() + 1, usegmt=True),
            "429-long": "25924",
            "retry-after-huge": "99999999999999999999",
            "retry-after-hex": "0x10",
            "retry-after-4": "4",
        }
        port = self.server.server_address[1]
        if fault in retry_after and (count == 1 or fault in ("429-long", "retry-after-huge", "retry-after-4")):
            status = 503 if fault.startswith("retry-after") else 429
            self.send(status, b'{"detail":"Request was throttled."}', {"Retry-After": retry_after[fault]})
        elif fault in ("500-once", "503-once") and count == 1:
            self.send(int(fault[:3]), HTML_ERROR, content_type="text/html")
        elif fault == "503-always" or (fault == "page3-500" and "page=3" in self.path):
            self.send(503 if fault == "503-always" else 500, HTML_ERROR, content_type="text/html")
        elif fault == "person-500" and rest.startswith("people/13"):
            self.send(500, HTML_ERROR, content_type="text/html")
        elif fault == "person-html" and rest.startswith("people/13"):
            self.send(200, HTML_ERROR, content_type="text/html")
        elif fault == "404-json":
            self.send(404, NOT_FOUND)
        elif fault == "404-html":
            self.send(404, HTML_NOT_FOUND, content_type="text/html")
        elif fault in ("401", "403"):
            self.send(int(fault), b'{"detail":"Authentication credentials were not provided."}')
        elif fault in LATER and later_page(rest, urllib.parse.urlsplit(self.path).query):
            if fault == "later-500":
                self.send(500, HTML_ERROR, content_type="text/html")
            elif fault == "later-html":
                self.send(200, HTML_ERROR, content_type="text/html")
            elif fault == "later-empty":
                self.send(200, b'{"count":0,"next":null,"previous":null,"results":[]}')
            elif fault == "later-hang":
                self.wait_for_client_to_leave(300)
            self.close_connection = fault in ("later-drop", "later-hang")
        elif fault == "flood-beside" and later_page(rest, urllib.parse.urlsplit(self.path).query):
            self.flood(session)
        elif fault == "drop-always" or (fault == "drop-once" and count == 1):
            self.close_connection = True
        elif fault == "half-headers":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
            self.close_connection = True
        elif fault == "hang" or (fault == "related-hang" and re.match(r"(planets|people|films)/", rest)):
            self.wait_for_client_to_leave(300)
            self.close_connection = True
        elif fault == "redirect-off-host":
            self.send(302, b"", {"Location": f"http://localhost:{port}/{session}api/{rest}"})
        elif fault == "redirect-other-port":
            self.send(302, b"", {"Location": f"http://127.0.0.1:{self.server.other_port}/{session}api/{rest}"})
        elif fault == "redirect-later-pages" and ("page=3" in self.path or "page=4" in self.path):
            self.send(302, b"", {"Location": f"http://127.0.0.1:{self.server.other_port}/{session}api/{rest}"})
        elif fault == "redirect-no-location":
            self.send(302, b"")
        elif fault == "not-modified":
            self.send(304, b"")
        else:
            return False
        return True

    def alter(self, fault, status, body, rest, query, own_root):
        """The answer, changed as the fault says."""
        first_page = rest == "species/" and drf_query_key(query) == frozenset()
        if fault == "html":
            return 200, HTML_ERROR
        if fault == "truncated":
            return status, body[:len(body) // 2]
        if fault == "wrong-types" and first_page:
            with open(os.path.join(self.server.fixtures, "bad", "wrong-types.json"), "rb") as file:
                return 200, file.read().replace(b"https://swapi.dev/api/", own_root.encode())
        if fault == "loop" and drf_query_key(query) == frozenset({("page", "3")}):
            return status, self.edit(body, next=f"{own_root}species/?page=2")
        if fault == "cross-host-next" and first_page:
            return status, self.edit(body, next="http://evil.example/api/species/?page=2")
        if fault == "file-next" and first_page:
            return status, self.edit(body, next="file:///etc/passwd")
        if fault == "count-mismatch" and first_page:
            return status, self.edit(body, count=38)
        species_page = status == 200 and rest.rstrip("/") == "species" and body[:1] == b"{" and b'"result":' not in body
        page_number = dict(urllib.parse.parse_qsl(query)).get("page", "1")
        if fault in COUNTS and species_page:
            page = json.loads(body)
            key = "total_records" if "total_records" in page else "count"
            if COUNTS[fault] is None:
                del page[key]
                return status, json.dumps(page).encode()
            page[key] = "COUNT"
            return status, json.dumps(page).encode().replace(b'"COUNT"', COUNTS[fault])
        if (fault in ELEMENTS or fault == "element-again") and status == 200 and rest.rstrip("/") == "species":
            return status, self.element_fault(fault, body, page_number)
        if fault == "short-page-1" and species_page and page_number == "1":
            page = json.loads(body)
            return status, self.edit(body, results=page["results"][:-1])
        if fault == "one-fewer" and species_page and "results" in json.loads(body):
            page = json.loads(body)
            key = "total_records" if "total_records" in page else "count"
            last = page[key] == len(page["results"]) + 10 * (int(page_number) - 1)
            return status, self.edit(body, **{key: page[key] - 1, "results": page["results"][:-1] if last else page["results"]})
        if fault == "shrunk" and species_page and "results" in json.loads(body):
            number = int(page_number)
            if number > 2:
                return 404, NOT_FOUND
            page = json.loads(body)
            return status, self.edit(body, count=15, results=page["results"][:15 - 10 * (number - 1)],
                                     next=page["next"] if number == 1 else None)
        if fault == "count-billion" and species_page:
            page = json.loads(body)
            return status, self.edit(body, **{"total_records" if "total_records" in page else "count": 1_000_000_000})
        if fault == "oversized-page-2" and species_page and page_number == "2":
            return status, body[:-1] + b" " * (2 * 1024 * 1024 + 1) + b"}"
        if fault == "as-array" and first_page:
            return status, json.dumps(json.loads(body)["results"]).encode()
        if fault == "search-form" and species_page and "total_records" in json.loads(body):
            page = json.loads(body)
            return status, json.dumps({"message": "ok", "total_records": page["total_records"], "result": page["results"]}).encode()
        if fault == "short-page-2" and species_page and page_number == "2":
            page = json.loads(body)
            return status, self.edit(body, results=page["results"][:-1])
        if fault in ("next-back", "next-self") and species_page and page_number == "2":
            page = json.loads(body)
            link = page["previous"] if fault == "next-back" else page["previous"].replace("page=1", "page=2")
            return status, self.edit(body, next=link)
        changes = {
            "escape-name": {"name": "\x1b[2J\x1b[31mRed\x1b[0m Human\x07", "language": "Galactic\u009b31m Basic"},
            "bidi-name": {"name": "Hu\u202eman\u200b\u2028🚀", "language": "Galactic\u2066 Basic\ufeff ❤️"},
            "invisible-name": {"name": "Hu\u00adman\u061c"},
            "impossible-date": {"created": "2014-02-30T00:00:00.000000Z"},
            "far-dates": {"created": "1500-06-01T00:00:00+00:00", "edited": "9999-12-31T23:59:59.999999Z"},
        }
        if fault == "far-dates" and (first_page or rest == "species/2/"):
            document = json.loads(body)
            (document["results"][1] if first_page else document).update(
                {"created": "2014-12-10T15:16:16Zjunk", "edited": "2014-12-10T15:16:16+00:60"})
            body = json.dumps(document).encode()
        if fault in changes and (first_page or rest == "species/1/"):
            document = json.loads(body)
            (document["results"][0] if first_page else document).update(changes[fault])
            return status, json.dumps(document).encode()
        if fault == "dangling-film" and rest == "species/3/":
            document = json.loads(body)
            return status, self.edit(body, films=document["films"] + [f"{own_root}films/7/"])
        if fault == "related-species" and rest == "species/3/":
            document = json.loads(body)
            return status, self.edit(body, people=document["people"][:1] + [f"{own_root}species/4/"])
        if fault == "off-host-homeworld" and rest == "species/3/":
            return status, self.edit(body, homeworld="http://evil.example/api/planets/14/")
        if fault in ("oversized", "oversized-declared") and first_page:
            return status, body[:-1] + b" " * (2 * 1024 * 1024) + b"}"
        if fault == "spreadsheet-names" and first_page:
            document = json.loads(body)
            for species, name in zip(document["results"], SPREADSHEET_NAMES):
                species["name"] = name
            return status, json.dumps(document).encode()
        if fault == "empty-list" and first_page:
            return status, b'{"count":0,"next":null,"previous":null,"results":[]}'
        if fault == "thousands" and rest == "species/" and "search" not in dict(urllib.parse.parse_qsl(query)):
            return self.thousands(query, own_root)
        if (fault == "huge-page" and first_page) or (fault == "huge-array" and rest == "species/" and status == 200
                                                      and "search" not in dict(urllib.parse.parse_qsl(query))):
            return status, self.server.huge_page(body, own_root)
        if fault == "empty-objects" and first_page:
            return status, b'{"count":3000000,"next":null,"previous":null,"results":[' + b",".join([b"{}"] * 3_000_000) + b"]}"
        if fault == "dense-page" and first_page:
            return status, self.server.dense_page(own_root)
        if fault == "big-page" and first_page:
            results = [{**species, "name": f"{species['name']} {number}", "url": f"{own_root}species/{number}/"}
                       for number, species in enumerate(json.loads(body)["results"] * 200, start=1)]
            return status, json.dumps(results).encode()
        return status, body

    def thousands(self, query, own_root, count=5000):
        """A page of a listing of `count` species, SWAPI's over and over."""
        page = dict(urllib.parse.parse_qsl(query)).get("page", "1")
        pages = count // PAGE_SIZE
        if not page.isdigit() or not 1 <= int(page) <= pages:
            return 404, NOT_FOUND
        page = int(page)
        data = self.server.dialects.data
        ids = data.ids("species")

        def link(kind, number):
            return f"{own_root}{kind}/{number}/"

        def species(number):
            record = data.drf("species", ids[(number - 1) % len(ids)], link)
            return {**record, "name": f"{record['name']} {number}", "url": link("species", number)}

        results = [species(number) for number in range((page - 1) * PAGE_SIZE + 1, page * PAGE_SIZE + 1)]
        body = {"count": count, "next": f"{own_root}species/?page={page + 1}" if page < pages else None,
                "previous": f"{own_root}species/?page={page - 1}" if page > 1 else None, "results": results}
        return 200, Dialects.dumps(body)

    @staticmethod
    def element_fault(fault, body, page_number):
        """The first species of page 2, or swapi.info's 11th, as the fault says."""
        document = json.loads(body)
        if isinstance(document, list):
            elements, index = document, 10
        elif page_number == "2" and "results" in document:
            elements, index = document["results"], 0
        else:
            return body
        tech = isinstance(elements[index], dict) and "properties" in elements[index]
        species = elements[index]["properties"] if tech else elements[index]
        if fault == "element-again":
            first = elements[0] if isinstance(document, list) else None
            url = species["url"].rstrip("/")
            again = re.sub(r"species/\d+$", "species/1", url)
            changed = {**(first["properties"] if tech and first else first or species), "name": "Again",
                       "url": again if url != species["url"] else again + "/"}
        else:
            changed = ELEMENTS[fault](species)
        if tech and fault != "element-empty" and changed is not None:
            elements[index] = {**elements[index], "properties": changed}
        else:
            elements[index] = changed
        return json.dumps(document).encode()

    @staticmethod
    def edit(body, **changes):
        page = json.loads(body)
        page.update(changes)
        return json.dumps(page).encode()

    def wait_for_client_to_leave(self, seconds):
        deadline = time.time() + seconds
        # poll, not select: select refuses descriptors past 1023.
        poller = select.poll()
        poller.register(self.connection, select.POLLIN)
        while time.time() < deadline:
            if poller.poll(1000) and not self.connection.recv(1024):
                return

    def flood(self, session):
        """A body of FLOOD_BYTES, as fast as the client reads, once page 1 has
        begun; how much was sent before the client hung up goes to the log."""
        server = self.server
        with server.logged:
            server.logged.wait_for(lambda: session in server.begun, timeout=FLOOD_SECONDS)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(FLOOD_BYTES))
        self.end_headers()
        block, sent = b"[" + b" " * 65535, 0
        try:
            while sent < FLOOD_BYTES:
                self.wfile.write(block)
                sent += len(block)
        except OSError:
            pass
        with server.logged:
            server.sent.setdefault(session, []).append(f"{self.path} {sent}")
            server.logged.notify_all()
        self.close_connection = True

    def send_when_floods_end(self, session, status, body):
        """Page 1 beside floods: its first byte, then the rest once every
        later page the session asked has ended its flood."""
        server = self.server
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[:1])
        with server.logged:
            server.begun.add(session)
            server.logged.notify_all()
            later = sum(1 for path in server.log[session] if later_page(*self.rest_and_query(path)))
            server.logged.wait_for(lambda: len(server.sent.get(session, [])) >= later, timeout=FLOOD_SECONDS)
        self.wfile.write(body[1:])

    @staticmethod
    def rest_and_query(path):
        target = urllib.parse.urlsplit(path)
        return target.path.partition("api/")[2], target.query

    def drip(self, status, body, chunk=1, pause=1.0):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            for start in range(0, len(body), chunk):
                self.wfile.write(body[start:start + chunk])
                self.wfile.flush()
                time.sleep(pause)
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

    def send_short(self, status, body, length):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", length)
        self.end_headers()
        self.wfile.write(body)
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
    def handle_error(self, request, client_address):
        """Says nothing of a client that hung up (as species does when it
        gives a request up); anything else is a traceback on stderr."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)

    # The default backlog of 5 drops connections when many tests start at
    # once, and a dropped SYN is resent only after a second.
    request_queue_size = 256
    daemon_threads = True
    huge_page_template = None
    huge_pages = {}
    huge_etags = {}
    connection_log = None

    tls_context = None

    def get_request(self):
        """Accepts a connection; with --connection-log, counts it before any
        TLS handshake, so that a client its certificate turns away counts."""
        connection, address = self.socket.accept()
        if self.connection_log:
            with open(self.connection_log, "a") as log:
                log.write(f"{address[0]}\n")
        return connection, address

    def finish_request(self, request, client_address):
        """With --tls, the handshake, in the connection's own thread, as a
        real server makes several at once; then the requests."""
        if self.tls_context:
            try:
                request = self.tls_context.wrap_socket(request, server_side=True)
            except OSError:
                return
        super().finish_request(request, client_address)

    # The bodies below take up to a second to make. They are made under a lock
    # of their own, not under `lock`, which every request takes to log itself:
    # while one is made, the other tests' requests go on being answered.
    build_lock = threading.Lock()
    bomb_lock = threading.Lock()

    def dense_page(self, own_root):
        """One species whose lists hold as many values as species accepts
        under its default size limit (Sources/SpeciesKit/Core/JSONValueCount.swift).
        It is made once, with a stand-in for the root, as the huge page is."""
        with self.build_lock:
            if not hasattr(self, "dense"):
                long = b",".join(b'"%s%08d"' % (b"x" * 81, number) for number in range(1_092_000))
                short = b",".join([b'"x"'] * 1_092_000)
                self.dense = (b'{"count":1,"next":null,"previous":null,"results":[{"name":"Dense","url":"'
                              + HUGE_PAGE_ROOT.encode() + b'species/1/","people":[' + long + b'],"films":[' + short + b']}]}')
        return self.dense.replace(HUGE_PAGE_ROOT.encode(), own_root.encode(), 1)

    def gzip_bomb(self, first_page):
        """The first page with 100 MiB of spaces before its last brace, gzipped."""
        with self.build_lock:
            if not hasattr(self, "bomb"):
                self.bomb = gzip.compress(first_page[:-1] + b" " * (100 * 1024 * 1024) + b"}", compresslevel=9)
            return self.bomb

    def big_gzip_bomb(self):
        """A page that inflates to 1 GiB: a count, then spaces."""
        with self.bomb_lock:
            if not hasattr(self, "big_bomb"):
                deflate = zlib.compressobj(1, zlib.DEFLATED, 31)
                spaces = b" " * (1 << 20)
                self.big_bomb = b"".join([deflate.compress(b'{"count":37,"results":[')]
                                         + [deflate.compress(spaces) for _ in range(1024)] + [deflate.compress(b"]}"), deflate.flush()])
            return self.big_bomb

    def etag(self, body):
        """The body's ETag; a huge page's is reckoned once, as a server that
        keeps its ETags does, so that each request begins at once."""
        huge = any(body is page for page in self.huge_pages.values())
        if huge and id(body) in self.huge_etags:
            return self.huge_etags[id(body)]
        etag = '"' + hashlib.md5(body).hexdigest() + '"'
        if huge:
            self.huge_etags[id(body)] = etag
        return etag

    def huge_page(self, first_page, own_root):
        """One array of --huge-page species, as swapi.info's listing is, the
        first page's over and over, each with an id and URL of its own (a
        SWAPI page holds 10). It is made once, with a stand-in
        for the root, and each root gets a copy with its own: one json.dumps
        of the whole page would hold Python's interpreter lock for a second,
        and no request could be accepted meanwhile."""
        with self.build_lock:
            if self.huge_page_template is None:
                species = json.loads(first_page.replace(own_root.encode(), HUGE_PAGE_ROOT.encode()))["results"]
                results = [json.dumps({**species[(number - 1) % len(species)], "url": f"{HUGE_PAGE_ROOT}species/{number}/",
                                       "name": f"{species[(number - 1) % len(species)]['name']} {number}"}, separators=(",", ":"))
                           for number in range(1, self.huge_page_species + 1)]
                self.huge_page_template = ("[" + ",".join(results) + "]").encode()
            # Made once a root: the pages a first contact asks at once each
            # begin at once, as a server's would, not after the others' making.
            if own_root not in self.huge_pages:
                self.huge_pages[own_root] = self.huge_page_template.replace(HUGE_PAGE_ROOT.encode(), own_root.encode())
            return self.huge_pages[own_root]


def main():
    faults = "\n".join(f"  {name}: {what}" for name, what in FAULTS.items())
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=f"faults:\n{faults}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--fixtures", default=os.path.join(here, "..", "..", "Fixtures"))
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--latency-ms", type=float, default=0, help="delay before each answer")
    parser.add_argument("--verbose", action="store_true", help="log each request on stderr")
    parser.add_argument("--exit-with-stdin", action="store_true", help="exit when standard input closes")
    parser.add_argument("--huge-page", type=int, default=100_000, help="species on the page of the huge-page fault")
    parser.add_argument("--tls", metavar="PEM", help="serve https with this certificate and key")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    parser.add_argument("--dialect", default="drf", choices=("drf", "tech", "info"), help="of sessions that name none")
    parser.add_argument("--fault", choices=sorted(FAULTS), help="of sessions that name none")
    parser.add_argument("--gzip-bombs", action="store_true", help="make the gzip-bombs page (2 s or more) before listening")
    parser.add_argument("--connection-log", metavar="FILE", help="append a line to FILE for each connection accepted")
    options = parser.parse_args()

    server = Server((options.host, options.port), Handler)
    server.dialect = options.dialect
    server.fault = options.fault
    server.connection_log = options.connection_log
    server.dialects = Dialects(DataSet(os.path.join(options.fixtures, "swapi-data")))
    server.fixtures = options.fixtures
    server.huge_page_species = options.huge_page
    server.latency = options.latency_ms / 1000
    server.verbose = options.verbose
    server.lock = threading.Lock()
    server.logged = threading.Condition(server.lock)
    server.gate = threading.Condition(server.lock)
    server.log = {}
    server.agents = {}
    server.sent = {}
    server.begun = set()
    server.tls = bool(options.tls)
    if options.gzip_bombs:
        server.big_gzip_bomb()
    if options.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.tls)
        server.tls_context = context
    # A second listener, for the redirect to another port.
    other = Server(("127.0.0.1", 0), Handler)
    for name in ("dialects", "fixtures", "huge_page_species", "latency", "verbose", "lock", "gate", "log", "tls", "dialect", "fault"):
        setattr(other, name, getattr(server, name))
    server.other_port = other.other_port = other.server_address[1]
    threading.Thread(target=other.serve_forever, daemon=True).start()

    def exit_when_stdin_closes():
        while sys.stdin.buffer.read(65536):
            pass
        os._exit(0)

    if options.exit_with_stdin:
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    print(f"listening on {'https' if options.tls else 'http'}://{options.host}:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
