#!/usr/bin/env python3
"""`make bench`: times species against a local SWAPI-like server with a set
latency, next to the usual ways of doing the same job, and prints one table.

Every case is the median of --runs runs. species is the release build that
`make install` makes. The HTTP helper's CPU and memory are counted with
species' own: it runs under /usr/bin/time through SPECIES_HTTP_HELPER.
Python 3 standard library only (the `requests` case is skipped, and says
so, where requests is not installed).
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE_TARGET_MBPS = 50

CURL_JQ_LOOP = r"""
url="$1species/"; all='[]'
while [ "$url" != null ]; do
  page=$(curl -fsS "$url") || exit 1
  all=$(jq -c --argjson all "$all" '$all + .results' <<<"$page")
  url=$(jq -r .next <<<"$page")
done
printf '%s\n' "$all"
"""

REQUESTS_LOOP = r"""
import json, sys, requests
url, species = sys.argv[1] + "species/", []
with requests.Session() as session:
    while url:
        page = session.get(url, timeout=15)
        page.raise_for_status()
        page = page.json()
        species += page["results"]
        url = page["next"]
json.dump(species, sys.stdout)
"""


class Server:
    def __init__(self, latency_ms):
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "swapi_server.py"), "--port", "0", "--exit-with-stdin",
             "--latency-ms", str(latency_ms)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            sys.exit(f"bench: the server did not start: {line!r}")
        self.origin = line.split()[-1].rstrip("/")
        self.sessions = 0

    def root(self, fault=None):
        self.sessions += 1
        return f"{self.origin}/b{self.sessions}/" + (f"fault={fault}/" if fault else "") + "api/"

    def requests(self, root):
        session = root[len(self.origin):-len("api/")]
        with open(os.devnull) as _:
            out = subprocess.run(["curl", "-fsS", f"{self.origin}{session}_log"], capture_output=True, text=True)
        return json.loads(out.stdout) if out.returncode == 0 else None

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


class Measure:
    """Wall time, CPU time and peak RSS of one command, and of the HTTP
    helper it started, if any."""

    def __init__(self, helper_report):
        self.helper_report = helper_report

    def run(self, command, env, stdout=subprocess.DEVNULL, shell=False):
        if os.path.exists(self.helper_report):
            os.remove(self.helper_report)
        start = time.perf_counter()
        process = subprocess.Popen(command, env=env, stdout=stdout, stderr=subprocess.PIPE, shell=shell,
                                   executable="/bin/bash" if shell else None)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        stderr = process.stderr.read().decode(errors="replace")
        process.stderr.close()
        cpu = usage.ru_utime + usage.ru_stime
        rss = [usage.ru_maxrss * 1024]
        helper = self.helper_usage()
        if helper:
            cpu += helper["cpu"]
            rss.append(helper["rss"])
        return {"wall": wall, "cpu": cpu, "rss": rss, "status": os.waitstatus_to_exitcode(status), "stderr": stderr}

    def helper_usage(self):
        # The helper outlives species by a moment: wait for its report.
        for _ in range(200):
            try:
                with open(self.helper_report) as report:
                    fields = report.read().split()
                if len(fields) == 3:
                    return {"rss": int(fields[0]) * 1024, "cpu": float(fields[1]) + float(fields[2])}
            except FileNotFoundError:
                pass
            time.sleep(0.01)
        return None


def median(values):
    return statistics.median(values)


def milliseconds(seconds):
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def megabytes(count):
    return f"{count / 1e6:.0f} MB"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True, help="the folder of species and species-http")
    parser.add_argument("--latency-ms", type=float, default=100)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--huge-runs", type=int, default=3)
    options = parser.parse_args()

    species = os.path.join(options.bin_dir, "species")
    scratch = tempfile.mkdtemp(prefix="species-bench-")
    helper_report = os.path.join(scratch, "helper-usage")
    wrapper = os.path.join(scratch, "species-http")
    with open(wrapper, "w") as script:
        script.write(f'#!/bin/sh\nexec /usr/bin/time -f "%M %U %S" -o "{helper_report}" '
                     f'"{os.path.join(options.bin_dir, "species-http")}" "$@"\n')
    os.chmod(wrapper, 0o755)
    measure = Measure(helper_report)

    def env(cache=None, **extra):
        values = {"PATH": os.environ["PATH"], "HOME": scratch, "LANG": "C.UTF-8",
                  "XDG_CACHE_HOME": cache or tempfile.mkdtemp(dir=scratch), "SPECIES_HTTP_HELPER": wrapper}
        values.update(extra)
        return values

    server = Server(options.latency_ms)
    rows = []
    notes = []
    try:
        latency = options.latency_ms / 1000
        all_pages_target = 2.5 * latency + 0.030

        def species_runs(arguments, cache_for=lambda run: None, check_requests=None, runs=options.runs):
            walls, cpus = [], []
            for run in range(runs):
                root = server.root()
                out = measure.run([species, "--base-url", root] + arguments, env(cache_for(run)), stdout=subprocess.PIPE)
                if out["status"] != 0:
                    sys.exit(f"bench: species {' '.join(arguments)} failed: {out['stderr']}")
                if check_requests is not None:
                    made = len(server.requests(root) or [])
                    if made != check_requests:
                        sys.exit(f"bench: species {' '.join(arguments)} made {made} requests, not {check_requests}")
                walls.append(out["wall"])
                cpus.append(out["cpu"])
            return median(walls), median(cpus)

        # Output checked once, so that the figures are those of a right answer.
        check = subprocess.run([species, "--base-url", server.root(), "list", "--all-pages", "--json"],
                               env=env(), capture_output=True, text=True)
        if len(json.loads(check.stdout)) != 37:
            sys.exit("bench: species did not print 37 species")

        cold, _ = species_runs(["list", "--all-pages", "--json"], check_requests=4)
        rows.append(("species list --all-pages --json, cold cache", milliseconds(cold),
                     f"<= {milliseconds(all_pages_target)}", cold <= all_pages_target, cold))
        serial, _ = species_runs(["list", "--all-pages", "--json", "--serial"], check_requests=4)
        rows.append(("  the same, --serial", milliseconds(serial), "", None, serial))
        warm_cache = tempfile.mkdtemp(dir=scratch)
        subprocess.run([species, "--base-url", server.origin + "/warm/api/", "list", "--all-pages"], env=env(warm_cache),
                       capture_output=True)
        subprocess.run([species, "--base-url", server.origin + "/warm/api/", "show", "Wookie"], env=env(warm_cache),
                       capture_output=True)
        warm, _ = species_runs_at(measure, species, server.origin + "/warm/api/", ["list", "--all-pages", "--json"],
                                  env(warm_cache), options.runs)
        rows.append(("  the same, warm cache", milliseconds(warm), "", None, warm))
        show, _ = species_runs_at(measure, species, server.origin + "/warm/api/", ["show", "Wookie"], env(warm_cache),
                                  options.runs)
        rows.append(("species show Wookie, warm cache", milliseconds(show), "<= 15 ms", show <= 0.015, show))
        version = median([measure.run([species, "--version"], env())["wall"] for _ in range(max(options.runs, 15))])
        rows.append(("species --version", f"{version * 1000:.1f} ms", "<= 6 ms", version <= 0.006, version))

        if shutil.which("curl") and shutil.which("jq"):
            walls = []
            for _ in range(options.runs):
                out = measure.run(["bash", "-c", CURL_JQ_LOOP, "loop", server.root()], env(), stdout=subprocess.DEVNULL)
                walls.append(out["wall"])
            rows.append(("curl + jq loop following next", milliseconds(median(walls)), "", None, median(walls)))
        else:
            notes.append("the curl + jq loop was skipped: curl or jq is missing")
        has_requests = subprocess.run([sys.executable, "-c", "import requests"], capture_output=True).returncode == 0
        if has_requests:
            walls = [measure.run([sys.executable, "-c", REQUESTS_LOOP, server.root()], env())["wall"] for _ in range(options.runs)]
            rows.append(("python requests loop following next", milliseconds(median(walls)), "", None, median(walls)))
        else:
            notes.append("the python requests loop was skipped: the requests package is not installed")

        # Throughput: one page of 100,000 species, from a server without
        # latency. Only its size is kept here: a child's peak RSS can count
        # pages it shares with this process until it execs.
        fast = Server(0)
        huge_root = fast.root("huge-page")
        size = int(subprocess.run(["curl", "-fsS", "-o", "/dev/null", "-w", "%{size_download}", huge_root + "species/"],
                                  capture_output=True, text=True).stdout)
        walls, peaks = [], []
        for _ in range(options.huge_runs):
            out = measure.run([species, "--base-url", huge_root, "list", "--jsonl"], env())
            walls.append(out["wall"])
            peaks.append(out["rss"])
        huge = median(walls)
        species_rss = max(peak[0] for peak in peaks)
        helper_rss = max(peak[1] for peak in peaks if len(peak) > 1)
        total_rss = species_rss + helper_rss
        rows.append((f"100,000 species ({megabytes(size)}) list --jsonl", f"{size / huge / 1e6:.0f} MB/s",
                     f">= {PAGE_TARGET_MBPS} MB/s", size / huge / 1e6 >= PAGE_TARGET_MBPS, huge))
        rows.append(("  peak RSS, species + helper", f"{megabytes(species_rss)} + {megabytes(helper_rss)}",
                     f"<= {megabytes(3 * size)}", total_rss <= 3 * size, None))
        if shutil.which("jq"):
            walls, peaks = [], []
            for _ in range(options.huge_runs):
                out = measure.run(f"curl -fsS '{huge_root}species/' | jq -c '.results[]' > /dev/null", env(), shell=True)
                walls.append(out["wall"])
                peaks.append(out["rss"][0])
            rows.append(("curl | jq -c '.results[]', same page", f"{size / median(walls) / 1e6:.0f} MB/s", "", None,
                         median(walls)))
            rows.append(("  peak RSS", megabytes(max(peaks)), "", None, None))
        fast.close()

        # Waiting: one request answered after 2 s, on a fresh connection.
        slow = Server(2000)
        try:
            out = measure.run([species, "--base-url", slow.root(), "--no-cache", "show", "3"], env())
            share = out["cpu"] / out["wall"]
            rows.append(("CPU while waiting 2 s for an answer", f"{share * 100:.0f} %", "<= 10 %", share <= 0.10, None))
            out = measure.run([species, "--base-url", slow.root(), "--no-cache", "--serial", "list", "--all-pages"], env())
            share = out["cpu"] / out["wall"]
            rows.append(("  4 pages, one connection, 8 s", f"{share * 100:.0f} %", "", None, None))
        finally:
            slow.close()
    finally:
        server.close()
        shutil.rmtree(scratch, ignore_errors=True)

    print(f"species bench: {options.latency_ms:.0f} ms of latency a request, median of {options.runs} runs "
          f"({options.huge_runs} for the 100,000 species)\n")
    width = max(len(row[0]) for row in rows) + 2
    print(f"{'case':<{width}}{'measured':>14}  {'target':<16}{'':<6}{'vs species':>12}")
    for name, value, target, met, seconds in rows:
        verdict = "" if met is None else ("met" if met else "MISSED")
        ratio = ""
        if seconds is not None and name.startswith(("curl + jq", "python")):
            ratio = f"{seconds / cold:.1f}x slower"
        if name.startswith("curl | jq"):
            ratio = f"{seconds / huge:.1f}x slower"
        print(f"{name:<{width}}{value:>14}  {target:<16}{verdict:<6}{ratio:>12}")
    for note in notes:
        print(f"\nnote: {note}")


def species_runs_at(measure, species, root, arguments, environment, runs):
    walls, cpus = [], []
    for _ in range(runs):
        out = measure.run([species, "--base-url", root] + arguments, environment)
        if out["status"] != 0:
            sys.exit(f"bench: species {' '.join(arguments)} failed: {out['stderr']}")
        walls.append(out["wall"])
        cpus.append(out["cpu"])
    return median(walls), median(cpus)


if __name__ == "__main__":
    main()
