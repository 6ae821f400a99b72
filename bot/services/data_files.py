"""Reading user-supplied JSON and YAML with bounded size: no aliases, shallow, short numbers."""

from __future__ import annotations

import json
import math
from typing import Any

import yaml

from bot.errors import InvalidInput

MAX_DEPTH = 32
MAX_NODES = 20_000
MAX_NUMBER_CHARS = 24
MAX_NAME_IN_MESSAGE = 80


def shown_name(filename: str) -> str:
    """The file's name as it may appear in a reply: cut to a readable length."""
    name = " ".join(filename.split()).replace("`", "'")
    return name if len(name) <= MAX_NAME_IN_MESSAGE else name[: MAX_NAME_IN_MESSAGE - 1] + "…"


def load_json(text: str, filename: str) -> object:
    """Parse JSON after checking nesting depth; numbers must be short and finite."""
    _check_json_depth(text, filename)
    try:
        value = json.loads(
            text,
            parse_int=lambda s: _number(s, int, filename),
            parse_float=lambda s: _number(s, float, filename),
            parse_constant=lambda s: _not_finite(s, filename),
        )
    except json.JSONDecodeError as error:
        raise InvalidInput(
            f"`{shown_name(filename)}` is not valid JSON: "
            f"line {error.lineno}, column {error.colno}: {error.msg}."
        ) from None
    _check_size(value, filename)
    return value


def load_yaml(text: str, filename: str) -> object:
    """Parse YAML with a loader that refuses anchors and aliases and limits depth."""
    try:
        value = _load_bounded(text, filename)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}:" if mark else ""
        problem = getattr(error, "problem", None) or getattr(error, "reason", None)
        name = shown_name(filename)
        raise InvalidInput(
            f"`{name}` is not valid YAML:{where} {problem or 'unreadable'}."
        ) from None
    _check_size(value, filename)
    return value


def _load_bounded(text: str, filename: str) -> object:
    """One YAML document through the bounded loader (which reads the text as it is built)."""
    loader = _BoundedLoader(text, filename)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def _number(text: str, kind: type[int] | type[float], filename: str) -> int | float:
    """One number of a file, refused when too long to be a real value or not finite."""
    if len(text) > MAX_NUMBER_CHARS:
        raise InvalidInput(
            f"`{shown_name(filename)}` has a number of {len(text)} characters; "
            f"at most {MAX_NUMBER_CHARS}."
        )
    value = kind(text)
    if isinstance(value, float) and not math.isfinite(value):
        _not_finite(text, filename)
    return value


def _not_finite(text: str, filename: str) -> float:
    """Refuse NaN and infinities in a file."""
    raise InvalidInput(f"`{shown_name(filename)}` contains `{text[:12]}`; numbers must be finite.")


def _too_deep(filename: str) -> InvalidInput:
    """The refusal for nesting past MAX_DEPTH."""
    return InvalidInput(
        f"`{shown_name(filename)}` is nested too deeply: at most {MAX_DEPTH} levels."
    )


def _check_json_depth(text: str, filename: str) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH before the recursive parser sees it."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise _too_deep(filename)
        elif char in "]}":
            depth -= 1


def _check_size(value: object, filename: str) -> None:
    """Refuse a document with more than MAX_NODES values or deeper than MAX_DEPTH."""
    count = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise InvalidInput(
                f"`{shown_name(filename)}` has too many entries: at most {MAX_NODES}."
            )
        if depth > MAX_DEPTH:
            raise _too_deep(filename)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, float) and not math.isfinite(item):
            _not_finite(str(item), filename)


class _BoundedLoader(yaml.SafeLoader):
    """A safe YAML loader without anchors or aliases, with bounded depth and numbers."""

    def __init__(self, text: str, filename: str) -> None:
        super().__init__(text)
        self.filename = filename
        self.depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        """Refuse aliases and anchors (they multiply size); count nesting as nodes open."""
        if self.check_event(yaml.AliasEvent):
            raise self._no_alias()
        # types-PyYAML leaves Parser.peek_event unannotated (stub gap).
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if getattr(event, "anchor", None) is not None:
            raise self._no_alias()
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _too_deep(self.filename)
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def _no_alias(self) -> InvalidInput:
        """The refusal for anchors and aliases."""
        return InvalidInput(
            f"`{shown_name(self.filename)}` uses YAML anchors or aliases (`&`, `*`); "
            "write each unit out in full."
        )

    def construct_yaml_int(self, node: Any) -> Any:
        """An integer, refused when too long."""
        if len(str(node.value)) > MAX_NUMBER_CHARS:
            _number(str(node.value), int, self.filename)
        return super().construct_yaml_int(node)

    def construct_yaml_float(self, node: Any) -> Any:
        """A float, refused when too long or not finite."""
        if len(str(node.value)) > MAX_NUMBER_CHARS:
            _number(str(node.value), float, self.filename)
        value = super().construct_yaml_float(node)
        if not math.isfinite(value):
            _not_finite(str(node.value), self.filename)
        return value


_BoundedLoader.add_constructor("tag:yaml.org,2002:int", _BoundedLoader.construct_yaml_int)
_BoundedLoader.add_constructor("tag:yaml.org,2002:float", _BoundedLoader.construct_yaml_float)
