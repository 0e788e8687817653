"""Issue 34, other contexts: every value is escaped by the rule of the context it lands in, the
site's own names are not game ids, a project's mkdocs.yml sets presentation only (its values
shown as text), and every page carries a Content-Security-Policy that lets only the site's own
scripts run, tested in Chromium with a planted script, event attribute and `javascript:` link.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from conftest import FIXTURE_SITE_CONTENT, page_ready, rulesmith_here, served
from gamekit import GAME_YAML, write_game

from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError
from rulesmith.project import ASSETS, HOME, NOT_FOUND, SEARCH, SITE_NAMES, SITE_SEARCH
from rulesmith.site.webapp import write_webapp

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
    from rulesmith.site.webapp import fill_script

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
    from rulesmith.flowchart.chart import render_svg

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
         "404, assets, changelog, content, downloads, format, index, search, site, sitemap, sw")]
    made = rulesmith_here("new", name, cwd=tmp_path, content=None)
    assert made.returncode == 1 and made.stderr.startswith(f"error: '{name}' is the site's own name")


def test_every_name_the_build_gives_its_own_files_is_one_of_the_sites_names(fixture_site):
    """The list the check refuses is the list the build writes: every top-level name in the built
    site, the generated pages and the search folder is a game's or one of project.SITE_NAMES."""
    games = {p.name for p in FIXTURE_SITE_CONTENT.iterdir() if (p / "game.yaml").is_file()}
    docs = fixture_site.parent / "work" / "docs"
    names = {p.name.split(".")[0] for folder in (fixture_site, docs, fixture_site / SEARCH) for p in folder.iterdir()}
    assert names - games <= set(SITE_NAMES) and names >= {ASSETS, SEARCH, SITE_SEARCH, HOME, NOT_FOUND}


HOSTILE_CONFIG = """\
site_name: Rules
hooks: [hook.py]
plugins: [search]
INHERIT: other.yml
theme:
  name: material
  custom_dir: overrides
  font: {text: Roboto}
  logo: https://tracker.example.com/pixel.png
  favicon: ../outside.png
  palette: {scheme: slate, primary: "red\\" onclick=\\"x"}
extra_javascript: [https://cdn.example.com/x.js]
extra_css: [https://cdn.example.com/x.css]
repo_url: https://github.com/x/y
extra:
  generator: false
  analytics: {provider: google, property: G-X}
  social:
    - {icon: fontawesome/brands/github, link: "javascript:alert(1)"}
    - {icon: ../../secrets, link: "https://example.com/"}
markdown_extensions: [extra]
"""
REFUSE = "remove it, or pass --trust-config if you trust this file as you trust code; a project may set "
TOP = REFUSE + "site_name, site_description, site_author, copyright, site_url, theme, extra here"
THEME = REFUSE + "name, language, font, logo, favicon, icon, features, palette here"
VALUE = "correct the value, or remove the setting"


def config_problems(tmp_path, text: str, trusted: bool = False) -> list[tuple]:
    from rulesmith.project import find_project
    from rulesmith.site.mkdocs_config import settings

    write_game(tmp_path)
    (tmp_path / "mkdocs.yml").write_text(text, encoding="utf-8")
    try:
        settings(find_project(tmp_path), trusted=trusted)
    except ContentError as error:
        return [(p.line, p.column, p.message, p.hint) for p in error.problems]
    return []


def test_a_projects_mkdocs_yml_sets_how_the_site_looks_and_nothing_else(tmp_path):
    """Settings that run code at build time or in a reader's browser, or load from another site,
    are refused, each at its line and column, all at once."""
    assert config_problems(tmp_path, HOSTILE_CONFIG) == [
        (2, 1, "'hooks' runs Python code of its own during the build", TOP),
        (3, 1, "'plugins' runs the plugins' Python code during the build", TOP),
        (4, 1, "'INHERIT' reads settings from another file", TOP),
        (7, 3, "'theme.custom_dir' replaces the theme's templates, which may hold scripts", THEME),
        (8, 3, "'theme.font' loads fonts from Google: the site ships its own", THEME),
        (9, 3, "'theme.logo' must be a path of a file of the site, such as assets/images/logo.png", VALUE),
        (10, 3, "'theme.favicon' must be a path of a file of the site, such as assets/images/logo.png", VALUE),
        (11, 28, "'theme.palette.primary' must be a name in lower case, such as blue grey", VALUE),
        (12, 1, "'extra_javascript' adds scripts to every page", TOP),
        (13, 1, "'extra_css' adds stylesheets to every page, which may load from other sites", TOP),
        (14, 1, "'repo_url' makes every page ask the repository's host for its details", TOP),
        (17, 3, "'extra.analytics' loads a tracker's script", REFUSE + "generator, social here"),
        (19, 41, "'extra.social.0.link' only https:// links are allowed", VALUE),
        (20, 8, "'extra.social.1.icon' must be an icon's name, such as material/weather-night", VALUE),
        (21, 1, "'markdown_extensions' cannot be set here", "remove it: content is read with Rulesmith's one "
         "Markdown configuration, so that the check sees what readers get"),
    ]


ALIAS_BOMB = "a0: [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 10)}]\n" for n in range(1, 9)).replace("a0: [", "a0: &a0 [", 1) + \
    "theme: {features: *a8}\n"


@pytest.mark.unit
@pytest.mark.parametrize("text, expected", [
    # 5,000 lists deep: a RecursionError traceback before (issue 46)
    ("site_name: " + "[" * 5000 + "]" * 5000 + "\n",
     (1, 52, "YAML nesting is deeper than 40 levels", "flatten the structure; mkdocs.yml never nests this deep")),
    # 534 bytes of nested aliases: 10^8 paths walked before
    (ALIAS_BOMB, (2, 10, "YAML aliases (*name) are not allowed in mkdocs.yml",
                  "write the value out in full instead of using &anchor / *alias")),
    ("site_name: &name Rules\ncopyright: *name\n",
     (2, 12, "YAML aliases (*name) are not allowed in mkdocs.yml",
      "write the value out in full instead of using &anchor / *alias")),
    ("site_name: !!python/object:os.system x\n",
     (1, 12, "YAML tag tag:yaml.org,2002:python/object:os.system is not allowed in mkdocs.yml",
      "remove the tag; mkdocs.yml is plain strings, numbers, lists and mappings")),
    ("site_name: a\nsite_name: b\n", (2, 1, "duplicate key 'site_name' (first defined at line 1)", None)),
    ("site_name: a\n---\nsite_name: b\n",
     (2, 1, "YAML syntax error: mkdocs.yml holds one YAML document, but '---' starts another",
      "check quotes, colons and indentation around here")),
    ("- a list\n", (1, 1, "file holds a list; mkdocs.yml is a mapping of keys", None)),
])
def test_a_projects_mkdocs_yml_is_read_as_strictly_as_content(tmp_path, text, expected):
    """One strict loader for every YAML the tool reads: a located refusal, never a traceback or
    a walk through expanded aliases."""
    found = config_problems(tmp_path, text)
    assert found, text[:60]
    line, column, message, hint = expected
    assert (found[0][0], found[0][1], found[0][2]) == (line, column, message)
    if hint is not None:
        assert found[0][3] == hint


@pytest.mark.unit
def test_an_empty_mkdocs_yml_sets_nothing(tmp_path):
    assert config_problems(tmp_path, "# nothing set here\n") == []


@pytest.mark.unit
def test_the_packages_own_yaml_is_read_by_the_strict_loader(tmp_path, monkeypatch):
    from rulesmith.aids import kinds
    from rulesmith.problems import BuildError

    bad = tmp_path / "aids.yaml"
    bad.write_text("geometry: &g {a: 1}\nagain: *g\n", encoding="utf-8")
    monkeypatch.setattr(kinds, "AIDS_FILE", bad)
    kinds._data.cache_clear()
    try:
        with pytest.raises(BuildError, match=r"aids.yaml:2:8: YAML aliases \(\*name\) are not allowed in aids.yaml"):
            kinds._data()
    finally:
        kinds._data.cache_clear()


def test_trust_config_lets_the_maintainer_set_anything_but_the_markdown_configuration(tmp_path):
    assert config_problems(tmp_path, HOSTILE_CONFIG, trusted=True) == [
        (21, 1, "'markdown_extensions' cannot be set here", "remove it: content is read with Rulesmith's one "
         "Markdown configuration, so that the check sees what readers get")]
    assert config_problems(tmp_path, HOSTILE_CONFIG.replace("markdown_extensions: [extra]\n", ""), trusted=True) == []


def test_the_presentation_a_maintainer_sets_is_accepted(tmp_path):
    assert config_problems(tmp_path, """\
site_name: Our rules & references
site_description: Every card.
site_author: The rules team
copyright: Copyright &copy; 2026 The rules team
site_url: https://example.org/rules/
theme:
  name: material
  language: fr
  font: false
  logo: assets/images/logo.png
  favicon: assets/images/favicon.png
  icon: {logo: material/cards}
  features: [navigation.top, toc.follow]
  palette:
    - {media: "(prefers-color-scheme: light)", scheme: default, primary: blue grey, accent: deep orange,
       toggle: {icon: material/weather-night, name: Switch to dark theme}}
extra:
  generator: false
  social: [{icon: fontawesome/brands/github, link: "https://github.com/example/rules", name: Our repository}]
""") == []


def test_the_build_refuses_a_hook_before_making_anything(tmp_path):
    content = write_game(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("hooks: [hook.py]\n", encoding="utf-8")
    (tmp_path / "hook.py").write_text("import pathlib\npathlib.Path('ran').write_text('ran')\n", encoding="utf-8")
    run = rulesmith_here("build", "--no-pdf", cwd=tmp_path, content=str(content))
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stderr.splitlines()[-2:] == [f"{tmp_path / 'mkdocs.yml'}:1:1: 'hooks' runs Python code of its own during the "
                                            f"build ({TOP})", "1 problem found; nothing was written."]
    assert not (tmp_path / "site").exists() and not (tmp_path / "ran").exists()


# ---------------------------------------------------------------- the policy, in Chromium

SHOWN_CONFIG = """\
site_name: Rules <img src=x onerror=alert(1)> "of" & more
site_description: 'A " onmouseover="alert(2) <script>alert(3)</script>'
copyright: '<script>alert(4)</script> Copyright &copy; 2026 <img src=x onerror=alert(5)>'
theme:
  palette:
    - media: "(prefers-color-scheme: light)"
      scheme: default
      toggle: {icon: material/weather-night, name: 'Dark " onmouseover="alert(6) <img src=x onerror=alert(7)>'}
    - media: "(prefers-color-scheme: dark)"
      scheme: slate
      toggle: {icon: material/weather-sunny, name: Light}
"""
RECORD = """window.__violations = [];
document.addEventListener("securitypolicyviolation", e => window.__violations.push(e.violatedDirective + " " + e.blockedURI));"""


@pytest.fixture(scope="module")
def policed(tmp_path_factory):
    """The demo game (rules, walker, tables, search), the chance game (the Bot turn companion) and
    a mkdocs.yml whose texts are markup, built as `rulesmith build` builds, and served over HTTP:
    (site folder, address)."""
    from conftest import build_site

    root = tmp_path_factory.mktemp("policed")
    shutil.copytree(FIXTURE_SITE_CONTENT, root / "content")
    shutil.copytree(FIXTURE_SITE_CONTENT.parent / "bot-chance" / "chance", root / "content" / "chance")
    (root / "mkdocs.yml").write_text(SHOWN_CONFIG, encoding="utf-8")
    build_site(root / "content", root / "site", root / "work")
    with served(root / "site") as base:
        yield root / "site", base


def open_page(browser, url: str):
    """A phone-sized page that records every policy violation and console error from its start."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(RECORD)
    page = context.new_page()
    page.errors = []
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("dialog", lambda dialog: (page.errors.append("dialog: " + dialog.message), dialog.dismiss()))
    page.goto(url)
    page_ready(page)
    return context, page


def violations(page) -> list[str]:
    return page.evaluate("window.__violations")


def test_every_page_carries_its_policy_first_in_its_head(policed):
    from rulesmith.site.csp import META, unlisted_scripts

    site, _ = policed
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 15
    for path in pages:
        html = path.read_text(encoding="utf-8")
        policy = META.search(html)
        assert policy and html.index("<script") > policy.end() and html.count('http-equiv="Content-Security-Policy"') == 1, path
        head = html[html.index("<head>") + len("<head>"):policy.start()]
        assert head.strip() in ("", '<meta charset="utf-8">'), path
        content = policy.group(0)
        assert "'unsafe-inline'" not in content.split("script-src", 1)[1].split(";")[0]
        assert "object-src 'none'" in content and ("base-uri 'self'" if path.name == "404.html" else "base-uri 'none'") in content
        assert unlisted_scripts(html) == [], path


@pytest.mark.parametrize("where", ["disk", "served"])
def test_every_page_type_works_under_its_policy(policed, browser, where):
    """Every page, then what each kind of page does (search, the walker, the Bot turn companion,
    the palette toggle, and served: the offline note and the service worker): no violation, no
    console error."""
    site, base = policed
    root = site.as_uri() if where == "disk" else base
    context, page = open_page(browser, f"{root}/index.html")
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    seen = {}
    for path in sorted(site.rglob("*.html")):
        page.goto(f"{root}/{path.relative_to(site).as_posix()}")
        page_ready(page)
        seen[path.relative_to(site).as_posix()] = violations(page) + page.errors
        page.errors.clear()
    assert {p: found for p, found in seen.items() if found} == {}

    from conftest import search

    page.goto(f"{root}/demo/index.html")
    assert search(page, "gama")  # "Gamma", misspelt
    page.locator(".rs-search__close").click()  # a dialog's form, sent nowhere
    page.locator("dialog.rs-search[open]").wait_for(state="hidden")
    scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    page.locator("form.md-header__option label:not([hidden])").click()
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") != scheme
    found = violations(page)
    page.goto(f"{root}/demo/solo/bot-turn.html")
    step = page.locator(".rs-walker [data-step]").first
    before = step.get_attribute("data-step")
    step.locator("button").first.click()
    assert page.locator(".rs-walker [data-step]").first.get_attribute("data-step") != before
    found += violations(page)
    page.goto(f"{root}/chance/bot-turn.html")
    page.locator(".rs-bot__setup button[type=submit]").click()
    page.locator(".rs-bot__view button").first.wait_for()
    found += violations(page)
    if where == "served":
        page.goto(f"{base}/demo/index.html")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
        page.locator(".rs-offline").filter(has_text="Saved for offline use").wait_for(timeout=30000)
        found += violations(page)
    errors = page.errors
    context.close()
    assert found == [] and errors == []
    assert [url for url in requested if not url.startswith((root, "data:"))] == []  # nothing from elsewhere


@pytest.mark.parametrize("where", ["disk", "served"])
def test_a_planted_script_link_handler_and_pixel_do_nothing(policed, browser, tmp_path, where):
    """What a content text that got past every check would hold, planted in a built page before
    its policy is written (so the policy is shown to hold alone): an inline script, a
    `javascript:` link, an `onclick` and an image from another site. None runs or loads; each is
    reported as a violation."""
    from rulesmith.site.csp import write_policies

    site = tmp_path / "site"
    shutil.copytree(policed[0], site)
    page_file = site / "demo" / "rules" / "basics.html"
    html = page_file.read_text(encoding="utf-8")
    article = html.index(">", html.index('<article class="md-content__inner')) + 1
    planted = ('<p><a id="planted-link" href="javascript:window.ran=\'link\'">Read the rules</a>'
               '<script>window.ran = "script"</script>'
               '<button id="planted-button" onclick="window.ran=\'onclick\'">Roll</button>'
               '<img id="planted-pixel" src="https://tracker.example.com/pixel.png" alt=""></p>')
    page_file.write_text(html[:article] + planted + html[article:], encoding="utf-8")
    write_policies(site)
    with served(site) as base:
        root = site.as_uri() if where == "disk" else base
        context, page = open_page(browser, f"{root}/demo/rules/basics.html")
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        address = page.url
        page.locator("#planted-link").click()
        page.locator("#planted-button").click()
        page.wait_for_function("() => window.__violations.length >= 4")
        ran = page.evaluate("window.ran === undefined ? null : window.ran")
        found = sorted(violations(page))
        pixel = page.evaluate("document.getElementById('planted-pixel').naturalWidth")
        stayed = page.url
        context.close()
    assert ran is None and stayed == address and pixel == 0
    assert found == ["img-src https://tracker.example.com/pixel.png", "script-src-attr inline",
                     "script-src-elem inline", "script-src-elem inline"]
    assert not [url for url in requested if "example.com" in url]


def test_the_projects_texts_show_as_written(policed, browser):
    """site_name, site_description, copyright and a palette toggle's name, each markup, reach
    every page as text: in the title, the header, the description, the footer, the toggle."""
    from rulesmith.site.mkdocs_config import _read

    said = _read(policed[0].parent / "mkdocs.yml")
    context, page = open_page(browser, (policed[0] / "demo" / "index.html").as_uri())
    shown = page.evaluate("""() => ({
        title: document.title,
        logo: document.querySelector('.md-header__button.md-logo').getAttribute('aria-label'),
        description: document.querySelector('meta[name=description]').content,
        copyright: document.querySelector('.md-copyright__highlight').textContent.trim(),
        toggle: document.querySelector('form.md-header__option input').getAttribute('aria-label'),
        elements: document.querySelectorAll('header img, footer img, footer script, [onmouseover]').length,
    })""")
    errors = page.errors
    context.close()
    assert shown == {"title": f"Overview - Demo Game - {said['site_name']}", "logo": said["site_name"],  # the page, its game, the site
                     "description": said["site_description"],
                     "copyright": said["copyright"].replace("&copy;", "©"),
                     "toggle": said["theme"]["palette"][0]["toggle"]["name"], "elements": 0}
    assert errors == []


def test_the_sites_own_templates_and_settings_load_nothing_from_elsewhere():
    """The templates, stylesheets, scripts and default settings the package ships name no other
    site but XML namespaces (the content's own texts are the check's: images from other hosts are
    refused there; a project's mkdocs.yml cannot add any, test above)."""
    from rulesmith.project import templates

    namespaces = ("http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink")
    found = []
    for path in sorted(templates().rglob("*")):
        if path.suffix in (".html", ".j2", ".css", ".js", ".yml", ".yaml") and not {"vendor", "new"} & set(path.parts):
            text = path.read_text(encoding="utf-8")
            found += [f"{path.relative_to(templates())}: {url}"
                      for url in re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s\"')]*", text) if url not in namespaces]
    assert found == []


def test_a_new_rulesmith_writes_its_policy_into_an_unchanged_site(tmp_path, monkeypatch):
    """The same content built again by changed code (an upgrade, a merge): the engine's pages are
    as before, but what finish_site writes into them (here a changed policy) is written again
    rather than the build skipping a site it believes current."""
    from conftest import build_site

    from rulesmith import fingerprint
    from rulesmith.site import csp

    content = write_game(tmp_path)
    build_site(content, tmp_path / "site", tmp_path / "work")
    assert "upgrade-insecure-requests" not in (tmp_path / "site" / "mini" / "index.html").read_text(encoding="utf-8")
    monkeypatch.setattr(csp, "POLICY", {**csp.POLICY, "upgrade-insecure-requests": ""})
    monkeypatch.setattr(fingerprint, "software_digest", lambda: "a newer rulesmith")
    build_site(content, tmp_path / "site", tmp_path / "work")
    assert "upgrade-insecure-requests" in (tmp_path / "site" / "mini" / "index.html").read_text(encoding="utf-8")


def test_one_palette_is_checked_and_escaped_as_a_list_of_one(tmp_path):
    from rulesmith.project import find_project
    from rulesmith.site.mkdocs_config import escaped, settings

    one = "theme:\n  palette: {scheme: slate, toggle: {icon: material/weather-night, name: 'Dark <b>'}}\n"
    assert config_problems(tmp_path, one) == []
    assert escaped(settings(find_project(tmp_path)))["theme"]["palette"]["toggle"]["name"] == "Dark &lt;b&gt;"
    assert config_problems(tmp_path, one.replace("material/weather-night", "../x")) == [
        (2, 37, "'theme.palette.toggle.icon' must be an icon's name, such as material/weather-night", VALUE)]
