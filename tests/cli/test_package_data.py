"""Every data file the package reads at run time is shipped in a normal (not editable) install: each file under
kb/ that is not Python source matches one of pyproject.toml's package-data patterns (a file none matches is left
out of the wheel, and the command that reads it fails after `pip install .`: the drop-risk model did)."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]


def test_every_data_file_of_the_package_is_package_data():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]["kb"]
    data = [p.relative_to(ROOT / "kb").as_posix() for p in (ROOT / "kb").rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc", ".mo") and "__pycache__" not in p.parts]
    assert "writing/defect_model.json" in data and any(p.endswith(".po") for p in data)
    missing = [p for p in data if not any(fnmatch.fnmatch(p, pat) for pat in patterns)]
    assert not missing, f"not in [tool.setuptools.package-data] of pyproject.toml: {missing}"
