"""Lighthouse's mobile scores of the start page, served by a local ``foursquare serve`` (issue 42, part 5).

Lighthouse (pinned in package.json, ``npm ci`` installs it) runs its default mobile profile against ``/`` of a
fresh server on a free port with an empty database: a simulated slow 4G link and a 4x slower CPU, in Debian's
headless Chromium. Each run is a cold first visit (Lighthouse starts from an empty cache and no service worker).
The median of ``--runs`` runs is printed, with every run's performance, accessibility and best-practices scores,
largest contentful paint, total blocking time and the audits that still find something to save.

    .venv/bin/python benchmarks/lighthouse.py --runs 3

builds the page first (``tools/build_page.mjs``); ``--sources`` builds nothing. With ``--url``, a server already
running is measured instead, such as an older commit's in a worktree (docs/performance.md has the commands).

Lighthouse's simulated throttling scales the tasks the browser really ran: on a busy machine the total blocking
time grows, so compare runs made on the same machine under the same load (``uptime`` is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"
AUDITS = (
    "uses-text-compression", "unminified-javascript", "unminified-css", "render-blocking-resources",
    "uses-long-cache-ttl", "unused-javascript", "total-byte-weight",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_up(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the server at {url} did not answer within {seconds} s")


def run_lighthouse(url: str, out: Path) -> dict[str, object]:
    env = dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", "/usr/bin/chromium"))
    subprocess.run(
        [str(LIGHTHOUSE), url + "/", "--quiet", "--output=json", f"--output-path={out}",
         f"--chrome-flags={CHROME_FLAGS}", "--only-categories=performance,accessibility,best-practices"],
        check=True, env=env,
    )
    report = json.loads(out.read_text(encoding="utf-8"))
    categories, audits = report["categories"], report["audits"]
    return {
        "performance": round(categories["performance"]["score"] * 100),
        "accessibility": round(categories["accessibility"]["score"] * 100),
        "best_practices": round(categories["best-practices"]["score"] * 100),
        "lcp_s": round(audits["largest-contentful-paint"]["numericValue"] / 1000, 2),
        "fcp_s": round(audits["first-contentful-paint"]["numericValue"] / 1000, 2),
        "tbt_ms": round(audits["total-blocking-time"]["numericValue"]),
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "transfer_kib": round(audits["total-byte-weight"]["numericValue"] / 1024),
        "found": {
            name: audits[name].get("displayValue", "")
            for name in AUDITS
            if name in audits and audits[name].get("score") is not None and audits[name]["score"] < 0.9
        },
        "lighthouse": report["lighthouseVersion"],
        "chrome": report["environment"]["hostUserAgent"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--url", help="measure this server instead of starting one")
    parser.add_argument("--sources", action="store_true", help="build nothing (the server serves what it finds)")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        raise SystemExit("lighthouse is missing: run npm ci (make jscheck) first")
    if not args.sources:
        subprocess.run(["node", str(ROOT / "tools" / "build_page.mjs")], check=True)
    print("load:", os.getloadavg(), "cpus:", os.cpu_count(), file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        server = None
        url = args.url
        if url is None:
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            server = subprocess.Popen(
                [str(ROOT / ".venv" / "bin" / "foursquare"), "serve", "--port", str(port), "--db",
                 str(Path(tmp) / "games.db")],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
        try:
            wait_up(url)
            results = [run_lighthouse(url, Path(tmp) / f"report-{i}.json") for i in range(args.runs)]
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=30)
    for result in results:
        print(json.dumps(result))
    keys = ("performance", "accessibility", "best_practices", "lcp_s", "fcp_s", "tbt_ms")
    median = {key: statistics.median(float(r[key]) for r in results) for key in keys}  # type: ignore[arg-type]
    print("median:", json.dumps(median))


if __name__ == "__main__":
    main()
