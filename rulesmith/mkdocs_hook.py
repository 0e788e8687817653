"""MkDocs hooks for `rulesmith serve` only (serve.py passes this file; `rulesmith build` does not).

The preview rebuilds "dirty": only the pages whose Markdown changed. These hooks keep such a
rebuild fast and keep its search index whole. MkDocs loads a hook file once per process, so the
state below lasts from one rebuild to the next.
"""

from __future__ import annotations

import json
from pathlib import Path

import jinja2
from mkdocs.plugins import event_priority


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled theme templates, kept in memory between rebuilds.

    MkDocs makes a new Jinja environment for every build, so Material's templates were compiled
    again on each edit: about half of a dirty rebuild. Jinja compares each template's source
    checksum with the cached one, so an edited template is still compiled afresh."""

    def __init__(self):
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


_compiled = _CompiledTemplates()


def on_env(env, config, files):
    env.bytecode_cache = _compiled
    return env


# page URL -> its search entries, as of the last build that rendered that page
_search: dict[str, list[dict]] = {}


@event_priority(-50)  # after Material's search plugin writes the index, before `offline` inlines it (-100)
def on_post_build(config):
    """Make the search index cover every page, not only the ones this build rendered.

    serve.py tells the plugins the build is not dirty, so Material's search writes the entries of
    the pages it rendered and nothing else (in dirty mode it would merge with the previous index
    itself, but keep the old entries of every rebuilt page except the first: duplicates). Merge
    here: the newest entries of each page, for the pages that still exist."""
    path = Path(config.site_dir, "search", "search_index.json")
    if not path.is_file():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    fresh: dict[str, list[dict]] = {}
    for entry in index["docs"]:
        fresh.setdefault(entry["location"].split("#")[0], []).append(entry)
    _search.update(fresh)
    for page in [page for page in _search if not Path(config.site_dir, page).exists()]:
        del _search[page]  # gone with a full build after the navigation changed
    index["docs"] = [entry for entries in _search.values() for entry in entries]
    path.write_text(json.dumps(index, separators=(",", ":"), default=str), encoding="utf-8")
