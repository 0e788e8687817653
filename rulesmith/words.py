"""The tool's own words: every label, mark, button, legend and message Rulesmith writes into a
page, in the reader's language, from one message catalog.

The words are written in English in the code, the templates and the scripts, each wrapped where
it is written (`gettext("…")` in Python, `{{ _("…") }}` or `{% trans %}` in a template, `T("…")`
in a script), and Babel extracts them (babel.cfg, `scripts/words`) into
`templates/locale/messages.pot`; each language is a gettext catalog beside it,
`templates/locale/<lang>.po`, read here with Babel (no compiled .mo file is kept). English is the
words as written: it needs no catalog. The site's language is one setting, `theme.language` in
mkdocs.yml, which Material's own words follow too (site/mkdocs_config.py checks it).

Placeholders are named: `%(name)s` in Python and templates (Jinja's new-style gettext), `{name}`
in the scripts. The words are text, never markup: a template escapes a translation for its page as
it escapes the English.
"""

from __future__ import annotations

import gettext as gettext_module
import json
import re
from functools import lru_cache
from typing import TYPE_CHECKING

from rulesmith.project import templates

if TYPE_CHECKING:
    from pathlib import Path

    import jinja2

ENGLISH = "en"


def N_(text: str) -> str:
    """A word readers see, marked where it is written for the catalog (scripts/words) and
    translated where it is shown: `_(label)` in a template, `gettext(label)` in Python."""
    return text


def locale_folder() -> Path:
    return templates() / "locale"


def available() -> list[str]:
    """The languages the tool can write in: English and each catalog in templates/locale."""
    return sorted({ENGLISH, *(p.stem for p in locale_folder().glob("*.po"))})


def code(language: str) -> str:
    """A language as its catalog is named: `pt-BR` and `pt_BR` are `pt_BR`, `DE` is `de`."""
    parts = re.split(r"[-_]", language)
    return "_".join([parts[0].lower(), *(p.upper() if len(p) == 2 else p for p in parts[1:])])


def known(language: str) -> bool:
    """Whether the tool has words in this language (its own catalog, or that of its base
    language: `de_AT` reads `de`)."""
    return resolve(language) is not None


def resolve(language: str) -> str | None:
    """The catalog a language reads: its own, else its base language's; None when there is none."""
    wanted = code(language)
    for candidate in (wanted, wanted.split("_")[0]):
        if candidate == ENGLISH or candidate in available():
            return candidate
    return None


class Words:
    """The words of one language: gettext and ngettext over its catalog (English: as written)."""

    def __init__(self, language: str, catalog: dict[str, str | tuple[str, ...]], plural=None):
        self.language, self._catalog = language, catalog
        self._plural = plural or (lambda n: int(n != 1))

    def gettext(self, message: str) -> str:
        found = self._catalog.get(message)
        return found if isinstance(found, str) and found else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        found = self._catalog.get(singular)
        if isinstance(found, tuple):
            index = self._plural(n)
            if 0 <= index < len(found) and found[index]:
                return found[index]
        return singular if n == 1 else plural


@lru_cache(maxsize=8)
def of(language: str = ENGLISH) -> Words:
    """The words of a language (its catalog read once); English, or a language without a catalog,
    gives the words as written (mkdocs_config refuses such a language before anything is made)."""
    name = resolve(language) or ENGLISH
    if name == ENGLISH:
        return Words(ENGLISH, {})
    from babel.messages.pofile import read_po

    with (locale_folder() / f"{name}.po").open("rb") as file:
        catalog = read_po(file, locale=name)
    found: dict[str, str | tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue  # the header, and a translation not yet checked against its English
        key = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        text = message.string
        found[key] = tuple(text) if isinstance(text, (list, tuple)) else (text or "")
    plural = gettext_module.c2py(catalog.plural_expr) if catalog.plural_expr else None
    return Words(name, found, plural)


def gettext(message: str, language: str = ENGLISH) -> str:
    return of(language).gettext(message)


def install(env: jinja2.Environment, language: str = ENGLISH) -> jinja2.Environment:
    """Give a Jinja environment the words of a language: `{{ _("…") }}`, `{% trans %}` (the i18n
    extension, new-style: placeholders by name, every text a format string)."""
    env.add_extension("jinja2.ext.i18n")
    words = of(language)
    env.install_gettext_callables(words.gettext, words.ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals["language"] = words.language
    return env


# The words the site's scripts write (their `T("…")`), found in the scripts themselves: each page
# carries them in its language (script_words), so a script never holds a translation.
_SCRIPT_CALL = re.compile(r"""\bT\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")
SCRIPTS = tuple(f"assets/{name}" for name in ("botturn.js", "walker.js", "procedure.js", "search.js", "offline.js",
                                              "rulesmith.js", "words.js"))
WORKER_SCRIPTS = ("webapp/root-sw.js",)  # the site's own offline worker: its words are filled in (site/webapp.py)


def script_messages(scripts: tuple[str, ...] = SCRIPTS) -> list[str]:
    """Every msgid these scripts of the site (under templates/site) ask T() for, in their order."""
    found: dict[str, None] = {}
    for name in scripts:
        path = templates() / "site" / name
        if not path.is_file():
            continue
        for match in _SCRIPT_CALL.finditer(path.read_text(encoding="utf-8")):
            text = match.group(1) if match.group(1) is not None else match.group(2)
            found[json.loads('"' + text.replace("\\'", "'") + '"')] = None
    return list(found)


def script_words(language: str = ENGLISH, scripts: tuple[str, ...] = SCRIPTS) -> str:
    """The scripts' words in a language, as the JSON a page carries (`<meta name="rs-words">`,
    escaped there for its attribute): {msgid: translation}, only those that differ from English."""
    words = of(language)
    table = {m: words.gettext(m) for m in script_messages(scripts) if words.gettext(m) != m}
    return json.dumps(table, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def extract_yaml(fileobj, _keywords, _comment_tags, options):
    """Babel's extractor for the tool's own YAML of words readers see (babel.cfg: the aid kinds'
    `title` and `contains` in templates/pdf/aids.yaml): the value of each of `options["keys"]`
    (space-separated) at any depth, with its line, for `pybabel extract`. Where the words are
    shown, they are translated as any other (`_(kind.title)`)."""
    import yaml

    wanted = set(options.get("keys", "").split())
    found: list[tuple[int, str]] = []

    def walk(node) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(value, yaml.ScalarNode) and key.value in wanted and value.value:
                    found.append((value.start_mark.line + 1, value.value))
                else:
                    walk(value)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                walk(item)

    walk(yaml.compose(fileobj.read().decode(options.get("encoding", "utf-8"))))
    for line, text in found:
        yield line, None, text, []
