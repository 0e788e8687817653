"""MkDocs loads hooks by file path, so this file re-exports the serve hook by absolute import."""

from site_build.serve import on_config  # noqa: F401
