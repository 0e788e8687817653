"""Lighthouse's mobile run on the site, as an outside measure of how it does on a phone (issue 29).

Builds the shipped content (no PDFs) into a temporary folder, serves it over a local HTTP server
with gzip as static hosts do, and runs Lighthouse (npm `lighthouse`, installed into .venv/lighthouse
on first use) with Debian's Chromium on one page of each type: the home page, a game overview, a
rules section, an entity page, the Bot turn page, a procedure page, a table page and a glossary.
Prints, for every run and as the median, performance, accessibility, cumulative layout shift (CLS),
first contentful paint (FCP), largest contentful paint and total blocking time, with the targets
(performance >= 90, accessibility 100, CLS < 0.1), the machine's load and Lighthouse's benchmark
index of each run, what failed in accessibility, what shifted, the longest main-thread tasks and
Lighthouse's opportunities. Not a test: Lighthouse's simulated throttling scales the tasks it
observed, so on a loaded machine (a load above the number of cores, a benchmark index well under
1000) total blocking time, and with it performance, come out worse than on a phone.

Usage: .venv/bin/python benchmarks/lighthouse.py [--site SITE] [--pages a.html,b.html] [--runs N]
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE_VERSION = "13.5.0"
NODE = ROOT / ".venv" / "lighthouse"  # its own folder: an npm install in .venv/node would prune vnu-jar
CLI = NODE / "node_modules" / "lighthouse" / "cli" / "index.js"
PAGES = {  # one page of each type (issue 29)
    "home": "index.html",
    "game overview": "statecraft/index.html",
    "rules section": "statecraft/rules/conflict.html",
    "entity page": "statecraft/kinds/country.html",
    "Bot turn": "statecraft/bot-turn.html",
    "procedure": "statecraft/solo/bot-influence.html",
    "table page": "statecraft/tables.html",
    "glossary": "statecraft/glossary.html",
}
COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".xml", ".webmanifest"}


class _Gzip(http.server.SimpleHTTPRequestHandler):
    """A static server that compresses text as hosting services do (Lighthouse judges what moves)."""

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path.split("?")[0]))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix not in COMPRESSED or "gzip" not in self.headers.get("Accept-Encoding", "") or not path.is_file():
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def install() -> None:
    if CLI.is_file():
        return
    if not shutil.which("npm"):
        sys.exit("npm is needed: ./scripts/setup --test installs it")
    print(f"installing lighthouse@{LIGHTHOUSE_VERSION} into {NODE.relative_to(ROOT)} (npm)", file=sys.stderr)
    subprocess.run(["npm", "install", "--silent", "--no-save", "--no-audit", "--no-fund", "--prefix", str(NODE),
                    f"lighthouse@{LIGHTHOUSE_VERSION}"], check=True, stdout=subprocess.DEVNULL)


def build(folder: Path) -> Path:
    site = folder / "site"
    subprocess.run([str(ROOT / ".venv" / "bin" / "rulesmith"), "--content", str(ROOT / "content"), "build", "--quiet",
                    "--no-pdf", "--site", str(site), "--work", str(folder / "work")], check=True, cwd=ROOT)
    return site


def run(url: str, out: Path) -> dict:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    env = dict(os.environ, CHROME_PATH=chromium)
    subprocess.run(["node", str(CLI), url, "--quiet", "--output=json", f"--output-path={out}",
                    "--only-categories=performance,accessibility", "--form-factor=mobile",
                    "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking"],
                   check=True, env=env)
    report = json.loads(out.read_text(encoding="utf-8"))
    audits = report["audits"]
    failed = [f"{a['id']}: {a['title']}" + "".join(
                  f"\n        {(item.get('node') or {}).get('snippet', '')[:140]}" for item in a.get("details", {}).get("items", [])[:4])
              for a in (audits[ref["id"]] for ref in report["categories"]["accessibility"]["auditRefs"])
              if a.get("score") is not None and a["score"] < 1]
    shifts = audits.get("layout-shifts", {}).get("details", {}).get("items", [])
    return {
        "performance": round(report["categories"]["performance"]["score"] * 100),
        "accessibility": round(report["categories"]["accessibility"]["score"] * 100),
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "fcp": audits["first-contentful-paint"]["numericValue"] / 1000,
        "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "tbt": audits["total-blocking-time"]["numericValue"],
        "failed": failed,
        "opportunities": [f"{a['title']} ({a.get('displayValue', '')})" for a in audits.values()
                          if a.get("details", {}).get("type") == "opportunity" and (a.get("score") or 1) < 0.9],
        "shifts": [f"{item.get('score', 0):.3f} {(item.get('node') or {}).get('snippet', '')[:120]}" for item in shifts[:3]],
        "tasks": [f"{item['duration']:.0f} ms {item['url'].rsplit('/', 1)[-1]}"
                  for item in audits.get("long-tasks", {}).get("details", {}).get("items", [])[:4]],
        "benchmark": report.get("environment", {}).get("benchmarkIndex", 0),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="an already built site (default: build the shipped content)")
    parser.add_argument("--pages", help="comma-separated pages of the site (default: one of each type: "
                        + ", ".join(PAGES.values()) + ")")
    parser.add_argument("--runs", type=int, default=3, help="runs per page; each is printed, then the median")
    parser.add_argument("--reports", type=Path, help="keep Lighthouse's JSON reports in this folder")
    args = parser.parse_args()
    install()
    if args.reports:
        args.reports.mkdir(parents=True, exist_ok=True)
    pages = {page: page for page in args.pages.split(",")} if args.pages else {v: k for k, v in PAGES.items()}
    with tempfile.TemporaryDirectory(prefix="rulesmith-lighthouse-") as tmp:
        folder = Path(tmp)
        site = args.site or build(folder)
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Gzip, directory=str(site)))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_address[1]}"
        print(f"machine: {os.cpu_count()} cores, load average {_load()} at the start")
        header = f"{'':14} {'perf':>5} {'a11y':>5} {'CLS':>6} {'FCP s':>6} {'LCP s':>6} {'TBT ms':>7}"
        summary = []
        try:
            for page, label in pages.items():
                print(f"\n{label}: {page}\n{header}")
                results = []
                for n in range(args.runs):
                    report = (args.reports or folder) / f"{page.replace('/', '_')}-{n + 1}.json"
                    results.append(run(f"{base}/{page}", report))
                    print(f"{'run ' + str(n + 1):14} {_row(results[-1])}  (load {_load()}, benchmark index "
                          f"{results[-1]['benchmark']:.0f})")
                median = {key: statistics.median(r[key] for r in results) for key in KEYS}
                ok = median["performance"] >= 90 and median["accessibility"] == 100 and median["cls"] < 0.1
                summary.append((label, median, ok))
                print(f"{'median':14} {_row(median)}  {'PASS' if ok else 'MISS'}")
                for line in results[-1]["failed"]:
                    print(f"    accessibility: {line}")
                for line in results[-1]["shifts"]:
                    print(f"    layout shift: {line}")
                for line in results[-1]["opportunities"]:
                    print(f"    opportunity: {line}")
                print(f"    longest tasks (simulated): {', '.join(results[-1]['tasks'])}")
        finally:
            httpd.shutdown()
    print(f"\nmedians of {args.runs} run(s), load average {_load()} at the end\n{'':14} {header.strip()}")
    for label, median, ok in summary:
        print(f"{label[:14]:14} {_row(median)}  {'PASS' if ok else 'MISS'}")
    print("targets: performance >= 90, accessibility 100, CLS < 0.1 (Lighthouse mobile, simulated slow 4G)")
    return 0


KEYS = ("performance", "accessibility", "cls", "fcp", "lcp", "tbt")


def _row(r: dict) -> str:
    return (f"{r['performance']:5.0f} {r['accessibility']:5.0f} {r['cls']:6.3f} {r['fcp']:6.2f} {r['lcp']:6.2f} "
            f"{r['tbt']:7.0f}")


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
