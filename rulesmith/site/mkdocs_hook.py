"""MkDocs hooks for `rulesmith serve` only (commands/serve.py passes this file; `rulesmith build` does not).

The preview rebuilds "dirty": only the pages whose Markdown changed. This hook keeps such a
rebuild fast. MkDocs loads a hook file once per process, so the state below lasts from one
rebuild to the next. (The search index is written after each build from the whole site, by
`build.finish_site`, so it covers every page, rebuilt or not.)
"""

from __future__ import annotations

import jinja2


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

