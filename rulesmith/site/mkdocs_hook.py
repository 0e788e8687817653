"""MkDocs hooks for `rulesmith serve` only (commands/serve.py passes this file; `rulesmith build` does not).

The preview rebuilds "dirty": only the pages whose Markdown changed. This hook keeps such a
rebuild fast. MkDocs loads a hook file once per process, so the state below lasts from one
rebuild to the next. (The search index is written after each build from the whole site, by
`build.finish_site`, so it covers every page, rebuilt or not.)
"""

from __future__ import annotations

from rulesmith.site.engines import COMPILED


def on_env(env, config, files):
    # Material's templates compiled once per process, not on every edit (engines.CompiledTemplates)
    env.bytecode_cache = COMPILED
    return env

