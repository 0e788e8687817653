"""The topics of the content format reference, by name: the one vocabulary every hint points at.

A leaf: it imports nothing of Rulesmith's, so the lowest module may ask it. The reference itself
(format/reference.py) writes one section per topic, in this order; a test proves the two agree.
"""

from __future__ import annotations

TOPICS = ("files", "references", "status", "game", "modules", "kinds", "defaults", "sections", "entities",
          "tables", "procedures", "examples", "glossary", "gaps", "errata", "rulings", "source_map", "icons", "aids", "bot",
          "translations")
# Other names a contributor may try for a topic.
ALIASES = {"source-map": "source_map", "terms": "glossary", "game.yaml": "game", "aid": "aids",
           "field-types": "kinds", "expressions": "examples", "ids": "references", "fidelity": "status",
           "translation": "translations", "ruling": "rulings", "faq": "rulings", "aid-plans": "aids",
           "automa": "bot", "solo": "bot", "po": "translations", "catalogs": "translations"}


def see(topic: str) -> str:
    """A hint's pointer to one topic of the format reference."""
    if topic not in TOPICS:
        raise KeyError(topic)  # a hint must name a real topic
    return f"see `rulesmith format {topic}`"


def topic_of_key(key: object) -> str:
    """The topic of a content file's top-level key (where a problem was found), else 'files'."""
    return str(key) if key in TOPICS and key not in ("files", "references", "status") else "files"
