"""`scripts/bench`: how fast the build is, how it scales, and how far it is from its floor.

Never part of the test suite's pass/fail. One run measures, several repetitions each (median and
min), on copies of the content in a temporary folder so the repository's .build/, .cache/ and
site/ are never touched:

 1. `rulesmith check` over all content, in-process and as a command;
 2. a clean build (empty work and cache folders) split by stage;
 3. a no-change rebuild, counting what it rewrote;
 4. a rebuild after a one-field erratum (`rulesmith errata add`), counting what it re-rendered;
 5. the floors: plain `mkdocs build` over the already-generated pages with the same mkdocs.yml
    and nav, and WeasyPrint writing the already-generated aid HTML and nothing else;
 6. scaling: synthetic games (scripts/make_synthetic_games.py) at 1, 10 and 50 games, time and
    peak memory per size;
 7. `rulesmith serve`: how long an edited YAML value takes to show up over HTTP.

Builds run in fresh processes (as `rulesmith build` does), each reporting its own stage
timings and peak memory. Prints a table and PASS/MISS per target; writes bench.json at the
repository root. Usage: scripts/bench [--reps N] [--sizes 1,10,50] [--skip serve,scaling] [--quick]
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
RULESMITH = str(Path(sys.executable).with_name("rulesmith"))
RESULT = "BENCH-RESULT "
GIB = 1024 ** 3
STEPS = ("check", "build", "rebuild", "erratum", "floors", "scaling", "serve", "suite")
# The content measured: the shipped games (--content for another folder, e.g. a small one for a smoke run).
CONTENT = ROOT / "content"
# The suite step (benchmarks/suite.py) in a quick run: one small file, to show the step works.
QUICK_SUITE = ["tests/benchmarks/test_bench_report.py"]
# The commit issue 28 measured `rulesmith check` at: the check's in-process goal is half of its
# time, measured in the same run (`--check-baseline REV` for another one, `none` to skip).
CHECK_BASELINE = "3d5b6d9"
WORKER_ENV = dict(os.environ)


# ---------------------------------------------------------------------------------- workers
# Each measured build or floor runs in its own process, like the real commands, and prints one
# JSON line: its stage timings, the time its imports took, and its peak memory.

def _rss() -> dict:
    import resource

    return {"maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            "children_maxrss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}


def worker(spec: dict) -> dict:
    started = time.perf_counter()
    if spec.get("user_cache"):
        os.environ["XDG_CACHE_HOME"] = spec["user_cache"]
    if spec["job"] == "build":
        from rulesmith.commands.build import build

        imported = time.perf_counter()
        cpu: dict[str, float] = {}
        timings = build(Path(spec["content"]), Path(spec["site"]), pdfs=spec["pdfs"], quiet=True,
                        work=Path(spec["work"]), cache=Path(spec["cache"]), cpu=cpu)
        return {"import_s": imported - started, "total_s": time.perf_counter() - imported,
                "timings": timings, "cpu_stages": cpu, **_rss()}
    if spec["job"] == "mkdocs-floor":
        import logging

        from mkdocs.commands.build import build as mkdocs_build
        from mkdocs.config import load_config

        logging.getLogger("mkdocs").setLevel(logging.WARNING)
        import multiprocessing

        imported = time.perf_counter()
        # the site in every language the build made, side by side as it makes them (build._make_parts):
        # the first here, each other in a forked process of its own
        others = [multiprocessing.get_context("fork").Process(target=lambda c: mkdocs_build(load_config(c)), args=(config,))
                  for config in spec["configs"][1:]]
        for other in others:
            other.start()
        mkdocs_build(load_config(spec["configs"][0]))
        for other in others:
            other.join()
            if other.exitcode != 0:
                raise RuntimeError(f"the floor's mkdocs build of another language ended with {other.exitcode}")
        return {"import_s": imported - started, "total_s": time.perf_counter() - imported, **_rss()}
    if spec["job"] == "pdf-floor":
        import weasyprint  # noqa: F401 (imported first, so that its import is timed apart: import_s)

        imported = time.perf_counter()
        files = sorted(Path(spec["html"]).glob("*.html"))
        if spec["jobs"] > 1:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(spec["jobs"]) as pool:
                sizes = list(pool.map(_write_pdf, [(str(f), spec["base_url"], spec["options"]) for f in files]))
        else:
            sizes = [_write_pdf((str(f), spec["base_url"], spec["options"])) for f in files]
        return {"import_s": imported - started, "total_s": time.perf_counter() - imported,
                "pdfs": len(sizes), "bytes": sum(sizes), **_rss()}
    raise ValueError(spec["job"])


def _write_pdf(job: tuple[str, str, dict]) -> int:
    """WeasyPrint and nothing else: the HTML as the build renders it, the same options."""
    import weasyprint

    path, base_url, options = job
    html = weasyprint.HTML(string=Path(path).read_text(encoding="utf-8"), base_url=base_url)
    return len(html.write_pdf(**options))


def run_worker(spec: dict, timeout: float = 3600) -> dict:
    """Run one job in a fresh Python process; its result plus wall time and the process tree's
    peak memory (os.wait4 reports the child's own ru_maxrss, so sizes never mask each other)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen([PYTHON, str(Path(__file__).resolve()), "--worker", json.dumps(spec)],
                                stdout=out, stderr=err, cwd=ROOT, env=WORKER_ENV)
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.005)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    lines = [line for line in stdout.splitlines() if line.startswith(RESULT)]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"bench worker {spec['job']} failed (exit {proc.returncode}):\n{stderr[-3000:]}")
    result = json.loads(lines[-1][len(RESULT):])
    # CPU seconds of the process and the children it waited for (dot, the PDF pool): unlike wall
    # time, barely moved by other work on a shared machine.
    result.update(wall_s=wall, cpu_s=usage.ru_utime + usage.ru_stime, tree_maxrss_kb=usage.ru_maxrss)
    return result


# ---------------------------------------------------------------------------------- helpers

def summary(values: list[float]) -> dict:
    values = [v for v in values if v is not None]
    if not values:
        return {"median": None, "min": None, "runs": []}
    return {"median": statistics.median(values), "min": min(values), "runs": values}


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Relative path -> (mtime_ns, size) of every file: what a build rewrote shows as a change."""
    if not folder.exists():
        return {}
    return {str(p.relative_to(folder)): (p.stat().st_mtime_ns, p.stat().st_size)
            for p in folder.rglob("*") if p.is_file()}


def changed(before: dict, after: dict) -> list[str]:
    return sorted(k for k, v in after.items() if before.get(k) != v)


def copy_content(target: Path) -> Path:
    shutil.copytree(CONTENT, target, ignore=shutil.ignore_patterns("*.tmp", "__pycache__"))
    return target


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_generator():
    return _module(ROOT / "scripts" / "make_synthetic_games.py")


def suite_module():
    """benchmarks/suite.py: the test suite's wall time and time per tier."""
    return _module(ROOT / "benchmarks" / "suite.py")


def pdfs_available() -> bool:
    return importlib.util.find_spec("rulesmith.aids.pdf") is not None


def build_spec(content: Path, folder: Path, pdfs: bool) -> dict:
    # A user cache folder (XDG_CACHE_HOME) of each build folder's own, empty for its clean build:
    # nothing an earlier run or another project made helps a "clean" build.
    return {"job": "build", "content": str(content), "site": str(folder / "site"),
            "work": str(folder / "work"), "cache": str(folder / "cache"), "pdfs": pdfs,
            "user_cache": str(folder / "user-cache")}


def stage_totals(runs: list[dict], key: str = "timings") -> dict:
    names = list(dict.fromkeys(name for run in runs for name in run.get(key, {})))
    return {name: summary([run[key].get(name) for run in runs]) for name in names}


PDF_STEP = "player aids (PDF)"  # the aids in the site's language; each other language's step is "player aids (PDF, <lang>)"


def pdf_steps_cpu(stages: dict) -> float | None:
    """CPU of every PDF step (the aids of every language), medians summed."""
    found = [figures["median"] for name, figures in stages.items()
             if (name == PDF_STEP or name.startswith(PDF_STEP.removesuffix(")") + ", ")) and figures.get("median") is not None]
    return sum(found) if found else None


def built_pdfs(work: Path) -> list[dict] | None:
    """Every PDF the last build made, as its downloads records list them: the site's own language
    (work/pdfs-built.json) and each other language's (work/<lang>/pdfs-built.json)."""
    try:
        return [entry for record in [work / "pdfs-built.json", *sorted(work.glob("*/pdfs-built.json"))]
                if record.exists() for entry in json.loads(record.read_text())]
    except (OSError, ValueError):
        return None


def printed_pages(work: Path) -> int | None:
    """Pages of every PDF the last build made, both paper sizes, every language."""
    try:
        entries = built_pdfs(work)
        return sum(entry["pages"] for entry in entries) if entries else None
    except (KeyError, TypeError):
        return None


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------- measurements

# A baseline tree (RULESMITH_BASELINE=<folder>) imported instead of the installed package: the
# editable install's finder comes before PYTHONPATH, so it is taken off sys.meta_path.
PRELUDE = """
import os, sys
if os.environ.get("RULESMITH_BASELINE"):
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__.lower()]
    sys.path.insert(0, os.environ["RULESMITH_BASELINE"])
"""
CHECK_RUN = PRELUDE + """
import json, statistics, time
started = time.perf_counter()
from pathlib import Path
try:  # where the loader lives now (rulesmith/content/), and where the baseline commit had it
    from rulesmith.content import load
except ImportError:
    from rulesmith import load
from rulesmith.pipeline import check_content
imported = time.perf_counter() - started
content, reps = Path(sys.argv[1]), int(sys.argv[2])
started = time.perf_counter()
checked = check_content(content)
first = time.perf_counter() - started
runs, again = [], []
for _ in range(reps):
    getattr(load, "_parsed", {}).clear()  # as `rulesmith check` does it: every file parsed
    started = time.perf_counter()
    check_content(content)
    runs.append(time.perf_counter() - started)
    started = time.perf_counter()  # and as serve does it after a save: unchanged files kept
    check_content(content)
    again.append(time.perf_counter() - started)
import rulesmith
print(json.dumps({"package": rulesmith.__file__, "imports_s": imported, "first_s": first, "runs": runs, "again": again,
                  "games": len(checked), "items": sum(len(c.index.targets) for c in checked),
                  "modules": sorted(m for m in ("mkdocs", "weasyprint", "jinja2", "markdown") if m in sys.modules)}))
"""


def baseline_tree(tmp: Path, rev: str) -> Path | None:
    """The package as it was at `rev` (git archive), importable with PYTHONPATH=<that folder>, and
    the content as it was then (<folder>/content): the format has grown since, so the baseline
    checks its own content and the two are compared per item."""
    folder = tmp / f"baseline-{rev}"
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "rulesmith", "templates", "content"],
                             capture_output=True)
    if archive.returncode != 0:
        say(f"  no check baseline: git archive {rev} failed: {archive.stderr.decode(errors='replace').strip()}")
        return None
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    (folder / "rulesmith" / "templates").symlink_to(folder / "templates")  # as the package installs it
    return folder


def _timed(argv: list[str], env: dict | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, cwd=ROOT, env=env)
    return time.perf_counter() - started


def measure_check(content: Path, reps: int, tmp: Path, baseline_rev: str | None) -> dict:
    """The check in fresh processes: in process (after a first call, every file parsed again)
    and as the command, paired run by run with the check of `baseline_rev` (A B A B …) so that
    the machine's load falls on both alike; and a bare `python -c "import rulesmith"`."""
    baseline = baseline_tree(tmp, baseline_rev) if baseline_rev else None
    base_env = dict(os.environ, RULESMITH_BASELINE=str(baseline)) if baseline else None
    base_content = baseline / "content" if baseline else content
    inner = max(reps, 5)
    now, then, command, edited_command, then_command, bare, full = [], [], [], [], [], [], []
    # `rulesmith check` keeps its last passed answer (rulesmith/checks/cache.py): timed both with
    # nothing changed since the last check, and after one edit (a comment line appended to one
    # YAML file, a new one each time: that game is read and checked again, the others' kept
    # answers given, as after any edit to one game)
    edited = sorted(content.glob("*/*.yaml"))[0]
    original = edited.read_bytes()
    _timed([RULESMITH, "--content", str(content), "check"])
    for rep in range(reps):
        for env, into in ((None, now), (base_env, then)):
            if env is None and into is then:
                continue
            out = subprocess.run([PYTHON, "-c", CHECK_RUN, str(base_content if env else content), str(inner)],
                                 capture_output=True, text=True, cwd=ROOT, env=env)
            if out.returncode != 0:
                raise RuntimeError(f"the check{' of ' + baseline_rev if env else ''} failed:\n{out.stderr.strip()}")
            into.append(json.loads(out.stdout.strip().splitlines()[-1]))
        command.append(_timed([RULESMITH, "--content", str(content), "check"]))
        edited.write_bytes(original + f"\n# bench edit {rep} {os.getpid()}\n".encode())
        edited_command.append(_timed([RULESMITH, "--content", str(content), "check"]))
        full.append(_timed([RULESMITH, "--content", str(content), "check", "--no-cache"]))  # no answer kept
        if base_env:
            then_command.append(_timed([PYTHON, "-c", PRELUDE + "from rulesmith.cli import main; sys.exit(main())",
                                        "--content", str(base_content), "check"], base_env))
        bare.append(_timed([PYTHON, "-c", "import rulesmith"]))
    edited.write_bytes(original)

    def in_process(results):
        return summary([statistics.median(r["runs"]) for r in results])

    last = now[-1]
    result = {"games": last["games"], "items": last["items"], "in_process_first_s": statistics.median(r["first_s"] for r in now),
              "in_process": in_process(now), "in_process_again": summary([statistics.median(r["again"]) for r in now]),
              "imports_s": statistics.median(r["imports_s"] for r in now), "modules_imported": last["modules"],
              "command": summary(command), "command_after_edit": summary(edited_command),
              "command_no_cache": summary(full),
              "edited_file": str(edited.relative_to(content)), "bare_import": summary(bare)}
    result["command_over_bare_s"] = result["command"]["median"] - result["bare_import"]["median"]
    result["command_after_edit_over_bare_s"] = result["command_after_edit"]["median"] - result["bare_import"]["median"]
    if then:
        if not then[-1]["package"].startswith(str(baseline)):
            raise RuntimeError(f"the baseline check ran {then[-1]['package']}, not the tree of {baseline_rev}")
        result["baseline"] = {"rev": baseline_rev, "items": then[-1]["items"], "games": then[-1]["games"],
                              "in_process": in_process(then), "command": summary(then_command),
                              "modules_imported": then[-1]["modules"],
                              "imports_s": statistics.median(r["imports_s"] for r in then)}
        # pair by pair: each current run over the baseline run next to it, per item checked (the
        # baseline checks the content of its day, which had fewer items)
        result["in_process_vs_baseline"] = summary([(statistics.median(a["runs"]) / a["items"])
                                                     / (statistics.median(b["runs"]) / b["items"])
                                                     for a, b in zip(now, then, strict=True)])
    return result


def measure_clean(content: Path, tmp: Path, reps: int, pdfs: bool, floors: bool, serial: bool) -> tuple[dict, dict, Path]:
    """Clean builds, each followed by the floors, so that other load on the machine falls on
    both alike (the floors need the pages and aid HTML of a first clean build)."""
    runs, floor_runs, prepared = [], {"site": [], "parallel": [], "serial": []}, None
    for rep in range(reps):
        folder = tmp / f"clean-{rep}"
        runs.append(run_worker(build_spec(content, folder, pdfs)))
        say(f"  clean build {rep + 1}/{reps}: {runs[-1]['total_s']:.2f} s")
        if not floors:
            continue
        if prepared is None:
            prepared = prepare_floors(content, folder, tmp / "floor")
        floor_runs["site"].append(run_worker({"job": "mkdocs-floor", "configs": prepared["configs"]}))
        html = prepared["html"]
        if pdfs and html["aids"]:
            for label, n in [("parallel", html["workers"])] + ([("serial", 1)] if serial else []):
                floor_runs[label].append(run_worker({"job": "pdf-floor", "html": prepared["html_dir"], "jobs": n,
                                                     "base_url": html["base_url"], "options": html["options"]}))
        say(f"  floors {rep + 1}/{reps}: site {floor_runs['site'][-1]['total_s']:.2f} s"
            + (f", PDF {floor_runs['parallel'][-1]['total_s']:.2f} s" if floor_runs["parallel"] else ""))
    printed = printed_pages(folder / "work")
    outputs = {"pages": len([p for p in snapshot(folder / "work" / "docs") if p.endswith(".md")]),
               "printed_pages": printed,
               "pdfs": len(built_pdfs(folder / "work") or []),  # made by the build, every language's
               "flowcharts": len(list((folder / "cache" / "flowcharts").glob("*.svg")))}
    clean = {"total": summary([r["total_s"] for r in runs]), "wall": summary([r["wall_s"] for r in runs]),
             "cpu": summary([r["cpu_s"] for r in runs]), "import": summary([r["import_s"] for r in runs]),
             "stages": stage_totals(runs), "cpu_stages": stage_totals(runs, "cpu_stages"),
             "peak_rss_mib": max(r["maxrss_kb"] for r in runs) / 1024, "outputs": outputs}
    pdf_cpu = pdf_steps_cpu(clean["cpu_stages"])
    # CPU seconds of the PDF steps (their workers included) per page printed, both paper sizes, every language
    clean["cpu_per_printed_page_s"] = pdf_cpu / printed if pdf_cpu is not None and printed else None
    result = {}
    if prepared:
        def stats(rs):
            return {"total": summary([r["total_s"] for r in rs]), "wall": summary([r["wall_s"] for r in rs]),
                    "cpu": summary([r["cpu_s"] for r in rs])}
        result = {"site": stats(floor_runs["site"]), "pdf": {"html": prepared["html"]}}
        for label in ("parallel", "serial"):
            if floor_runs[label]:
                result["pdf"][label] = dict(stats(floor_runs[label]), pdfs=floor_runs[label][-1]["pdfs"],
                                            jobs=prepared["html"]["workers"] if label == "parallel" else 1)
        if floor_runs["parallel"]:
            result["pdf"]["floor"] = dict(result["pdf"]["parallel"]["total"], how="parallel")
            result["pdf"]["floor_cpu"] = result["pdf"]["parallel"]["cpu"]
    return clean, result, folder


def outputs_state(folder: Path) -> dict:
    return {"docs": snapshot(folder / "work" / "docs"), "pdf": snapshot(folder / "cache" / "pdf"),
            "charts": snapshot(folder / "cache" / "flowcharts"), "site": _pdf_digests(folder / "site")}


def _pdf_digests(site: Path) -> dict[str, str]:
    """The site is rebuilt whole (new mtimes everywhere): compare the PDFs by content."""
    import hashlib

    return {str(p.relative_to(site)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in site.rglob("*.pdf")} if site.exists() else {}


def rerendered(before: dict, after: dict) -> dict:
    pdfs = changed(before["site"], after["site"])
    written = changed(before["docs"], after["docs"])
    return {"pages_written": [p for p in written if p.endswith(".md")],
            "other_files_written": [p for p in written if not p.endswith(".md")],
            "pdf_cache_misses": len([p for p in set(after["pdf"]) - set(before["pdf"]) if p.endswith(".pdf")]),
            "pdfs_changed": pdfs,
            "flowchart_cache_misses": len([p for p in set(after["charts"]) - set(before["charts"]) if p.endswith(".svg")])}


def measure_rebuild(content: Path, folder: Path, reps: int, pdfs: bool) -> dict:
    runs, outputs = [], []
    for _ in range(reps):
        before = outputs_state(folder)
        runs.append(run_worker(build_spec(content, folder, pdfs)))
        outputs.append(rerendered(before, outputs_state(folder)))
    return {"total": summary([r["total_s"] for r in runs]), "wall": summary([r["wall_s"] for r in runs]),
            "cpu": summary([r["cpu_s"] for r in runs]), "stages": stage_totals(runs), "rerendered": outputs[-1]}


def erratum_target(content: Path) -> tuple:
    """A plain integer field of an entity, in a game with procedures (so both aids exist):
    (game id, entity key, field id, value, max, entity, index)."""
    from rulesmith.pipeline import check_content

    for checked in check_content(content):
        game = checked.game
        if not game.procedures:
            continue
        for entity in game.entities:
            kind = game.kind(entity.kind)
            for spec in kind.fields:
                value = entity.fields.get(spec.id)
                if spec.type == "integer" and type(value) is int:
                    return game.id, f"{entity.kind}:{entity.id}", spec.id, value, spec.max, checked
    raise RuntimeError("no entity with a plain integer field to change")


def apply_erratum(content: Path, game: str, key: str, field: str, old: int, new: int, n: int) -> dict:
    """`rulesmith errata add`; when the errata command is not there yet, the value is edited in
    the YAML directly (said so in the results)."""
    started = time.perf_counter()
    result = subprocess.run([RULESMITH, "--content", str(content), "errata", "add", game, key, f"fields.{field}", str(new),
                             "--source", "publisher-faq", "--description", "Benchmark erratum",
                             "--note", f"Benchmark run {n}: {field} {old} → {new}."],
                            capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode == 0:
        return {"method": "rulesmith errata add", "seconds": elapsed}
    from rulesmith.pipeline import check_content

    target = next(c for c in check_content(content) if c.game.id == game).index.targets[key].item
    file, line, column = target.where("fields", field)
    path = Path(file)
    lines = path.read_text(encoding="utf-8").split("\n")
    text = lines[line - 1]
    match = re.match(r"-?\d+", text[column - 1:])
    if not match or int(match.group(0)) != old:
        raise RuntimeError(f"cannot edit {key} {field} at {file}:{line}:{column}: {text!r}")
    lines[line - 1] = text[:column - 1] + str(new) + text[column - 1 + len(match.group(0)):]
    path.write_text("\n".join(lines), encoding="utf-8")
    return {"method": f"edited the YAML value directly (errata add failed: "
                      f"{(result.stdout + result.stderr).strip()[:200]})", "seconds": elapsed}


def expected_outputs(checked, key: str) -> set[str]:
    """Pages an erratum of `key` may change: its own page, the pages that mention it, the game's
    overview and changelog, and the site-wide home, downloads and changelog pages."""
    from rulesmith.site import layout

    game, index = checked.game, checked.index
    pages = {layout.page_of(game, key)[0], f"{game.id}/index.md", f"{game.id}/changelog.md",
             "index.md", "downloads.md", "changelog.md"}
    for owner in index.backlinks.get(key, []):
        if owner in index.targets:
            pages.add(layout.page_of(game, owner)[0])
    return pages


def expected_pdfs(content: Path, game_id: str) -> set[str]:
    """The aids the game's latest erratum changes (aids/stamp.py: errata_in), in both papers, and
    the same aids in each language the game has a catalog in (site/<lang>/). An erratum with a
    note brings a new text to translate, and page 1 of an aid in another language counts the
    game's texts still in English: then every aid of the game in that language changes."""
    from rulesmith.aids import kinds as aidkinds
    from rulesmith.aids import stamp
    from rulesmith.pipeline import check_content
    from rulesmith.translations import freshness

    checked = next(c for c in check_content(content) if c.game.id == game_id)
    latest = checked.game.latest_erratum()
    papers, kinds = aidkinds.geometry().papers, aidkinds.aid_kinds(checked.game)
    changed = [kind for kind in kinds if latest in stamp.errata_in(checked, kind)]
    expected = {aidkinds.aid_path(game_id, kind, paper) for kind in changed for paper in papers}
    for language in freshness.languages(checked.game):
        counted = kinds if latest is not None and latest.note else changed
        expected |= {f"{language}/" + aidkinds.aid_path(game_id, kind, paper, language)
                     for kind in counted for paper in papers}
    return expected


def measure_erratum(tmp: Path, reps: int, pdfs: bool, seed: Path | None = None) -> dict:
    """Errata applied one after another, each followed by a build of the project that was built
    before it. That first build is not measured: it starts from a copy of `seed`'s cache (the
    clean step's build of the same content), when there is one, rather than laying out again
    every chart and aid the clean step has just laid out."""
    content = copy_content(tmp / "content-erratum")
    folder = tmp / "erratum"
    if seed is not None and (seed / "cache").is_dir():
        shutil.copytree(seed / "cache", folder / "cache")
    run_worker(build_spec(content, folder, pdfs))  # the build the errata are applied to
    game, key, field, value, maximum, checked = erratum_target(content)
    allowed = expected_outputs(checked, key)
    runs, outputs, applied, unexpected_pdfs = [], [], [], set()
    other = value + 1 if maximum is None or value + 1 <= maximum else value - 1
    for n in range(reps):  # v → v+1 → v → v+1 …: each record's old is the previous one's new
        old, new = (value, other) if n % 2 == 0 else (other, value)
        applied.append(apply_erratum(content, game, key, field, old, new, n + 1))
        before = outputs_state(folder)
        runs.append(run_worker(build_spec(content, folder, pdfs)))
        outputs.append(rerendered(before, outputs_state(folder)))
        unexpected_pdfs |= set(outputs[-1]["pdfs_changed"]) - expected_pdfs(content, game)
    last = outputs[-1]
    unexpected_pages = sorted(p for out in outputs for p in out["pages_written"]
                              if p.endswith(".md") and p not in allowed)
    return {"target": f"{game} {key} fields.{field}", "method": applied[-1]["method"],
            "errata_add": summary([a["seconds"] for a in applied]),
            "total": summary([r["total_s"] for r in runs]), "wall": summary([r["wall_s"] for r in runs]),
            "cpu": summary([r["cpu_s"] for r in runs]), "stages": stage_totals(runs),
            "cpu_stages": stage_totals(runs, "cpu_stages"), "rerendered": last,
            "unexpected_pages": sorted(set(unexpected_pages)), "unexpected_pdfs": sorted(unexpected_pdfs)}


def other_parts(work: Path) -> list[str]:
    """The languages of the site's other parts the build made (work/<lang>/mkdocs.yml)."""
    return sorted(d.name for d in work.iterdir() if d.is_dir() and (d / "mkdocs.yml").is_file())


def aid_html(content: Path, folder: Path, html_dir: Path) -> dict:
    """Every aid's HTML exactly as the build renders it (pdf.jobs_for, from the cached
    flowcharts), in every language the build laid aids out in, with the base URL and WeasyPrint
    options the build uses."""
    from rulesmith.commands.build import flowcharts, in_language
    from rulesmith.pipeline import check_content

    checked = check_content(content)
    info = {"aids": 0, "html_s": None, "source": None, "options": {}, "base_url": None}
    try:
        from rulesmith.aids import pdf
    except ImportError as error:
        info["source"] = f"no PDF module ({error})"
        return info
    flowcharts(checked, folder / "cache")  # made first, as the build does, so that the aids find them
    html_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    jobs = pdf.jobs_for(checked)
    for language in other_parts(folder / "work"):  # the games translated into it, as the build lays them out
        translated = [c for c in in_language(checked, language) if c.translation is not None]
        jobs += pdf.jobs_for(translated) if translated else []
    info["html_s"] = time.perf_counter() - started
    for job in jobs:
        (html_dir / (job.path.replace("/", "--") + ".html")).write_text(job.html, encoding="utf-8")
        info["base_url"] = job.base_url
    # as many processes as the build's PDF pool: the floor is WeasyPrint at the same parallelism
    info.update(aids=len(jobs), source="rulesmith.aids.pdf.jobs_for", options=pdf.PDF_OPTIONS,
                workers=min(getattr(pdf, "WORKERS", os.cpu_count() or 1), len(jobs)))
    return info


def prepare_floors(content: Path, folder: Path, floor: Path) -> dict:
    """The MkDocs project of every part of the site the build wrote (the site's own language and
    each other language's: package defaults, project settings, navigation), with absolute paths;
    the aid HTML files of every language."""
    import yaml

    floor.mkdir(parents=True, exist_ok=True)
    html = aid_html(content, folder, floor / "html")
    work, configs = folder / "work", []
    for part in ["", *other_parts(work)]:
        config = yaml.safe_load((work / part / "mkdocs.yml").read_text(encoding="utf-8"))
        config.update(docs_dir=str(work / part / "docs"), site_dir=str(floor / "site" / part))
        config_file = floor / (f"mkdocs-{part}.yml" if part else "mkdocs.yml")  # every path in it is absolute
        config_file.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
        configs.append(str(config_file))
    return {"configs": configs, "html": html, "html_dir": str(floor / "html")}


def measure_scaling(tmp: Path, sizes: list[int], reps: int, pdfs: bool) -> list[dict]:
    generator = load_generator()
    rows = []
    for n in sizes:
        content = tmp / f"synthetic-{n}" / "content"
        generator.generate(content, n)
        runs = []
        for rep in range(reps):
            runs.append(run_worker(build_spec(content, tmp / f"synthetic-{n}" / f"build-{rep}", pdfs)))
            say(f"  {n} game(s), build {rep + 1}/{reps}: {runs[-1]['total_s']:.2f} s")
        total = summary([r["total_s"] for r in runs])
        rows.append({"games": n, "total": total, "wall": summary([r["wall_s"] for r in runs]),
                     "per_game_s": total["median"] / n, "stages": stage_totals(runs),
                     "peak_rss_mib": max(r["maxrss_kb"] for r in runs) / 1024,
                     "peak_children_rss_mib": max(r["children_maxrss_kb"] for r in runs) / 1024,
                     "peak_tree_rss_mib": max(r["tree_maxrss_kb"] for r in runs) / 1024})
        shutil.rmtree(tmp / f"synthetic-{n}", ignore_errors=True)
    return rows


def serve_target(content: Path) -> tuple[Path, int, int, str, str]:
    """An entity name to edit: (file, line, column, current name, page URL path)."""
    from rulesmith.pipeline import check_content
    from rulesmith.site import layout

    for checked in check_content(content):
        for entity in checked.game.entities:
            file, line, column = entity.where("name")
            text = Path(file).read_text(encoding="utf-8").split("\n")[line - 1]
            if text[column - 1:].rstrip() == entity.name and len(entity.name) > 3:
                page = layout.kind_page(checked.game.id, entity.kind).removesuffix(".md")
                return Path(file), line, column, entity.name, page
    raise RuntimeError("no entity name written as a plain scalar")


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.read().decode("utf-8", errors="replace")
    except OSError:
        return None


def measure_serve(tmp: Path, reps: int, timeout: float = 60) -> dict:
    content = copy_content(tmp / "content-serve")
    path, line, column, name, page = serve_target(content)
    port = free_port()
    home = f"http://127.0.0.1:{port}/"
    log = (tmp / "serve.log").open("wb")
    started = time.perf_counter()
    proc = subprocess.Popen([RULESMITH, "--content", str(content), "serve", "--dev-addr", f"127.0.0.1:{port}"],
                            stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    result = {"page": page, "edited": f"{path.relative_to(content)}:{line}:{column} name", "latency": None}
    try:
        while fetch(home) is None:
            if proc.poll() is not None or time.perf_counter() - started > timeout:
                raise RuntimeError(f"rulesmith serve did not come up: see {tmp / 'serve.log'}")
            time.sleep(0.05)
        result["startup_s"] = time.perf_counter() - started
        # page.html with the offline plugin (it turns directory URLs off), page/ without
        url = next((home + page + end for end in (".html", "/") if fetch(home + page + end)), None)
        if url is None:
            raise RuntimeError(f"rulesmith serve does not serve /{page}.html nor /{page}/")
        result["page"] = url.removeprefix(home)
        time.sleep(1.0)  # start from an idle server
        latencies, lines = [], path.read_text(encoding="utf-8").split("\n")
        for n in range(reps):
            marker = f"{name} bench{n}x{os.getpid()}"
            lines[line - 1] = lines[line - 1][:column - 1] + marker
            edited = time.perf_counter()
            path.write_text("\n".join(lines), encoding="utf-8")
            seen = None
            while time.perf_counter() - edited < timeout:
                body = fetch(url)
                if body is not None and marker in body:
                    seen = time.perf_counter() - edited
                    break
                time.sleep(0.01)
            latencies.append(seen)
            # The server answers only once its build is done, so the next edit finds it idle; a
            # second build started by the first one's writes would show in builds_per_edit.
            time.sleep(1.0)
        result["latency"] = summary(latencies)
        result["timeouts"] = sum(1 for v in latencies if v is None)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
    # one rebuild per edit: MkDocs logs each one it starts (the first build is not a rebuild)
    output = (tmp / "serve.log").read_text(encoding="utf-8", errors="replace")
    result["builds_per_edit"] = output.count("Detected file changes") / reps
    return result


# ---------------------------------------------------------------------------------- report

def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(value, unit: str = "s") -> str:
    if value is None:
        return "n/a"
    if unit == "s":
        return f"{value:.2f} s" if value < 100 else f"{value:.0f} s"
    if unit == "x":
        return f"{value:.2f}×"
    if unit == "%":
        return f"{value * 100:.0f} %"
    if unit == "MiB":
        return f"{value:.0f} MiB"
    return str(value)


def targets(r: dict) -> list[dict]:
    """Every goal of the benchmark (issues 8, 13, 28) with its measured value, the goal, and
    PASS/MISS; the README's table is written from these (benchmarks/readme_table.py)."""
    found = []

    def target(name, value, goal, unit, ok, detail="", **figures):
        found.append({"target": name, "value": value, "goal": goal, "unit": unit,
                      "status": "n/a" if value is None else ("PASS" if ok else "MISS"), "detail": detail, **figures})

    def median(*keys):
        node = r
        for key in keys:
            node = node.get(key) if isinstance(node, dict) else None
        return node if isinstance(node, (int, float)) or node is None else None

    clean, clean_cpu = median("clean", "total", "median"), median("clean", "cpu", "median")
    site_floor, site_floor_cpu = median("floors", "site", "total", "median"), median("floors", "site", "cpu", "median")
    pdf_floor, pdf_floor_cpu = median("floors", "pdf", "floor", "median"), median("floors", "pdf", "floor_cpu", "median")

    def plus(a, b):
        return a + b if a is not None and b is not None else None

    floor_sum = plus(site_floor, pdf_floor) if r.get("pdfs") else site_floor
    floor_cpu = plus(site_floor_cpu, pdf_floor_cpu) if r.get("pdfs") else site_floor_cpu
    wall, cpu = ratio(clean, floor_sum), ratio(clean_cpu, floor_cpu)
    target("clean build ÷ (site floor + PDF floor)", wall, 1.2, "x", wall is not None and wall <= 1.2,
           f"CPU {fmt(cpu, 'x')}" + ("" if r.get("pdfs") else "; PDFs not built: site floor only"),
           wall=wall, cpu=cpu, clean_s=clean, floor_s=floor_sum)
    for key, name, goal in (("erratum", "one-erratum rebuild ÷ clean build", 0.10),
                            ("rebuild", "no-change rebuild ÷ clean build", 0.10)):
        wall = ratio(median(key, "total", "median"), clean)
        cpu = ratio(median(key, "cpu", "median"), clean_cpu)
        target(name, wall, goal, "%", wall is not None and wall <= goal, f"CPU {fmt(cpu, '%')}", wall=wall, cpu=cpu,
               seconds=median(key, "total", "median"))
    erratum = r.get("erratum", {})
    if erratum:
        extra = erratum["unexpected_pages"] + erratum.get("unexpected_pdfs", [])
        target("erratum re-renders only dependent outputs", len(extra), 0, "n", not extra,
               ", ".join(extra[:6]) or f"{len(erratum['rerendered']['pages_written'])} pages written, "
               f"{erratum['rerendered']['pdf_cache_misses']} PDF cache misses")
    check = r.get("check", {})
    now, then = median("check", "in_process", "median"), median("check", "baseline", "in_process", "median")
    value = median("check", "in_process_vs_baseline", "median")
    base = check.get("baseline", {})
    target("`rulesmith check` in process per item ÷ before issue 28", value, 0.5, "x", value is not None and value <= 0.5,
           f"{fmt(now)} for {check.get('items', 'n/a')} items now, {fmt(then)} for {base.get('items', 'n/a')} items "
           f"at {base.get('rev', 'n/a')} (its own content; pairwise median per item)",
           seconds=now, baseline_s=then)
    value = check.get("command_over_bare_s")
    target("`rulesmith check` command − bare `import rulesmith`, nothing changed", value, 0.15, "s",
           value is not None and value <= 0.15,
           f"command {fmt(median('check', 'command', 'median'))} (the last check's answer, from its cache), "
           f"bare {fmt(median('check', 'bare_import', 'median'))}", seconds=median("check", "command", "median"))
    value = check.get("command_after_edit_over_bare_s")
    target("`rulesmith check` command − bare `import rulesmith`, one file edited", value, 0.15, "s",
           value is not None and value <= 0.15,
           f"command {fmt(median('check', 'command_after_edit', 'median'))} (the edited game checked again), "
           f"bare {fmt(median('check', 'bare_import', 'median'))}", seconds=median("check", "command_after_edit", "median"))
    # like for like: serve reacts to an edit, so it is set against the check after an edit
    command = median("check", "command_after_edit", "median")
    value = ratio(median("serve", "latency", "median"), command)
    target("serve: edit visible over HTTP ÷ `rulesmith check` after an edit", value, 1.5, "x",
           value is not None and value <= 1.5,
           f"{fmt(median('serve', 'latency', 'median'))} ÷ {fmt(command)}", seconds=median("serve", "latency", "median"))
    value = r.get("clean", {}).get("cpu_per_printed_page_s")
    target("CPU per printed PDF page", value, 0.15, "s", value is not None and value <= 0.15,
           f"{fmt(pdf_steps_cpu(r.get('clean', {}).get('cpu_stages', {})))} CPU over "
           f"{r.get('clean', {}).get('outputs', {}).get('printed_pages')} pages (PDF steps of every language, workers included)")
    scaling = {row["games"]: row for row in r.get("scaling", [])}
    if len(scaling) >= 2:
        small, large = min(scaling), max(scaling)
        value = ratio(scaling[large]["per_game_s"], scaling[small]["per_game_s"])
        target(f"per-game cost at {large} games ÷ at {small}", value, 1.2, "x", value <= 1.2,
               "" if large == 50 else "issue 8 asks for 50 games")
        value = scaling[large]["peak_tree_rss_mib"] + scaling[large]["peak_children_rss_mib"]
        target(f"peak memory at {large} games", value, 2048, "MiB", value < 2048, "build process + largest child")
    else:
        target("per-game cost at 50 games ÷ at 1", None, 1.2, "x", False, "not measured (--skip scaling)")
        target("peak memory at 50 games", None, 2048, "MiB", False, "not measured (--skip scaling)")
    return found


def print_report(r: dict) -> None:
    out = []

    def row(label, stats=None, extra=""):
        stats = stats or {}
        out.append(f"  {label:<44} {fmt(stats.get('median')):>9} {fmt(stats.get('min')):>9}  {extra}")

    out.append(f"\nRulesmith benchmark, {r['when']}, {r['machine']}, {r['reps']} repetitions (median, min)")
    out.append(f"  {'':<44} {'median':>9} {'min':>9}")
    if "check" in r:
        c = r["check"]
        row(f"check, in-process ({c['games']} games, {c['items']} items)", c["in_process"],
            f"first call {fmt(c['in_process_first_s'])}; again with unchanged files kept (serve) "
            f"{fmt(c.get('in_process_again', {}).get('median'))}")
        row("check, `rulesmith check` command, one file edited", c.get("command_after_edit"),
            f"the edited game checked again ({c.get('edited_file')}: a comment line appended)")
        row("check, `rulesmith check --no-cache` command", c.get("command_no_cache"),
            "every game read and checked, no answer kept")
        row("check, `rulesmith check` command, nothing changed", c["command"],
            f"bare `python -c 'import rulesmith'` {fmt(c['bare_import']['median'])}; imports {fmt(c['imports_s'])} "
            f"({', '.join(c['modules_imported']) or 'no'} of MkDocs/WeasyPrint/Jinja/Markdown)")
        if "baseline" in c:
            b = c["baseline"]
            row(f"check at {b['rev']}, in-process ({b.get('games')} games, {b.get('items')} items: its own content)",
                b["in_process"], f"imports {fmt(b['imports_s'])} "
                f"({', '.join(b['modules_imported']) or 'none'})")
            row(f"check at {b['rev']}, command", b["command"])
    clean = r.get("clean")
    floors = r.get("floors", {})
    site_floor = floors.get("site", {}).get("total", {})
    pdf_floor = floors.get("pdf", {}).get("floor", {})
    floor_of = {"mkdocs build": site_floor.get("median"), "player aids (PDF)": pdf_floor.get("median")}
    if clean:
        o = clean["outputs"]
        row("clean build (in-process total)", clean["total"],
            f"{o['pages']} pages, {o['pdfs']} PDFs, {o['flowcharts']} flowcharts; process wall "
            f"{fmt(clean['wall']['median'])}, CPU {fmt(clean['cpu']['median'])}, peak {fmt(clean['peak_rss_mib'], 'MiB')}")
        for name, stats in clean["stages"].items():
            floor = floor_of.get(name)
            row(f"  {name}", stats, f"{fmt(ratio(stats['median'], floor), 'x')} of its floor" if floor else "")
    for key, label in (("rebuild", "no-change rebuild"), ("erratum", "one-erratum rebuild")):
        if key in r:
            x = r[key]
            rr = x["rerendered"]
            row(label, x["total"], f"{fmt(ratio(x['total']['median'], (clean or {}).get('total', {}).get('median')), '%')}"
                f" of clean; {len(rr['pages_written'])} pages + {len(rr['other_files_written'])} other files written, {rr['pdf_cache_misses']} PDF / "
                f"{rr['flowchart_cache_misses']} flowchart cache misses")
            for name, stats in x["stages"].items():
                row(f"  {name}", stats)
    if "erratum" in r:
        e = r["erratum"]
        out.append(f"    erratum: {e['target']} via {e['method']}; pages written: "
                   f"{', '.join(e['rerendered']['pages_written'][:8])}"
                   f"{' …' if len(e['rerendered']['pages_written']) > 8 else ''}")
        out.append(f"    PDFs changed: {', '.join(e['rerendered']['pdfs_changed']) or 'none'}")
    if floors:
        row("site floor: plain mkdocs build", site_floor, f"process wall {fmt(floors['site']['wall']['median'])}, "
            f"CPU {fmt(floors['site']['cpu']['median'])}")
        pdf = floors["pdf"]
        if "parallel" in pdf:
            row(f"PDF floor: WeasyPrint only, {pdf['parallel']['jobs']} processes ({pdf['parallel']['pdfs']} PDFs)",
                pdf["parallel"]["total"], f"CPU {fmt(pdf['parallel']['cpu']['median'])}; aid HTML rendered in "
                f"{fmt(pdf['html']['html_s'])} ({pdf['html']['source']}), not counted")
            if "serial" in pdf:
                row("PDF floor: WeasyPrint only, 1 process", pdf["serial"]["total"])
        else:
            out.append(f"  PDF floor: not measured ({pdf['html'].get('source') or 'PDFs not built'})")
    for s in r.get("scaling", []):
        mkdocs = s["stages"].get("mkdocs build", {}).get("median")
        row(f"scaling: {s['games']} synthetic game(s), clean build", s["total"],
            f"{fmt(s['per_game_s'])}/game (mkdocs build {fmt(ratio(mkdocs, s['games']))}/game); "
            f"peak {fmt(s['peak_tree_rss_mib'], 'MiB')} (+ children {fmt(s['peak_children_rss_mib'], 'MiB')})")
    if "serve" in r:
        sv = r["serve"]
        row("serve: YAML edit visible over HTTP", sv.get("latency"),
            f"startup {fmt(sv.get('startup_s'))}; {sv.get('timeouts', 0)} timeouts; "
            f"{sv.get('builds_per_edit', 0):.1f} builds per edit; page /{sv['page']}")
    if "suite" in r:
        out.append("  " + suite_module().report(r["suite"]).replace("\n", "\n  "))
    out.append("\nTargets")
    for t in r["targets"]:
        shown = fmt(t["value"], t["unit"]) if t["unit"] != "n" else f"{t['value']} unexpected"
        out.append(f"  {t['status']:<5} {t['target']:<52} {shown:>10} (goal {fmt(t['goal'], t['unit'])})  {t['detail']}")
    for note in r.get("notes", []):
        out.append(f"  note: {note}")
    print("\n".join(out))


# ---------------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each measurement (default 3)")
    parser.add_argument("--sizes", help="synthetic game counts (default 1,10,50)")
    parser.add_argument("--scaling-reps", type=int, default=2, help="repetitions per size (default 2)")
    parser.add_argument("--skip", default="", help=f"comma-separated steps to skip: {','.join(STEPS)}")
    parser.add_argument("--no-pdf", action="store_true", help="build without the PDF player aids")
    parser.add_argument("--scaling-pdfs", action="store_true",
                        help="scaling builds with PDFs too (slow: 4 aids per game); default: site only")
    parser.add_argument("--serial-pdf-floor", action="store_true", help="also measure the PDF floor in one process")
    parser.add_argument("--check-baseline", default=CHECK_BASELINE,
                        help=f"commit whose check the check is measured against (default {CHECK_BASELINE}; none: skip)")
    parser.add_argument("--quick", action="store_true",
                        help="1 repetition (scaling too), sizes 1,2, the suite step over one test file (a smoke run)")
    parser.add_argument("--content", help="content folder to measure (default: the shipped games, content/)")
    parser.add_argument("--json", default=str(ROOT / "bench.json"), help="where to write the results")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(RESULT + json.dumps(worker(json.loads(args.worker))), flush=True)
        return 0
    global CONTENT
    if args.content:
        CONTENT = Path(args.content).resolve()
    if args.quick:
        args.reps, args.scaling_reps, args.sizes = 1, 1, args.sizes or "1,2"
    args.sizes = args.sizes or "1,10,50"
    skip = {s for s in args.skip.split(",") if s}
    unknown = skip - set(STEPS)
    if unknown:
        parser.error(f"unknown step(s) {', '.join(sorted(unknown))}; steps: {', '.join(STEPS)}")
    pdfs = not args.no_pdf and pdfs_available()
    r = {"when": datetime.datetime.now().isoformat(timespec="seconds"),
         "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
         "reps": args.reps, "pdfs": pdfs, "notes": [], "load_before": list(os.getloadavg()),
         "command": "scripts/bench " + " ".join(argv if argv is not None else sys.argv[1:])}
    if not pdfs:
        r["notes"].append("PDFs not built: " + ("--no-pdf" if args.no_pdf else "rulesmith/aids/pdf.py not present yet"))
    tmp = Path(tempfile.mkdtemp(prefix="rulesmith-bench-"))
    try:
        content = copy_content(tmp / "content")
        folder = None
        if "check" not in skip:
            say("check …")
            rev = None if args.check_baseline == "none" else args.check_baseline
            r["check"] = measure_check(content, args.reps, tmp, rev)
        if not skip >= {"build", "rebuild", "floors"}:
            say("clean builds and floors …")
            r["clean"], floors, folder = measure_clean(content, tmp, args.reps, pdfs, "floors" not in skip,
                                                       args.serial_pdf_floor)
            if floors:
                r["floors"] = floors
        if "rebuild" not in skip and folder:
            say("no-change rebuilds …")
            r["rebuild"] = measure_rebuild(content, folder, args.reps, pdfs)
        if "erratum" not in skip:
            say("erratum rebuilds …")
            r["erratum"] = measure_erratum(tmp, args.reps, pdfs, folder)
            if not r["erratum"]["method"].startswith("rulesmith"):
                r["notes"].append("erratum: " + r["erratum"]["method"])
        if "scaling" not in skip:
            say("scaling …")
            sizes = [int(s) for s in args.sizes.split(",") if s]
            r["scaling"] = measure_scaling(tmp, sizes, args.scaling_reps, pdfs and args.scaling_pdfs)
            r["scaling_pdfs"] = pdfs and args.scaling_pdfs
            if not r["scaling_pdfs"]:
                r["notes"].append("scaling builds are site-only (no PDFs; --scaling-pdfs to include them): "
                                  "PDFs are one cached job per aid, four per game")
        if "serve" not in skip:
            say("serve …")
            r["serve"] = measure_serve(tmp, args.reps)
        if "suite" not in skip:
            say("test suite …")
            r["suite"] = suite_module().measure_suite(QUICK_SUITE if args.quick else [])
    finally:
        if args.keep:
            say(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    r["load_after"] = list(os.getloadavg())
    r["targets"] = targets(r)
    print_report(r)
    Path(args.json).write_text(json.dumps(r, indent=2, default=str) + "\n", encoding="utf-8")
    say(f"wrote {args.json}; `python benchmarks/readme_table.py {args.json}` writes the README's table from it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
