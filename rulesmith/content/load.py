"""Stage 1, load: strict YAML with a file:line:column for every node.

Nothing after this module reads YAML. Content YAML is plain data: anchors, aliases, tags,
duplicate keys, byte-order marks and non-UTF-8 bytes are rejected (aliases also make
"billion laughs" impossible), and files and nesting are bounded so bad input fails fast.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import re
import stat
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from rulesmith.format.topics import see
from rulesmith.problems import Problems

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 40
SCHEMA_LINE = "# yaml-language-server: $schema="

Path_ = tuple  # a path into the data: keys and list indexes


@dataclass
class SourceFile:
    """One parsed YAML file: the data and where each node of it stands."""

    path: Path  # as shown in messages (relative to the working directory when possible)
    data: dict
    lines: list[str]
    values: dict[Path_, tuple[int, int]] = field(default_factory=dict)  # path -> value line, col
    keys: dict[Path_, tuple[int, int]] = field(default_factory=dict)  # path -> key line, col

    def where(self, path: Path_ = (), key: bool = False) -> tuple[str, int, int]:
        """file, line, column of the node at `path` (or of its key), else of its nearest parent."""
        path = tuple(path)
        while True:
            table = self.keys if key and path in self.keys else self.values
            if path in table:
                line, col = table[path]
                return (str(self.path), line, col)
            if not path:
                return (str(self.path), 1, 1)
            path = path[:-1]

    def find_text(self, path: Path_, needle: str) -> tuple[str, int, int]:
        """Where `needle` occurs inside the scalar at `path` (for references in text)."""
        file, line, col = self.where(path)
        for number in range(line, len(self.lines) + 1):
            text = self.lines[number - 1]
            start = col - 1 if number == line else 0
            found = text.find(needle, start)
            if found >= 0:
                return (file, number, found + 1)
        return (file, line, col)


_Parser: type | None
try:  # libyaml's parser is ~10x faster; PyYAML's Python composer stays, so we see every node
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _Parser = None


class Yaml12Resolver(yaml.resolver.BaseResolver):
    """Plain scalars read as YAML 1.2 reads them (the core schema), as editors and
    yaml-language-server do: `Yes`, `no`, `on`, `off` are text, not booleans; `010` is text, not
    octal 8. Dates (YYYY-MM-DD) stay dates, as the errata records need."""


for _tag, _pattern, _first in (
        ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
        ("int", r"^[-+]?(?:0|[1-9][0-9]*)$", "-+0123456789"),
        ("float", r"^[-+]?(?:\.[0-9]+|(?:0|[1-9][0-9]*)(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$|^[-+]?\.(?:inf|Inf|INF)$"
                  r"|^\.(?:nan|NaN|NAN)$", "-+0123456789."),
        ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
        ("timestamp", r"^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?$", "0123456789")):
    Yaml12Resolver.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_pattern), list(_first))


class _StrictLoader(yaml.composer.Composer, yaml.constructor.SafeConstructor, Yaml12Resolver):
    """Events from libyaml (or PyYAML's parser), composed here so aliases and deep nesting are
    refused before anything is expanded; SafeConstructor for plain scalars only."""

    depth_guard = 0  # nesting of the node being composed
    first_anchor: yaml.NodeEvent | None = None  # the first event with an anchor, refused once the file is composed

    def __init__(self, text: str):
        if _Parser is not None:
            self._events = _Parser(text)
        else:
            self._events = yaml.SafeLoader(text)
        yaml.composer.Composer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        Yaml12Resolver.__init__(self)
        # The composer asks for every event several times: call the parser's methods directly.
        self.check_event = self._events.check_event
        self.peek_event = self._events.peek_event
        self.get_event = self._events.get_event

    def dispose(self):
        self._events.dispose()

    def compose_node(self, parent, index):
        # Refuse aliases before they are expanded: no shared nodes, no "billion laughs".
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, "YAML aliases (*name) are not allowed in content", event.start_mark)
        if self.first_anchor is None and getattr(self.peek_event(), "anchor", None):
            self.first_anchor = self.peek_event()  # refused once the file is composed (an alias first)
        if self.depth_guard > MAX_DEPTH:
            raise yaml.composer.ComposerError(
                None, None, f"YAML nesting is deeper than {MAX_DEPTH} levels", self.peek_event().start_mark)
        self.depth_guard += 1
        try:
            return yaml.composer.Composer.compose_node(self, parent, index)
        finally:
            self.depth_guard -= 1


def read_scalar_text(text: str):
    """A short YAML text read as content files are read (YAML 1.2 scalars, strict composer)."""
    loader = _StrictLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def _line(text: str, number: int) -> str:
    lines = text.splitlines()
    return lines[number - 1] if 0 < number <= len(lines) else ""


def display_path(path: Path) -> Path:
    # The path as the user knows it: symbolic links are named, not followed.
    try:
        return Path(os.path.abspath(path)).relative_to(Path.cwd())
    except ValueError:
        return path


# Files parsed without problems, by (name shown, bytes): `rulesmith serve` checks all content on
# every save, and most files have not changed. The newest MAX_PARSED are kept.
_parsed: OrderedDict[tuple[str, bytes], SourceFile] = OrderedDict()
MAX_PARSED = 512


UNREADABLE = "check that it exists and that you may read it: a broken symbolic link, or its permissions?"


def read_file(path: Path, problems: Problems, root: Path | None = None, data: bytes | None = None,
              what: str = "content") -> SourceFile | None:
    """Parse one content file; on any problem, record it and return None. `data`: the file's
    bytes as a command is about to write them (errata add checks them before writing). `what`:
    the file's name in messages when it is not content (read_settings: the same strict reading)."""
    a_file = "a content file" if what == "content" else what
    shown = display_path(path)
    name = str(shown)
    if root is not None and not path.resolve().is_relative_to(root.resolve()):
        problems.add((name, 1, 1), f"symbolic link points outside the content folder ({path.resolve()})",
                     "replace the link with the file itself")
        return None
    if data is None:
        try:
            info = path.stat()
        except OSError as error:
            problems.add((name, 1, 1), f"cannot read file: {error.strerror}", UNREADABLE)
            return None
        if not stat.S_ISREG(info.st_mode):
            problems.add((name, 1, 1), "not a regular file", "content files are plain .yaml files")
            return None
    size = info.st_size if data is None else len(data)
    if size > MAX_FILE_BYTES:
        problems.add((name, 1, 1), f"file is {size / 1e6:.1f} MB; content files are limited to "
                     f"{MAX_FILE_BYTES // (1024 * 1024)} MB", "split it into several files")
        return None
    try:
        raw = path.read_bytes() if data is None else data
    except OSError as error:  # a file you may not read (chmod 000), or one gone since
        problems.add((name, 1, 1), f"cannot read file: {error.strerror}", UNREADABLE)
        return None
    if (name, raw) in _parsed:
        _parsed.move_to_end((name, raw))
        return _parsed[(name, raw)]
    if raw.startswith(b"\xef\xbb\xbf"):
        problems.add((name, 1, 1), "file starts with a byte-order mark (BOM)",
                     "save the file as UTF-8 without BOM")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        col = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        problems.add((name, line, col), f"byte 0x{raw[error.start]:02x} is not valid UTF-8",
                     "save the file as UTF-8")
        return None
    if not text.strip() or all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()):
        problems.add((name, 1, 1), "file is empty", "add content or delete the file")
        return None
    source = SourceFile(path=shown, data={}, lines=text.splitlines())
    found = Problems()  # what the content must not use; only told if the YAML itself reads
    loader = _StrictLoader(text)
    try:
        data = _EventReader(loader, source, found, what).document()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "unreadable YAML"
        context, opened = error.context or "", error.context_mark
        if "quoted scalar" in context and opened is not None:
            mark, problem = opened, f"a quoted string that starts here is never closed: {problem}"
        elif "another document" in problem:
            problem = f"{a_file} holds one YAML document, but '---' starts another"
        elif context.startswith("while parsing a flow") and opened is not None and mark is not None and opened.line != mark.line:
            problem += f", {context.removeprefix('while parsing ')} that opens at line {opened.line + 1}, column {opened.column + 1}"
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        if "aliases" in problem:
            message, hint = problem, "write the value out in full instead of using &anchor / *alias"
        elif "nesting" in problem:
            message, hint = problem, f"flatten the structure; {what} never nests this deep"
        elif "\t" in problem or "tab" in problem or "\t" in _line(text, line)[: max(col, 1)]:
            message, hint = f"YAML syntax error: {problem}", "indent with spaces, not tabs"
        else:
            message, hint = f"YAML syntax error: {problem}", "check quotes, colons and indentation around here"
        problems.add((name, line, col), message, hint)
        return None
    except yaml.YAMLError as error:
        problems.add((name, 1, 1), f"YAML error: {error}", "check the file's YAML syntax")
        return None
    finally:
        loader.dispose()
    if found:
        problems.items.extend(found.items)
        return None
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else "a single value"
        problems.add(source.where(()), f"file holds {kind}; {a_file} is a mapping of keys",
                     "start with a key such as `entities:` (" + see("files") + ")")
        return None
    source.data = data
    _parsed[(name, raw)] = source
    if len(_parsed) > MAX_PARSED:
        _parsed.popitem(last=False)
    return source



def read_settings(path: Path, problems: Problems, what: str) -> SourceFile | None:
    """A settings file the tool reads besides content (a project's mkdocs.yml, the package's
    templates/pdf/aids.yaml), read as strictly as content: one YAML document of plain data, no
    anchors, aliases or tags, nesting and size bounded, every problem located. An empty file is
    an empty mapping (a project may keep an mkdocs.yml that sets nothing)."""
    try:
        raw = path.read_bytes()
    except OSError:
        raw = None  # said, located, by read_file
    if raw is not None and not any(line.strip() and not line.lstrip().startswith(b"#") for line in raw.splitlines()):
        return SourceFile(path=display_path(path), data={}, lines=[])
    source = read_file(path, problems, what=what)
    if source is None:
        return None
    # The parsed file is kept for the next read of the same bytes: the caller gets data of its own
    # to change (the package's mkdocs.yml has a project's settings laid over it).
    return dataclasses.replace(source, data=copy.deepcopy(source.data))


_PLAIN_TAGS = {
    "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp",
}


_STR = "tag:yaml.org,2002:str"


class _EventReader:
    """libyaml's events straight to plain data, in one pass: each value's and key's line and
    column recorded as it is read, and what content must not use refused (anchors, aliases,
    tags, nesting deeper than MAX_DEPTH, keys that are not plain scalars, duplicate keys).

    This is what composing a node tree and then converting it did, without the tree (most of
    the load's time went into building it). Syntax errors and aliases stop the reading
    (MarkedYAMLError, as the composer raised them); the rest are told once the file has read."""

    def __init__(self, loader: _StrictLoader, source: SourceFile, problems: Problems, what: str = "content"):
        self.what = what
        self.get_event, self.peek_event = loader.get_event, loader.peek_event
        self.loader, self.source, self.problems = loader, source, problems
        self.name = str(source.path)
        self.first_anchor: yaml.NodeEvent | None = None
        self.constructors = loader.yaml_constructors

    def document(self):
        get = self.get_event
        get()  # StreamStart
        if isinstance(self.peek_event(), yaml.StreamEndEvent):
            return None
        get()  # DocumentStart
        data = self.node((), 0, True)
        get()  # DocumentEnd
        if not isinstance(self.peek_event(), yaml.StreamEndEvent):
            event = get()
            raise yaml.composer.ComposerError("expected a single document in the stream", None,
                                              "but found another document", event.start_mark)
        if self.first_anchor is not None:
            raise yaml.composer.ComposerError(
                None, None, f"YAML anchors (&{self.first_anchor.anchor}) and aliases are not allowed in {self.what}",
                self.first_anchor.start_mark)
        return data

    def _where(self, event) -> tuple[str, int, int]:
        return (self.name, event.start_mark.line + 1, event.start_mark.column + 1)

    def node(self, path: tuple, depth: int, told: bool):
        """The value whose first event is next; `told`: its problems count (not inside a key
        that was refused, nor the value of one, as before)."""
        event = self.get_event()
        kind = type(event)
        if kind is yaml.AliasEvent:
            raise yaml.composer.ComposerError(None, None, f"YAML aliases (*name) are not allowed in {self.what}",
                                              event.start_mark)
        if depth > MAX_DEPTH:
            raise yaml.composer.ComposerError(None, None, f"YAML nesting is deeper than {MAX_DEPTH} levels",
                                              event.start_mark)
        if event.anchor is not None and self.first_anchor is None:
            self.first_anchor = event  # refused once the file is read (an alias first)
        mark = event.start_mark
        line_col = (mark.line + 1, mark.column + 1)
        if told:
            self.source.values[path] = line_col
        tag = event.tag
        if kind is yaml.ScalarEvent:
            if tag is None and told and event.implicit == (False, True) and event.anchor is None:
                return event.value  # a quoted string: the commonest value, nothing to resolve
            if tag is None or tag == "!":
                tag = self.loader.resolve(yaml.ScalarNode, event.value, event.implicit)
        elif tag is None or tag == "!":
            tag = self.loader.resolve(yaml.MappingNode if kind is yaml.MappingStartEvent else yaml.SequenceNode,
                                      None, event.implicit)
        where = (self.name, *line_col)
        refused = None
        if event.anchor:
            refused = (f"YAML anchors and aliases are not allowed in {self.what}", "write the value out in full")
        elif tag not in _PLAIN_TAGS:
            refused = (f"YAML tag {tag} is not allowed in {self.what}",
                       f"remove the tag; {self.what} is plain strings, numbers, lists and mappings")
        if refused and told:
            self.problems.add(where, *refused)
        told = told and refused is None
        if kind is yaml.ScalarEvent:
            if not told:
                return None
            if tag == _STR:
                return event.value
            node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
            try:
                return self.constructors[tag](self.loader, node)
            except (ValueError, yaml.YAMLError) as error:
                shown = event.value if len(event.value) <= 40 else event.value[:39] + "…"
                self.problems.add(where, f"invalid value {shown!r}: {error}",
                                  "quote it if it is meant as text; dates are written YYYY-MM-DD")
                return None
        if kind is yaml.SequenceStartEvent:
            items: list = []
            while type(self.peek_event()) is not yaml.SequenceEndEvent:
                items.append(self.node(path + (len(items),), depth + 1, told))
            self.get_event()
            return items if told else None
        result: dict = {}
        keys = self.source.keys
        while type(self.peek_event()) is not yaml.MappingEndEvent:
            key_event = self.peek_event()
            if type(key_event) is not yaml.ScalarEvent:
                self.node(path + (None,), depth + 1, False)  # read, not kept
                if told:
                    self.problems.add(self._where(key_event), "mapping keys must be plain strings",
                                      "write `key: value` with a plain word as key")
                self.node(path + (None,), depth + 1, False)
                continue
            self.get_event()
            if depth + 1 > MAX_DEPTH:
                raise yaml.composer.ComposerError(None, None, f"YAML nesting is deeper than {MAX_DEPTH} levels",
                                                  key_event.start_mark)
            if key_event.anchor is not None and self.first_anchor is None:
                self.first_anchor = key_event
            key = key_event.value
            key_where = self._where(key_event)
            if key in result:
                if told:
                    first = keys[path + (key,)]
                    self.problems.add(key_where, f"duplicate key '{key}' (first defined at line {first[0]})",
                                      "remove or rename one of them")
                self.node(path + (key,) + (None,), depth + 1, False)
                continue
            if told:
                keys[path + (key,)] = key_where[1:]
            result[key] = self.node(path + (key,), depth + 1, told)
        self.get_event()
        return result if told else None




def content_files(folder: Path, problems: Problems) -> tuple[list[Path], list[Path]]:
    """Every *.yaml file under a game folder, in sorted (reading) order, and the folders under it
    that could not be read (each a problem: never passed over in silence)."""
    files, unreadable = [], []

    def cannot_read(error: OSError) -> None:
        where = Path(error.filename) if error.filename else folder
        unreadable.append(where)
        problems.add((str(display_path(where)), 1, 1), f"cannot read folder: {error.strerror}", UNREADABLE)

    for dirpath, dirnames, filenames in os.walk(folder, onerror=cannot_read, followlinks=False):
        dirnames.sort()
        for filename in sorted(filenames):
            if filename.endswith((".yaml", ".yml")):
                files.append(Path(dirpath) / filename)
        for dirname in list(dirnames):
            full = Path(dirpath) / dirname
            if os.path.islink(full):
                problems.add((str(display_path(full)), 1, 1), "symbolic link to a folder is not followed",
                             "move the files into content/ instead of linking them")
    return sorted(files), unreadable
