"""The MkDocs configuration of a build: the package's defaults, the project's settings over them,
the navigation, written to disk so that `mkdocs build -f <work>/mkdocs.yml` builds the same site.

A project's own mkdocs.yml sets how the site looks, nothing else: the settings of PRESENTATION,
each of its type. Anything that runs code at build time or in the reader's browser, or loads
from another site (`hooks`, `plugins`, `theme.custom_dir`, `extra_javascript`, `extra_css`, a
theme font from Google, analytics, a repository's details …), is refused at its file:line:column
unless the maintainer builds with `--trust-config`. `markdown_extensions` is refused even then:
content is read with Rulesmith's one Markdown configuration, so that the check sees what readers
get. Every text of it that reaches a page is written escaped for HTML into the generated file:
the theme prints `site_name`, `copyright` and the others as they are, as markup.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import mergedeep
import yaml

from rulesmith import words
from rulesmith.content import model
from rulesmith.content.load import read_settings
from rulesmith.files import write_if_changed
from rulesmith.problems import ContentError, Problems, UsageError
from rulesmith.project import Project, game_folders, templates
from rulesmith.text import markdown_config
from rulesmith.words import N_

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rulesmith.content.game import Game

TRUST_HINT = "or pass --trust-config if you trust this file as you trust code"
TRUST_CONFIG_HELP = ("let the project's mkdocs.yml set more than how the site looks (hooks, plugins, "
                     "theme.custom_dir, extra_javascript …: code that runs at build time or in readers' browsers); "
                     "only for a file you trust as you trust code")


class Setting:
    """One kind of value a project may set: its check (a problem, or None), whether it is text the
    theme prints (and so is escaped) and whether it holds settings of its own."""

    def __init__(self, check=None, text: bool = False, children: bool = False, hint: str = ""):
        self.check, self.text, self.children, self.hint = check, text, children, hint

    def problem(self, value) -> str | None:
        return self.check(value) if self.check else None


def _text(value) -> str | None:
    return None if isinstance(value, str) and "\n" not in value.strip() else "must be text on one line"


def _url(value) -> str | None:
    return "must be an https:// address" if not isinstance(value, str) else model.https_url_problem(value)


def _pattern(regex: str, what: str):
    compiled = re.compile(regex)
    return lambda value: None if isinstance(value, str) and compiled.fullmatch(value) else f"must be {what}"


def _local_path(value) -> str | None:
    """A file of the site itself (the logo, the favicon), never one from elsewhere."""
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_./-]*", value) or ".." in value \
            or "//" in value or ":" in value:
        return "must be a path of a file of the site, such as assets/images/logo.png"
    return None


_LANGUAGE_CODE = _pattern(r"[a-z]{2,3}([_-][A-Za-z0-9]+)*", "a language code, such as en or pt-BR")


def _language(value) -> str | None:
    """The site's language: Material's words and the tool's own (rulesmith/words.py) follow it,
    so it must be one the tool has words in."""
    if problem := _LANGUAGE_CODE(value):
        return problem
    if not words.known(value):
        return f"is {value!r}, a language the tool has no words in"
    if not _theme_speaks(value):
        return f"is {value!r}, a language Material for MkDocs (the site's theme) has no words in"
    return None


def _theme_speaks(language: str) -> bool:
    """Whether Material has its own words in this language (it reads partials/languages/<language>.html)."""
    import material

    return (Path(material.__file__).parent / "templates" / "partials" / "languages" / f"{language}.html").is_file()


def _is(kind, what: str):
    return lambda value: None if isinstance(value, kind) else f"must be {what}"


TEXT = Setting(_text, text=True)
URL = Setting(_url)
ICON = Setting(_pattern(r"[a-z0-9-]+(/[a-z0-9-]+)+", "an icon's name, such as material/weather-night"))
NAME = Setting(_pattern(r"[a-z][a-z0-9 -]*", "a name in lower case, such as blue grey"))
MAPPING = Setting(_is(dict, "a mapping of settings"), children=True)
LIST = Setting(_is(list, "a list"), children=True)

# What a project's mkdocs.yml may set (a list's items are `*`); a palette may be one mapping or a list.
PRESENTATION = {
    ("site_name",): TEXT,
    ("site_description",): TEXT,
    ("site_author",): TEXT,
    ("copyright",): TEXT,
    ("site_url",): URL,
    ("theme",): MAPPING,
    ("theme", "name"): Setting(_pattern("material", "material (the theme the site's templates are for)")),
    ("theme", "language"): Setting(_language, hint=f"write one of {', '.join(words.available())}, or add the tool's "
                                   "words in that language (templates/locale/<lang>.po: README, The tool's own words)"),
    ("theme", "font"): Setting(lambda v: None if v is False else
                               "can only be false: the site ships its fonts and loads none from elsewhere"),
    ("theme", "logo"): Setting(_local_path),
    ("theme", "favicon"): Setting(_local_path),
    ("theme", "icon"): MAPPING,
    ("theme", "icon", "logo"): ICON,
    ("theme", "icon", "menu"): ICON,
    ("theme", "icon", "top"): ICON,
    ("theme", "features"): LIST,
    ("theme", "features", "*"): Setting(_pattern(r"[a-z]+(\.[a-z]+)+", "a feature's name, such as navigation.top")),
    ("theme", "palette"): Setting(lambda v: None if isinstance(v, (list, dict)) else
                                  "must be a palette's settings or a list of them", children=True),
    ("theme", "palette", "*"): MAPPING,
    ("theme", "palette", "*", "media"): TEXT,
    ("theme", "palette", "*", "scheme"): NAME,
    ("theme", "palette", "*", "primary"): NAME,
    ("theme", "palette", "*", "accent"): NAME,
    ("theme", "palette", "*", "toggle"): MAPPING,
    ("theme", "palette", "*", "toggle", "icon"): ICON,
    ("theme", "palette", "*", "toggle", "name"): TEXT,
    ("extra",): MAPPING,
    ("extra", "generator"): Setting(_is(bool, "true or false")),
    ("extra", "social"): LIST,
    ("extra", "social", "*"): MAPPING,
    ("extra", "social", "*", "icon"): ICON,
    ("extra", "social", "*", "link"): URL,
    ("extra", "social", "*", "name"): TEXT,
}
# Why the settings a maintainer is most likely to try are refused.
REFUSED = {
    ("hooks",): "runs Python code of its own during the build",
    ("plugins",): "runs the plugins' Python code during the build",
    ("INHERIT",): "reads settings from another file",
    ("extra_javascript",): "adds scripts to every page",
    ("extra_css",): "adds stylesheets to every page, which may load from other sites",
    ("extra_templates",): "adds templates, which may hold scripts",
    ("theme", "custom_dir"): "replaces the theme's templates, which may hold scripts",
    ("theme", "font"): "loads fonts from Google: the site ships its own",
    ("repo_url",): "makes every page ask the repository's host for its details",
    ("extra", "analytics"): "loads a tracker's script",
    ("extra", "consent"): "belongs to analytics",
    ("extra", "polyfills"): "adds scripts to every page",
    ("extra", "scope"): "is written into a script of every page",
    ("extra", "homepage"): "may point the logo's link anywhere",
}
ALWAYS_REFUSED = {("markdown_extensions",): ("cannot be set here", "remove it: content is read with Rulesmith's one "
                                             "Markdown configuration, so that the check sees what readers get")}


def _read(path: Path) -> dict:
    data, _ = _read_located(path)
    return data


def _read_located(path: Path) -> tuple[dict, dict[tuple, tuple[int, int]]]:
    """The settings of a mkdocs.yml and the line and column of each key, by its path: read by the
    one strict loader content is read by (content/load.py: no aliases, tags or second document,
    nesting and size bounded), so a nested alias or a list 5,000 deep is a located refusal."""
    problems = Problems()
    source = read_settings(path, problems, "mkdocs.yml")
    if source is None:
        raise ContentError(problems.sorted())
    if not isinstance(source.data, dict):  # pragma: no cover - read_file refuses a file that is not a mapping
        raise UsageError(f"{path}:1:1: mkdocs.yml must be a mapping of settings", "write `setting: value` lines")
    return source.data, {**source.values, **source.keys}


def project_settings(project: Project, trusted: bool = False) -> dict:
    """The project's own mkdocs.yml (empty when it has none), checked: every problem at once at
    its file:line:column."""
    path = project.mkdocs_config
    if path is None:
        return {}
    data, places = _read_located(path)
    problems = Problems()

    def where(at: tuple) -> tuple[str, int, int]:
        while at and at not in places:
            at = at[:-1]
        return (str(path), *places.get(at, (1, 1)))

    def walk(value, at: tuple, shape: tuple) -> None:
        for key, child in (value.items() if isinstance(value, dict) else enumerate(value)):
            here, form = at + (key,), _shape(data, shape + ("*" if isinstance(key, int) else str(key),))
            name = "'" + ".".join(str(k) for k in here) + "'"
            if form in ALWAYS_REFUSED:
                problems.add(where(here), f"{name} {ALWAYS_REFUSED[form][0]}", ALWAYS_REFUSED[form][1])
                continue
            setting = PRESENTATION.get(form)
            if trusted:
                continue
            if setting is None or (form in REFUSED and setting.problem(child)):
                why = REFUSED.get(form, "is not one of the settings of how the site looks that a project may set")
                problems.add(where(here), f"{name} {why}",
                             f"remove it, {TRUST_HINT}; a project may set {allowed(shape)} here")
                continue
            if problem := setting.problem(child):
                problems.add(where(here), f"{name} {problem}", setting.hint or "correct the value, or remove the setting")
            elif setting.children:
                walk(child, here, form)

    walk(data, (), ())
    if problems:
        raise ContentError(problems.sorted())
    return data


def _shape(config: dict, form: tuple) -> tuple:
    """A place in the settings as PRESENTATION names it: a list's items are `*`, and so are the
    settings of a palette given as one mapping (as the one item of a list)."""
    theme = config.get("theme")
    one_palette = isinstance(theme, dict) and isinstance(theme.get("palette"), dict)
    if one_palette and len(form) > 2 and form[:2] == ("theme", "palette") and form[2] != "*":
        return ("theme", "palette", "*") + form[2:]
    return form


def allowed(shape: tuple) -> str:
    """The settings a project may set at this place of mkdocs.yml, for a hint."""
    found = [path[len(shape)] for path in PRESENTATION if len(path) == len(shape) + 1 and path[:len(shape)] == shape]
    return ", ".join(dict.fromkeys(str(name) for name in found)) or "nothing here"


def settings(project: Project, trusted: bool = False, games: Sequence[Game] = (), in_other: str | None = None) -> dict:
    """The package's MkDocs defaults with the project's mkdocs.yml laid over them; the site is
    named from the project (site_name). `in_other`: the site in another language than the
    project's (a language some game has a catalog in: its theme.language)."""
    merged = _read(templates() / "mkdocs.yml")
    own = project_settings(project, trusted)
    mergedeep.merge(merged, own, strategy=mergedeep.Strategy.REPLACE)
    if in_other is not None:
        merged.setdefault("theme", {})["language"] = in_other
    if not own.get("site_name"):
        merged["site_name"] = default_site_name(project, games)
    merged["markdown_extensions"] = markdown_config.mkdocs_extensions()
    return in_language(merged)


# The package's own words in its MkDocs defaults (templates/mkdocs.yml), said in the site's language
# where the project keeps them; Material's own words follow theme.language by themselves.
_OWN_WORDS = {"Switch to dark theme": N_("Switch to dark theme"), "Switch to light theme": N_("Switch to light theme")}


def in_language(config: dict) -> dict:
    """The settings with the tool's words in them said in the site's language: the palette's
    toggles (as the defaults name them) and the headings' permanent links."""
    words_of = words.of(language(config))
    if words_of.language == words.ENGLISH:
        return config
    theme = config.get("theme")
    palettes = theme.get("palette") if isinstance(theme, dict) else None
    for palette in palettes if isinstance(palettes, list) else [palettes] if isinstance(palettes, dict) else []:
        toggle = palette.get("toggle") if isinstance(palette, dict) else None
        if isinstance(toggle, dict) and toggle.get("name") in _OWN_WORDS:
            toggle["name"] = words_of.gettext(_OWN_WORDS[toggle["name"]])
    config["markdown_extensions"] = [
        {"toc": {**extension["toc"], "permalink_title": words_of.gettext("Permanent link")}}
        if isinstance(extension, dict) and "toc" in extension else extension
        for extension in config["markdown_extensions"]]
    return config


def language(config: dict) -> str:
    """The site's language (theme.language of the settings), which the tool's words follow."""
    theme = config.get("theme")
    value = theme.get("language") if isinstance(theme, dict) else None
    return value if isinstance(value, str) and words.known(value) else words.ENGLISH


def default_site_name(project: Project, games: Sequence[Game] = (), folder: bool = True) -> str:
    """The site's name where the project's mkdocs.yml gives none: its one game's name when it
    has one game (among `games`, those checked), else (with `folder`) the project folder's name."""
    folders = game_folders(project.content)
    if len(folders) == 1:
        found = next((g for g in games if g.id == folders[0].name), None)
        if found is not None:
            return found.info.name
    return (project.root.resolve().name or "Rules references") if folder else ""


def escape_text(value: str) -> str:
    """A text the theme prints as markup, in page text or a double-quoted attribute: shown as
    written. `&` stays (the theme escapes some of these values once more, which would show
    "&amp;" in a tooltip; a lone & is text in HTML, and an entity can only ever spell text)."""
    return value.replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def escaped(config: dict) -> dict:
    """The settings with each text the theme prints escaped (PRESENTATION's text settings)."""
    def one(value, form: tuple):
        setting = PRESENTATION.get(_shape(config, form))
        if setting is not None and setting.text and isinstance(value, str):
            return escape_text(value)
        if isinstance(value, dict):
            return {k: one(v, form + (str(k),)) for k, v in value.items()}
        if isinstance(value, list):
            return [one(v, form + ("*",)) for v in value]
        return value

    return one(config, ())


def write_config(project: Project, work: Path, nav: list, site_url: str | None = None, trusted: bool = False,
                 games: Sequence[Game] = (), in_other: str | None = None, alternates: list[dict] | None = None) -> Path:
    """Write `<work>/mkdocs.yml`: the whole generated MkDocs project is on disk, and
    `mkdocs build -f` or `zensical build -f` on it builds the site into <work>/site. `in_other`:
    the site in that language (settings); `alternates`: the site in every language, each
    {name, link (the folder of that language's site from this one's root), lang}, which the
    language switch and every page's hreflang links follow to the same page (theme/partials/alternate.html)."""
    config = escaped(settings(project, trusted, games, in_other))
    config.update(docs_dir="docs", site_dir="site", nav=nav)
    if alternates:
        extra = config.get("extra")
        # Material's header shows its language switch (partials/alternate.html, ours) when `alternate`
        # is set; its base.html writes a site-root hreflang link for each entry of `alternate` that
        # is a list. So `alternate` only says "there is a switch" (true, no list: the header, copied
        # from Material unchanged, includes the switch, and base.html writes nothing), and the
        # languages are in rs_alternate, linked page to page by our alternate.html and main.html.
        config["extra"] = {**(extra if isinstance(extra, dict) else {}), "alternate": True, "rs_alternate": alternates}
    # The words the site's scripts write, in the site's language, for every page (theme/main.html):
    # none for English, where the scripts' own words are the site's.
    script_words = words.script_words(language(config))
    if script_words != "{}":
        extra = config.get("extra")
        config["extra"] = {**(extra if isinstance(extra, dict) else {}), "rs_words": script_words}
    # The package's theme overrides (the header names the page's game), unless the project has its own.
    config.setdefault("theme", {}).setdefault("custom_dir", str(templates() / "theme"))
    if site_url:  # hosted under this address (a subpath too): 404 page, sitemap, canonical links
        config["site_url"] = site_url if site_url.endswith("/") else site_url + "/"
    path = work / "mkdocs.yml"
    text = "# Generated by `rulesmith build`; edit the project's mkdocs.yml instead.\n" + \
        yaml.safe_dump(config, sort_keys=False, allow_unicode=True, width=100)
    write_if_changed(path, text.encode("utf-8"))
    return path
