"""The benchmark's table: every figure beside its target, printed and written as JSON."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass(frozen=True)
class Figure:
    """One measured figure, its target and whether it meets it (None: no target)."""

    name: str
    value: float
    unit: str
    target: str = ""
    met: bool | None = None


def load() -> str:
    """The machine's load average and core count, which the figures depend on."""
    cores = os.cpu_count() or 1
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return f"{cores} cores"
    return f"{cores} cores, load average {one:.1f} (1 min), {five:.1f} (5 min)"


def table(figures: list[Figure]) -> str:
    """The figures as a Markdown table."""
    rows = ["| figure | value | target | met |", "|---|---:|---|---|"]
    for f in figures:
        met = "" if f.met is None else ("yes" if f.met else "**no**")
        rows.append(f"| {f.name} | {f.value:,.1f} {f.unit} | {f.target} | {met} |")
    return "\n".join(rows)


def write_json(path: Path, figures: list[Figure], machine: str) -> None:
    """Write the figures to ``path`` as JSON."""
    data = {"machine": machine, "figures": [asdict(f) for f in figures]}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
