"""Stage 1, load: strict YAML with a file:line:column for every node.

Nothing after this module reads YAML. Content YAML is plain data: anchors, aliases, tags,
duplicate keys, byte-order marks and non-UTF-8 bytes are rejected (aliases also make
"billion laughs" impossible), and files and nesting are bounded so bad input fails fast.
"""

from __future__ import annotations

import os
import re
import stat
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .problems import Problems

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


def read_file(path: Path, problems: Problems, root: Path | None = None) -> SourceFile | None:
    """Parse one content file; on any problem, record it and return None."""
    shown = display_path(path)
    name = str(shown)
    if root is not None and not path.resolve().is_relative_to(root.resolve()):
        problems.add((name, 1, 1), f"symbolic link points outside the content folder ({path.resolve()})",
                     "replace the link with the file itself")
        return None
    try:
        info = path.stat()
    except OSError as error:
        problems.add((name, 1, 1), f"cannot read file: {error.strerror}",
                     "check that the file exists and is readable (a broken symbolic link?)")
        return None
    if not stat.S_ISREG(info.st_mode):
        problems.add((name, 1, 1), "not a regular file", "content files are plain .yaml files")
        return None
    size = info.st_size
    if size > MAX_FILE_BYTES:
        problems.add((name, 1, 1), f"file is {size / 1e6:.1f} MB; content files are limited to "
                     f"{MAX_FILE_BYTES // (1024 * 1024)} MB", "split it into several files")
        return None
    raw = path.read_bytes()
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
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        if loader.first_anchor is not None:
            anchor = loader.first_anchor
            raise yaml.composer.ComposerError(
                None, None, f"YAML anchors (&{anchor.anchor}) and aliases are not allowed in content", anchor.start_mark)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "unreadable YAML"
        context, opened = error.context or "", error.context_mark
        if "quoted scalar" in context and opened is not None:
            mark, problem = opened, f"a quoted string that starts here is never closed: {problem}"
        elif "another document" in problem:
            problem = "a content file holds one YAML document, but '---' starts another"
        elif context.startswith("while parsing a flow") and opened is not None and mark is not None and opened.line != mark.line:
            problem += f", {context.removeprefix('while parsing ')} that opens at line {opened.line + 1}, column {opened.column + 1}"
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        if "aliases" in problem:
            message, hint = problem, "write the value out in full instead of using &anchor / *alias"
        elif "nesting" in problem:
            message, hint = problem, "flatten the structure; content never nests this deep"
        elif "\t" in problem or "tab" in problem or "\t" in _line(text, line)[: max(col, 1)]:
            message, hint = f"YAML syntax error: {problem}", "indent with spaces, not tabs"
        else:
            message, hint = f"YAML syntax error: {problem}", "check quotes, colons and indentation around here"
        problems.add((name, line, col), message, hint)
        return None
    except yaml.YAMLError as error:
        problems.add((name, 1, 1), f"YAML error: {error}", "check the file's YAML syntax")
        return None
    except RecursionError:
        problems.add((name, 1, 1), "YAML nesting is too deep", f"content nests at most {MAX_DEPTH} levels")
        return None
    finally:
        loader.dispose()
    source = SourceFile(path=shown, data={}, lines=text.splitlines())
    before = len(problems)
    data = _convert(node, (), 0, source, loader, problems)
    if len(problems) > before:
        return None
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else "a single value"
        problems.add(source.where(()), f"file holds {kind}; a content file is a mapping of keys",
                     "start with a key such as `entities:` (see `rulesmith format files`)")
        return None
    source.data = data
    _parsed[(name, raw)] = source
    if len(_parsed) > MAX_PARSED:
        _parsed.popitem(last=False)
    return source


_PLAIN_TAGS = {
    "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp",
}


def _convert(node, path, depth, source: SourceFile, loader, problems: Problems):
    """Node tree to plain data, recording positions and rejecting what content must not use."""
    name = str(source.path)
    where = (name, node.start_mark.line + 1, node.start_mark.column + 1)
    source.values[path] = where[1:]
    if depth > MAX_DEPTH:
        problems.add(where, "YAML nesting is too deep", f"content nests at most {MAX_DEPTH} levels")
        return None
    if getattr(node, "anchor", None):
        problems.add(where, "YAML anchors and aliases are not allowed in content",
                     "write the value out in full")
        return None
    if node.tag not in _PLAIN_TAGS:
        problems.add(where, f"YAML tag {node.tag} is not allowed in content",
                     "remove the tag; content is plain strings, numbers, lists and mappings")
        return None
    if isinstance(node, yaml.MappingNode):
        result = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                problems.add((name, key_node.start_mark.line + 1, key_node.start_mark.column + 1),
                             "mapping keys must be plain strings", "write `key: value` with a plain word as key")
                continue
            key = key_node.value
            key_where = (name, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if key in result:
                first = source.keys[path + (key,)]
                problems.add(key_where, f"duplicate key '{key}' (first defined at line {first[0]})",
                             "remove or rename one of them")
                continue
            source.keys[path + (key,)] = key_where[1:]
            result[key] = _convert(value_node, path + (key,), depth + 1, source, loader, problems)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, path + (index,), depth + 1, source, loader, problems)
                for index, item in enumerate(node.value)]
    try:
        return loader.construct_object(node, deep=True)
    except (ValueError, yaml.YAMLError) as error:
        problems.add(where, f"invalid value {node.value!r}: {error}",
                     "quote it if it is meant as text; dates are written YYYY-MM-DD")
        return None




def content_files(folder: Path, problems: Problems) -> list[Path]:
    """Every *.yaml file under a game folder, in sorted (reading) order."""
    files = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames.sort()
        for filename in sorted(filenames):
            if filename.endswith((".yaml", ".yml")):
                files.append(Path(dirpath) / filename)
        for dirname in list(dirnames):
            full = Path(dirpath) / dirname
            if full.is_symlink():
                problems.add((str(display_path(full)), 1, 1), "symbolic link to a folder is not followed",
                             "move the files into content/ instead of linking them")
    return sorted(files)
