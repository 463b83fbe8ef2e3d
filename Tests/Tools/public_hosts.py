#!/usr/bin/env python3
"""Runs species against SWAPI's public host names, served on this machine.

Run as root in namespaces of its own (`unshare -n -m python3 public_hosts.py
SPECIES CACHE RUNS [HOSTS]`): it brings up the loopback interface, mounts a private
/etc/hosts that points swapi.dev, swapi.py4e.com, www.swapi.tech and
swapi.info at 127.0.0.2 to 127.0.0.5, and mounts over /etc/ssl/certs a folder
whose bundle holds only the test CA (Tests/TLS/ca.pem), so that species
trusts it as it trusts the system's. On each address swapi_server.py serves
its host over HTTPS on port 443, in the host's dialect; swapi.dev's
certificate has expired, as the real one has since 2025-04-14. HOSTS, a JSON
object, changes that for some hosts: {"swapi.dev": {"certificate":
"server.pem", "fault": "later-500"}} gives one a certificate or a fault of
swapi_server.py's, {"swapi.info": {"down": true}} serves nothing there
(a refused connection), and {"swapi.info": {"silent": true}} accepts
connections and never answers, as a black hole of a firewall does.

RUNS is a JSON list of argument lists. Each runs the executable SPECIES
with a clean environment and the cache folder CACHE; an entry
{"together": N, "arguments": [...]} starts N runs of it at once, and each
is reported with the seconds from their start to its end. The tool prints one
JSON object: for each run, its status, stdout and stderr, the seconds it
took, and how many connections each host had accepted by its end. Python 3
standard library only.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TLS = os.path.join(HERE, "..", "TLS")
HOSTS = [
    # host, address, dialect, certificate
    ("swapi.dev", "127.0.0.2", "drf", "expired.pem"),
    ("swapi.py4e.com", "127.0.0.3", "drf", "server.pem"),
    ("www.swapi.tech", "127.0.0.4", "tech", "server.pem"),
    ("swapi.info", "127.0.0.5", "info", "server.pem"),
]


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def main():
    species, cache, runs = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    changes = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    work = tempfile.mkdtemp(prefix="species-public-hosts-")
    run("ip", "link", "set", "lo", "up")

    hosts = os.path.join(work, "hosts")
    with open(hosts, "w") as file:
        file.write("127.0.0.1 localhost\n" + "".join(f"{address} {host}\n" for host, address, _, _ in HOSTS))
    run("mount", "--bind", hosts, "/etc/hosts")

    certificates = os.path.join(work, "certs")
    os.mkdir(certificates)
    with open(os.path.join(TLS, "ca.pem")) as source, open(os.path.join(certificates, "ca-certificates.crt"), "w") as bundle:
        bundle.write(source.read())
    run("mount", "--bind", certificates, "/etc/ssl/certs")

    servers = []
    for host, address, dialect, certificate in HOSTS:
        log = os.path.join(work, f"{host}.connections")
        open(log, "w").close()
        change = changes.get(host, {})
        if change.get("down"):
            servers.append((host, log, None))
            continue
        if change.get("silent"):
            # Listening, never accepting: the kernel completes the handshake,
            # and no byte ever comes back.
            hole = socket.socket()
            hole.bind((address, 443))
            hole.listen(128)
            servers.append((host, log, hole))
            continue
        fault = ["--fault", change["fault"]] if "fault" in change else []
        server = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "swapi_server.py"), "--host", address, "--port", "443", "--exit-with-stdin",
             "--dialect", dialect, "--tls", os.path.join(TLS, change.get("certificate", certificate)), "--connection-log", log] + fault,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ready = server.stdout.readline()
        if not ready.startswith("listening on "):
            sys.exit(f"the server of {host} did not start: {ready!r}")
        servers.append((host, log, server))

    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "LANG": "C.UTF-8",
                   "XDG_CACHE_HOME": cache, "SWIFT_BACKTRACE": "enable=no"}
    results = []
    for entry in runs:
        # An argument list runs once; {"together": N, "arguments": [...]}
        # starts N runs of it at once.
        arguments, together = (entry["arguments"], entry["together"]) if isinstance(entry, dict) else (entry, 1)
        started = time.monotonic()
        children = [subprocess.Popen([species] + arguments, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True) for _ in range(together)]
        for child in children:
            stdout, stderr = child.communicate(timeout=120)
            seconds = time.monotonic() - started
            connections = {}
            for host, log, _ in servers:
                with open(log) as file:
                    connections[host] = len(file.readlines())
            results.append({"arguments": arguments, "status": child.returncode, "stdout": stdout,
                            "stderr": stderr, "seconds": seconds, "connections": connections})
    for _, _, server in servers:
        if isinstance(server, socket.socket):
            server.close()
        elif server:
            server.kill()
    print(json.dumps({"runs": results}))


if __name__ == "__main__":
    main()
