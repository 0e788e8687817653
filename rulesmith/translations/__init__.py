"""Translations of a game's content: every reader-visible text at a stable address (english), the
gettext catalogs that hold them per language (catalog), refreshed from the English as `msgmerge`
does (merge), and what a translation says of each text and how fresh it is (freshness)."""
