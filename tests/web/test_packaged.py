"""The war table's files travel with the package: the Docker image installs it without
``-e`` (``pip install .``), where only package data matching pyproject's patterns is kept."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_static_file_is_package_data() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = project["tool"]["setuptools"]["package-data"]["*"]
    files = sorted((ROOT / "bot" / "web" / "static").iterdir())
    assert files, "the war table serves no static files"
    left_out = [f.name for f in files if not any(fnmatch.fnmatch(f.name, p) for p in patterns)]
    assert not left_out, f"not installed by `pip install .`: {left_out}"
