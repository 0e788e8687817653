"""How faithful a value or an item is to the rulebook: the one table of statuses.

Each status owns its id (as content writes it), what it means (the format reference), its label
(a warning's title, a legend), its short label (a marker in a table cell), the mark the printed
aids show, whether content must say why (a note) and whether readers are sent to the printed
source. The model's list of statuses, the check, the site, the aids, their templates and the
format reference ask this table; a new status is one row here.
"""

from __future__ import annotations

from dataclasses import dataclass

VERIFIED = "verified"
NOTE_HINT = "add note: '…' saying why"


def N_(text: str) -> str:
    """A word readers see, marked for the tool's catalog (rulesmith/words.py) and translated where it is shown."""
    return text


@dataclass(frozen=True)
class Status:
    id: str
    meaning: str  # its line in the format reference ({label}: its label)
    label: str = ""  # what readers see where a marker stands alone, and in legends
    short: str = ""  # what readers see in a table cell
    mark: str = ""  # the one character the printed aids show (their legend explains it)
    needs_note: bool = True  # content says why, in a note
    check_source: bool = True  # readers are told to check the printed card or rulebook (not where it says two things)
    says_itself: bool = False  # a gap of this status is named by its label before its title ("Our reading: …")

    @property
    def doubtful(self) -> bool:
        """Not as the source gives it plainly: readers see a marker."""
        return self.id != VERIFIED


TABLE: dict[str, Status] = {s.id: s for s in (
    Status(VERIFIED, "as the source gives it (the default).", needs_note=False),
    Status("unverified", "in the source but doubtful (garbled, breaks an evident pattern); kept as printed.",
           N_("Unverified"), N_("unverified"), "!"),
    Status("missing", 'the source does not give it (e.g. "not reproduced"); readers see *{label}: check the '
           "printed card*.", N_("Not in the source"), N_("not in source"), "?"),
    Status("reconstructed", "filled in from displaced text; the note gives the reason.",
           N_("Reconstructed"), N_("reconstructed"), "r"),
    Status("contradictory", "the source says two different things; give both in the text.",
           N_("Contradictory in the source"), N_("contradictory"), "≠", check_source=False),
    Status("reading", "the source is silent and this is our reading of it (an order, a single pass, a game length, "
           "what a term covers); the note gives the reason, and readers see *{label}*.",
           N_("Our reading"), N_("our reading"), "~", check_source=False, says_itself=True),
)}
IDS = tuple(TABLE)
# The statuses readers see a marker for, in the order legends and the format reference list them.
MARKED = ("missing", "unverified", "reconstructed", "contradictory", "reading")


def of(status_id: str) -> Status:
    """The status of this id (content's statuses are checked when read: a KeyError is our bug)."""
    return TABLE[status_id]


def doubtful(status_id: str) -> bool:
    return of(status_id).doubtful


def note_problem(status_id: str, note: str | None) -> str | None:
    """Why an item or value of this status needs a note it lacks, or None."""
    if of(status_id).needs_note and not note:
        return f"status '{status_id}' needs a note saying what is missing or doubtful and why"
    return None


def _same(text: str) -> str:
    return text


def gap_label(status_id: str, title: str, say=_same) -> str:
    """How a gap of this status is named where a reader meets it: its title, after the status's
    label where the status says itself ("Our reading: one pass over the grid")."""
    found = of(status_id)
    if not found.says_itself or title.lower().startswith(say(found.label).lower()):
        return title
    return f"{say(found.label)}: {title}"


def gap_word(status_id: str, say=_same) -> str:
    """What a gap's mark says to a screen reader: what kind of place it is (`say`: in the
    reader's language, rulesmith/words.py)."""
    return say(of(status_id).label if of(status_id).says_itself else N_("Gap in the source"))


def marked() -> list[Status]:
    """The statuses readers see a marker for, in the order legends list them."""
    return [of(status_id) for status_id in MARKED]


def reference() -> str:
    """The statuses' part of the format reference."""
    return "\n".join(f"- `{s.id}`: {s.meaning.format(label=s.label)}" for s in marked())
