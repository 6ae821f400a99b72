"""Finds the situational inputs of the rulesets' computations that play may never set.

Three kinds of input are looked for in a ruleset's source (read with ``ast``, not imported):

* ``param``: a parameter with a yes/no default (``fortified: bool = False``). It is *set* when
  a production call of that function passes it, by keyword or position, with anything but the
  default literal.
* ``fact``: a key read from a ``**facts`` mapping (``facts.get("cover")``). It is *set* when a
  production call of that function passes it as a keyword, or a production dict literal
  splatted into a call (``**{"cover": covered}``, ``fire = {...}; f(**fire)``) carries it.
* ``status``: a status key the ruleset declares (``Flag("defending_obstacle", ...)``) that is
  not a roster field. It is *set* when production code writes it with a value that is
  not a literal False / "" / 0 / None: a ``set_*`` / ``with_status`` keyword, or a dict or
  subscript inside a function (module-level tables do not count).

Production code is every ``.py`` file under the roots given (the bot's ``rules_core``, ``bot``
and ``cogs``); tests never set anything. An input nothing sets must be a documented GM ruling.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

STATUS_KINDS = ("Flag", "Count", "Level", "Text", "Note")


@dataclass(frozen=True)
class Source:
    """One parsed module: its dotted name and tree."""

    module: str
    tree: ast.Module


@dataclass(frozen=True)
class Input:
    """A situational input: its kind, the function (or "status"), its name and where it is."""

    kind: str  # "param", "fact" or "status"
    function: str
    name: str
    module: str
    default: object = None
    index: int | None = None  # positional index of a param (self excluded), None if kw-only
    method: bool = False

    @property
    def ident(self) -> str:
        """The name a ruling registry uses: ``function.name`` or ``status.key``."""
        return f"{self.function}.{self.name}"


def module_name(path: Path, root: Path) -> str:
    """The dotted module name of a file under a root."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def parse_tree(root: Path, folders: Iterable[str]) -> list[Source]:
    """Every module under some folders of a root, parsed."""
    found = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            found.append(Source(module_name(path, root), ast.parse(path.read_text())))
    return found


def _literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and (
        node.value is None or isinstance(node.value, bool | int | float | str)
    )


def _empty(node: ast.AST) -> bool:
    """A literal that sets nothing: False, "", 0 or None."""
    return isinstance(node, ast.Constant) and not node.value


def _functions(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef, bool]]:
    """Every function of a module, with whether it is a method (defined in a class)."""
    methods = {
        id(item)
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        for item in node.body
        if isinstance(item, ast.FunctionDef)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            yield node, id(node) in methods


def _params(src: Source, fn: ast.FunctionDef, method: bool) -> Iterator[Input]:
    args = fn.args
    positional = args.posonlyargs + args.args
    pairs = list(
        zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
    )
    pairs += [
        (a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
    ]
    for arg, default in pairs:
        # A situation holds or not: a yes/no default. (Other literal defaults are sizes,
        # tolerances and labels of helpers, not situations.)
        if not (isinstance(default, ast.Constant) and isinstance(default.value, bool)):
            continue
        index = positional.index(arg) - int(method) if arg in positional else None
        yield Input("param", fn.name, arg.arg, src.module, default.value, index, method)


def _facts(src: Source, fn: ast.FunctionDef, method: bool) -> Iterator[Input]:
    """Keys read from the function's ``**kwargs`` mapping."""
    if fn.args.kwarg is None:
        return
    name = fn.args.kwarg.arg
    keys: set[str] = set()
    for node in ast.walk(fn):
        key: ast.AST | None = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func
            if isinstance(target.value, ast.Name) and target.value.id == name and node.args:
                key = node.args[0] if target.attr in ("get", "pop") else None
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            key = node.slice if node.value.id == name else None
        elif isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In):
            right = node.comparators[0]
            key = node.left if isinstance(right, ast.Name) and right.id == name else None
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            keys.add(key.value)
    for found in sorted(keys):
        yield Input("fact", fn.name, found, src.module, None, None, method)


def inputs(sources: Iterable[Source], prefix: str) -> list[Input]:
    """Every yes/no parameter and ``**facts`` key of the functions of modules under a prefix."""
    found: list[Input] = []
    for src in _under(sources, prefix):
        for fn, method in _functions(src.tree):
            found.extend(_params(src, fn, method))
            found.extend(_facts(src, fn, method))
    return found


def _aliases(src: Source) -> dict[str, str]:
    """Local name -> the dotted thing it stands for (a module or a module's function)."""
    names: dict[str, str] = {}
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                names[a.asname or a.name.split(".")[0]] = (
                    a.name if a.asname else a.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                names[a.asname or a.name] = f"{node.module}.{a.name}"
    return names


@dataclass(frozen=True)
class Call:
    """A production call: where it is made, the function making it, the call."""

    src: Source
    aliases: Mapping[str, str]
    caller: ast.FunctionDef
    method: bool
    node: ast.Call


@dataclass
class Index:
    """Production code read once: its calls by the name called, the facts splatted into calls."""

    sources: list[Source]
    calls: dict[str, list[Call]]
    spread: dict[str, list[ast.expr]]  # fact key -> values given in splatted dict literals
    writes: Writes

    @classmethod
    def of(cls, sources: list[Source]) -> Index:
        """Index the calls, splatted dicts and status writes of some sources (one pass each)."""
        index = cls(sources, {}, {}, Writes(set(), set()))
        for src in sources:
            index._read(src)
        return index

    def _read(self, src: Source) -> None:
        names = _aliases(src)
        tuples = _string_tuples(src.tree)
        spread: dict[int, set[str]] = {}  # per function: names splatted into its calls
        bound: list[tuple[ast.FunctionDef, ast.expr, ast.expr]] = []  # (fn, target, value)
        splatted: list[ast.expr] = []
        for node, fn, method in _nodes(src.tree):
            self.writes.note(node, fn, tuples)
            if fn is None:
                continue
            if isinstance(node, ast.Call):
                call = Call(src, names, fn, method, node)
                self.calls.setdefault(_called(node.func), []).append(call)
                for kw in node.keywords:
                    if kw.arg is None:
                        splatted.append(kw.value)
                        found = {n.id for n in ast.walk(kw.value) if isinstance(n, ast.Name)}
                        spread.setdefault(id(fn), set()).update(found)
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                bound.extend((fn, t, node.value) for t in targets)
        for fn, target, value in bound:
            if isinstance(target, ast.Name) and target.id in spread.get(id(fn), set()):
                splatted.append(value)
        for d in (sub for v in splatted for sub in ast.walk(v) if isinstance(sub, ast.Dict)):
            for k, v in zip(d.keys, d.values, strict=True):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    self.spread.setdefault(k.value, []).append(v)


def _nodes(
    tree: ast.AST, fn: ast.FunctionDef | None = None, method: bool = False
) -> Iterator[tuple[ast.AST, ast.FunctionDef | None, bool]]:
    """Every node below a tree with the innermost function holding it (and if a method)."""
    for child in ast.iter_child_nodes(tree):
        yield child, fn, method
        if isinstance(child, ast.FunctionDef):
            yield from _nodes(child, child, isinstance(tree, ast.ClassDef))
        else:
            yield from _nodes(child, fn, method)


def _called(f: ast.expr) -> str:
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _calls_of(item: Input, index: Index) -> Iterator[Call]:
    """The production calls that reach an input's function (by import, alias or same module)."""
    wanted = f"{item.module}.{item.function}"
    for call in index.calls.get(item.function, ()):
        f, src = call.node.func, call.src
        if isinstance(f, ast.Name):
            here = src.module == item.module and not item.method
            if here or call.aliases.get(f.id) == wanted:
                yield call
        elif isinstance(f, ast.Attribute):
            base = f.value.id if isinstance(f.value, ast.Name) else ""
            if item.method or call.aliases.get(base) == item.module:
                yield call


def is_set(item: Input, index: Index, seen: frozenset[str] = frozenset()) -> bool:
    """Whether some production call passes a param or fact with something but its default.

    A fact a caller forwards from its own ``**facts`` is set when that caller's fact is.
    """
    for call in _calls_of(item, index):
        if _passes(item, call.node):
            return True
        kwarg = call.caller.args.kwarg
        forwards = kwarg is not None and any(
            kw.arg is None and isinstance(kw.value, ast.Name) and kw.value.id == kwarg.arg
            for kw in call.node.keywords
        )
        if item.kind == "fact" and forwards:
            caller = Input("fact", call.caller.name, item.name, call.src.module, None, None,
                           call.method)  # fmt: skip
            key = f"{caller.module}.{caller.ident}"
            if key not in seen and is_set(caller, index, seen | {key}):
                return True
    if item.kind == "fact":
        return any(not _empty(v) for v in index.spread.get(item.name, ()))
    return False


def _passes(item: Input, call: ast.Call) -> bool:
    """Whether one call passes the input with something but its default (a fact: not empty)."""
    for kw in call.keywords:
        if kw.arg == item.name and not _unset_by(kw.value, item):
            return True
    args = call.args
    if item.index is None or any(isinstance(a, ast.Starred) for a in args):
        return False
    return len(args) > item.index and not _unset_by(args[item.index], item)


def _unset_by(value: ast.AST, item: Input) -> bool:
    if item.kind == "fact":
        return _empty(value)
    return _literal(value) and _same(value, item.default)


def _same(node: ast.AST, default: object) -> bool:
    value = node.value if isinstance(node, ast.Constant) else object()
    return type(value) is type(default) and value == default


def declared_status(sources: Iterable[Source], prefix: str) -> dict[str, str]:
    """Status declarations of modules under a prefix: variable name -> status key."""
    found: dict[str, str] = {}
    for src in _under(sources, prefix):
        for node in src.tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                f = node.value.func
                kind = f.id if isinstance(f, ast.Name) else ""
                first = node.value.args[0] if node.value.args else None
                if kind in STATUS_KINDS and isinstance(first, ast.Constant):
                    for t in node.targets:
                        if isinstance(t, ast.Name):
                            found[t.id] = str(first.value)
    return found


def _under(sources: Iterable[Source], prefix: str) -> Iterator[Source]:
    for src in sources:
        if src.module == prefix or src.module.startswith(prefix + "."):
            yield src


def read_status(sources: Iterable[Source], prefix: str, declared: Mapping[str, str]) -> set[str]:
    """Status keys the modules under a prefix read (``DECL.of(...)``, ``.status.get("key")``)."""
    read: set[str] = set()
    for src in _under(sources, prefix):
        for node in ast.walk(src.tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            f = node.func
            if f.attr == "of" and isinstance(f.value, ast.Name) and f.value.id in declared:
                read.add(declared[f.value.id])
            elif f.attr == "get" and isinstance(f.value, ast.Attribute) and node.args:
                key = node.args[0]
                if f.value.attr == "status" and isinstance(key, ast.Constant):
                    read.add(str(key.value))
    return read


@dataclass
class Writes:
    """What production code writes into a status, read once; keys resolved per ruleset."""

    keys: set[str]  # keywords of calls, dict keys and subscripts in functions, tuples of names
    names: set[str]  # variables whose ``.key`` is taken (a declaration's key, to write)

    def note(
        self, node: ast.AST, fn: ast.FunctionDef | None, tuples: Mapping[str, tuple[str, ...]]
    ) -> None:
        """Note what one node writes.

        A write is a keyword of any call, a dict key or subscript store inside a function, a
        key taken from its declaration (``DECL.key``: reads go through ``DECL.of``), or a dict
        comprehension over a tuple of key names or declarations (a roster's flags copied in,
        ``{flag.key: v for flag, v in ((FOUGHT, a), (WON, b))}``).
        """
        if isinstance(node, ast.Call):
            self.keys |= {kw.arg for kw in node.keywords if kw.arg and not _empty(kw.value)}
        elif isinstance(node, ast.Attribute) and node.attr == "key":
            self.names |= {node.value.id} if isinstance(node.value, ast.Name) else set()
        elif isinstance(node, ast.DictComp):
            for gen in node.generators:
                if isinstance(gen.iter, ast.Name):
                    self.keys |= set(tuples.get(gen.iter.id, ()))
                elif isinstance(gen.iter, ast.Tuple | ast.List):
                    self.names |= {n.id for n in ast.walk(gen.iter) if isinstance(n, ast.Name)}
        elif fn is not None:
            self.keys |= _written_by(node)

    def written(self, declared: Mapping[str, str]) -> set[str]:
        """The status keys written, given a ruleset's declarations (variable -> key)."""
        return self.keys | {declared[n] for n in self.names if n in declared}


def _string_tuples(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """Module-level names bound to a tuple of strings."""
    found: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
            items = [i.value for i in node.value.elts if isinstance(i, ast.Constant)]
            if (
                items
                and len(items) == len(node.value.elts)
                and all(isinstance(i, str) for i in items)
            ):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        found[t.id] = tuple(str(i) for i in items)
    return found


def _written_by(node: ast.AST) -> set[str]:
    """String keys a dict or subscript store (in a function) gets with a value that sets."""
    written: set[str] = set()
    if isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values, strict=True):
            if isinstance(k, ast.Constant) and isinstance(k.value, str) and not _empty(v):
                written.add(k.value)
    elif isinstance(node, ast.Assign) and not _empty(node.value):
        for t in node.targets:
            key = t.slice if isinstance(t, ast.Subscript) else None
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                written.add(key.value)
    return written


def unset(
    index: Index,
    prefix: str,
    roster_fields: Iterable[str] = (),
    status_keys: Iterable[str] | None = None,
) -> list[Input]:
    """Every input of the modules under a prefix that no production code sets.

    Status keys are those the modules read; ``status_keys`` narrows them to the keys the
    ruleset's sheet declares. Roster fields are state, set by the army list.
    """
    sources = index.sources
    missing = [item for item in inputs(sources, prefix) if not is_set(item, index)]
    declared = declared_status(sources, prefix)
    wanted = read_status(sources, prefix, declared)
    if status_keys is not None:
        wanted &= set(status_keys)
    written = index.writes.written(declared) | set(roster_fields)
    for key in sorted(wanted - written):
        missing.append(Input("status", "status", key, prefix))
    return missing
