"""Each game as an installable web app that works without signal, written into the built site.

Per game, in its folder: `manifest.webmanifest` with icons (the game's initials, drawn with the
shipped font), `sw.js` (templates/site/webapp/sw.js with the list of files to keep and their
version), and `version.json` (what the hosted copy holds, read by the page to offer an update).
Every page of the game links the manifest; assets/offline.js registers the worker when the site
is served over HTTP(S), never from disk (file://), where the site works as it always did.

The worker keeps the game's pages, the site's assets (stylesheets, scripts, fonts), the game's
search index and its PDFs: everything a reader at the table opens. Its version is a digest of
those files, so any change to them makes browsers fetch the new worker, which waits until the
reader accepts the update.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
from typing import TYPE_CHECKING

from rulesmith import words
from rulesmith.files import write_if_changed
from rulesmith.project import ASSETS, DOWNLOADS, NOT_FOUND, ROOT_WORKER, templates
from rulesmith.site.search import FOLDER as SEARCH
from rulesmith.site.search import SITE as SITE_INDEX

if TYPE_CHECKING:
    from pathlib import Path

TEMPLATES = templates()
ICON_SIZES = (192, 512)
BACKGROUND = "#37474f"  # Material's blue grey 800, the header's colour family; white on it is 10:1
# Files a reader never needs offline: Material's own search (replaced by assets/search.js), source maps.
NOT_KEPT = re.compile(r"^assets/javascripts/(lunr|workers)/|\.map$|^assets/fonts/LICENSE")


def label(game, language: str = words.ENGLISH) -> str:
    """What a saved copy holds: "Data of 2026-11-30 · errata up to e2" (in the site's language)."""
    _ = words.of(language).gettext
    date = game.data_date()
    latest = game.latest_erratum()
    held = _("Data of %(date)s") % {"date": date.isoformat()} if date else \
        _("Data version %(version)s") % {"version": game.info.data_version}
    return held + " · " + (_("errata up to %(id)s") % {"id": latest.id} if latest else _("no errata"))


def initials(name: str) -> str:
    """'Deep State' -> 'DS', 'D.E.I.' -> 'DEI', 'Statecraft' -> 'S'."""
    words = [w for w in re.split(r"\s+", name) if any(c.isalnum() for c in w)]
    if len(words) > 1:
        return "".join(next(c for c in w if c.isalnum()) for w in words[:3]).upper()
    capitals = [c for c in name if c.isupper() or c.isdigit()]
    return "".join(capitals[:3]) if len(capitals) > 1 else name[:1].upper()


def icon(text: str, size: int) -> bytes:
    """A square PNG icon: the initials in white, bold, on the header's colour, with the margin a
    maskable icon needs (the middle 80% is safe from any mask)."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font_file = str(TEMPLATES / "fonts" / "Inter-Bold.otf")
    points = size // 2
    font = ImageFont.truetype(font_file, points)
    while points > 8 and draw.textlength(text, font=font) > size * 0.6:
        points -= max(1, points // 20)
        font = ImageFont.truetype(font_file, points)
    draw.text((size / 2, size / 2), text, fill="#ffffff", font=font, anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def kept_files(site: Path, game_id: str) -> list[str]:
    """What the game's worker keeps, relative to the site: its pages and files, its PDFs, the
    site's assets, its search index and the search's list of games."""
    files = [p for p in (site / game_id).rglob("*") if p.is_file() and p.name != "version.json"]
    files += [p for p in (site / DOWNLOADS / game_id).rglob("*") if p.is_file()]
    files += [p for p in (site / ASSETS).rglob("*") if p.is_file()]
    files += [site / SEARCH / f"{game_id}.js", site / SEARCH / f"{SITE_INDEX}.js", site / "index.html",
              site / f"{NOT_FOUND}.html"]
    names = sorted({p.relative_to(site).as_posix() for p in files if p.is_file()})
    return [n for n in names if not NOT_KEPT.search(n) and n != f"{game_id}/sw.js"]


def manifest_link(html: str, depth: int) -> str:
    """The page with a link to its game's manifest and icon in <head> (once)."""
    if 'rel="manifest"' in html:
        return html
    up = "../" * depth
    link = (f'<link rel="manifest" href="{up}manifest.webmanifest">'
            f'<link rel="apple-touch-icon" href="{up}icon-192.png">')
    return html.replace("</head>", link + "</head>", 1)


PLACEHOLDER = re.compile(r"\b__([A-Z]+)__\b")


def fill_script(template: str, **values) -> str:
    """A script template with each __NAME__ replaced by its value as a JavaScript literal (JSON),
    all in one pass: a value is never read again for names (a label "__FILES__" stays a string)."""
    return PLACEHOLDER.sub(lambda m: json.dumps(values[m.group(1)], ensure_ascii=False, indent=None), template)


def worker_template(root: bool = False) -> str:
    """The offline worker's script, its values __NAME__: a game's (templates/site/webapp/sw.js)
    or, with `root`, the site's own at its root (root-sw.js: a page of ours for a game not saved)."""
    return (TEMPLATES / "site" / "webapp" / ("root-sw.js" if root else "sw.js")).read_text(encoding="utf-8")


def write_webapp(site: Path, games: list, language: str = words.ENGLISH) -> None:
    """The manifest, icons, worker and version of every game (Game objects) into the built site."""
    worker = worker_template()
    _ = words.of(language).gettext
    # the site's root worker: offline, a page of a game not saved says so and how to save it
    write_if_changed(site / f"{ROOT_WORKER}.js", fill_script(worker_template(root=True),
                                                 GAMES={game.id: game.info.name for game in games},
                                                 LANG=language, WORDS=json.loads(words.script_words(language, words.WORKER_SCRIPTS))).encode("utf-8"))
    for game in games:
        folder = site / game.id
        for path in folder.rglob("*.html"):
            depth = len(path.relative_to(folder).parts) - 1
            html = path.read_text(encoding="utf-8")
            write_if_changed(path, manifest_link(html, depth).encode("utf-8"))
        mark = initials(game.info.name)
        for size in ICON_SIZES:
            write_if_changed(folder / f"icon-{size}.png", icon(mark, size))
        manifest = {
            "name": _("%(game)s rules reference") % {"game": game.info.name}, "short_name": game.info.name,
            "description": _("The rules, cards, tables and solo bot of %(game)s, offline.") % {"game": game.info.name},
            "start_url": "./index.html", "scope": "./", "display": "standalone", "lang": game.info.language,
            "background_color": "#ffffff", "theme_color": BACKGROUND,
            "icons": [{"src": f"icon-{s}.png", "sizes": f"{s}x{s}", "type": "image/png", "purpose": "any"}
                      for s in ICON_SIZES] + [{"src": "icon-512.png", "sizes": "512x512", "type": "image/png",
                                               "purpose": "maskable"}],
        }
        write_if_changed(folder / "manifest.webmanifest",
                         json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8"))
        files = kept_files(site, game.id)
        digest = hashlib.sha256()
        for name in files:
            digest.update(name.encode() + b"\0" + (site / name).read_bytes())
        version = digest.hexdigest()[:16]
        held = {"version": version, "label": label(game, language), "files": len(files),
                "bytes": sum((site / n).stat().st_size for n in files)}
        # URLs relative to the worker (in the game's folder): "index.html", "../assets/…"
        urls = [os.path.relpath(site / name, folder).replace(os.sep, "/") for name in files]
        filled = fill_script(worker, GAME=game.id, VERSION=version, LABEL=held["label"], FILES=urls)
        write_if_changed(folder / "sw.js", filled.encode("utf-8"))
        write_if_changed(folder / "version.json", json.dumps(held, ensure_ascii=False).encode("utf-8"))
