"""Translations of a game's content: every reader-visible text at a stable address (english), the
gettext catalogs that hold them per language (catalog), refreshed from the English as `msgmerge`
does (merge), what a translation says of each text and how fresh it is (freshness), and the game
in another language, each text knowing how it stands (translated)."""
