"""`rulesmith new <game-id>`: a small game to start from, that checks and builds.

The game is the package's `templates/new/` folder with its id and name filled in: a kind with
fields, rules sections with references and an icon, tables with a rule, a solo bot (its state, a
deck, its turn, a labelled procedure that reads a table by the state, draws, counts and calls
another), a worked example, a term, a gap, an erratum, a ruling, aid plans (the solo rules in a
module of their own, on the solo aid) and a source map to a placeholder rulebook text
(`sources/`), each part with a comment naming its topic of the format reference
(`rulesmith format <topic>`). Nothing is
overwritten, and nothing is left half-written: the files are written into a temporary folder
beside the game's and moved into place at once.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import tempfile
from pathlib import Path

from rulesmith.content import model
from rulesmith.problems import UsageError
from rulesmith.project import Project, site_name_hint, site_name_problem, templates
from rulesmith.values import ids

PLACEHOLDER = re.compile(r"\bGAME_(ID|NAME|RULEBOOK)\b")


def skeleton() -> Path:
    return templates() / "new"


def _fill(text: str, game_id: str, name: str, *, yaml: bool = False) -> str:
    """The skeleton's placeholders filled in, in one pass. The id (lower-case kebab-case) is the
    same in any context; in YAML, the name and the rulebook's title stand as whole values and go
    in as quoted YAML strings (JSON's, which YAML reads), so a colon or a # in a name stays text."""
    values = {"ID": game_id, "NAME": name, "RULEBOOK": f"{name} Rulebook"}
    return PLACEHOLDER.sub(lambda m: values[m.group(1)] if m.group(1) == "ID" or not yaml
                           else json.dumps(values[m.group(1)], ensure_ascii=False), text)


def files(game_id: str, name: str) -> dict[str, str]:
    """The new game's files, by path relative to the project, with the id and name filled in."""
    found = {}
    for path in sorted(p for p in skeleton().rglob("*") if p.is_file() and p.suffix in (".yaml", ".txt")):
        rel = _fill(path.relative_to(skeleton()).as_posix(), game_id, name)
        found[rel] = _fill(path.read_text(encoding="utf-8"), game_id, name, yaml=path.suffix == ".yaml")
    return found


def default_name(game_id: str) -> str:
    return " ".join(word.capitalize() for word in game_id.split("-"))


def new_game(project: Project, game_id: str, name: str | None = None) -> list[str]:
    """Write content/<game-id>/ and its placeholder rulebook text; return what to tell the user."""
    if problem := ids.GAME_ID.problem(game_id):
        suggestion = re.sub(r"[^a-z0-9]+", "-", game_id.lower()).strip("-")[:ids.MAX_LENGTH].rstrip("-")
        raise UsageError(f"'{game_id}' is not a game id: it {problem}",
                         f"{ids.GAME_ID.plural} are {ids.GAME_ID.rule}, e.g. {suggestion or ids.GAME_ID.example}")
    if problem := site_name_problem(game_id):
        raise UsageError(problem, site_name_hint(game_id))
    name = name or default_name(game_id)
    problem = model.plain_text_problem(name) or ("a name is one line" if "\n" in name or '"' in name else None)
    if problem:
        raise UsageError(f"the name {name!r} cannot be used: {problem}", "give --name a plain name")
    wanted = files(game_id, name)
    root = project.root
    taken = [rel for rel in wanted if (root / rel).exists()]
    game_folder = project.content / game_id
    if game_folder.exists():
        raise UsageError(f"{game_folder} already exists", "choose another game id, or remove that folder")
    if taken:
        raise UsageError(f"{root / taken[0]} already exists", "move it away, or choose another game id")
    try:
        project.content.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".new-{game_id}-", dir=root))
    except OSError as error:
        raise UsageError(f"cannot write in {root}: {error.strerror}", "run it in a folder you can write to") from None
    try:
        for rel, text in wanted.items():
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        moved = []
        for top in sorted({Path(rel).parts[0] for rel in wanted}):
            if top == "content":
                (staging / "content" / game_id).rename(game_folder)
                moved.append(game_folder)
            else:  # sources/: merged into the project's own folder of that name
                for path in sorted((staging / top).rglob("*")):
                    if path.is_file():
                        target = root / path.relative_to(staging)
                        target.parent.mkdir(parents=True, exist_ok=True)
                        path.rename(target)
                        moved.append(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    _write_schema(project)
    written = sorted(rel for rel in wanted)
    return ([f"wrote {rel}" for rel in written]
            + ["next: `rulesmith check`, then `rulesmith build` (the site in site/); replace the placeholder "
               "game with yours part by part: each file's comments name its topic of `rulesmith format`. The "
               "site is named after your game when it is the project's only one (set `site_name:` in a "
               "mkdocs.yml beside content/ to name it yourself)."])


def _write_schema(project: Project) -> None:
    """The editor schema the new files' `$schema` lines point to (of what loads; never fatal)."""
    from rulesmith.content.game import load_games
    from rulesmith.format.schema import write_schema
    from rulesmith.problems import Problems

    with contextlib.suppress(OSError):  # `rulesmith build` and `rulesmith schema` write it too
        write_schema(project.shared_schema, load_games(project.content, Problems()))


# ---------------------------------------------------------------- the command line

def configure(parser) -> None:
    parser.add_argument("game_id", metavar="game-id", help="the new game's id, lower-case kebab-case: my-game")
    parser.add_argument("--name", help="the game's name (default: from the id, My Game)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from rulesmith.problems import RESULTS

    for line in new_game(args.project, args.game_id, args.name):
        RESULTS.info("%s\n", line)
    return 0
