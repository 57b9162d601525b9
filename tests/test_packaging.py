"""The wheel carries schemas/ and prompts/, registers the backends and the `extract` command
under the distribution name extract-abstracts, and runs from where it is installed."""

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
DIST = PYPROJECT["project"]["name"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    pytest.importorskip("setuptools")
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "-q", "-w", str(out), str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return next(out.glob("*.whl"))


def test_the_distribution_is_not_named_extract():
    """`extract` on the registry is an unrelated 2011 package: the distribution has a name of
    its own; the import package and the command stay `extract`."""
    assert DIST == "extract-abstracts"
    assert PYPROJECT["project"]["scripts"] == {"extract": "extract.cli:entry"}


def test_wheel_ships_schemas_prompts_and_entry_points(wheel):
    assert wheel.name.startswith("extract_abstracts-")
    names = zipfile.ZipFile(wheel).namelist()
    assert "extract/schemas/paper.py" in names
    assert "extract/report_assets/report.js" in names and "extract/report_assets/report.css" in names
    assert "extract/prompts/extract.system.txt" in names and "extract/prompts/extract.user.txt" in names
    ep = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(ep).decode()
    assert "[extract.backends]" in text and "local = " in text and "openai = " in text
    assert "[console_scripts]" in text and "extract = extract.cli:entry" in text
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert f"Name: {DIST}\n" in meta
    for extra in PYPROJECT["project"]["optional-dependencies"]:
        assert f"Provides-Extra: {extra}\n" in meta


def test_the_installed_wheel_runs_the_default_on_the_seeds(wheel, tmp_path):
    """Installed from the wheel (dependencies as this environment has them), `extract`
    runs from the installed copy, away from the source tree."""
    target = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-compile", "-q",
                           "--target", str(target), str(wheel)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    env = {**os.environ, "PYTHONPATH": str(target), "EXTRACT_CACHE_DIR": str(tmp_path / "cache")}
    where = subprocess.run([sys.executable, "-c", "import extract, extract.schemas.paper as p; "
                            "print(extract.__file__); print(p.__file__)"],
                           capture_output=True, text=True, env=env, cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(target)) for line in where.stdout.split()), where.stdout
    seed = tmp_path / "one.txt"
    seed.write_text("We propose FlowNet, which improves accuracy by 12.5% on ImageNet.\n")
    run = subprocess.run([str(target / "bin" / "extract"), "run", str(seed), "-q"],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["status"] == "ok" and record["extraction"]["datasets"][0]["text"] == "ImageNet"


def test_readme_install_lines_name_this_distribution(wheel):
    """Every `pip install` of this project in the README names what pyproject builds: `.` or
    `.[extra]` in a clone, the built wheel's file name, or the registry name with an extra
    that exists; never the unrelated `extract`."""
    import fnmatch
    import re

    readme = (ROOT / "README.md").read_text()
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    lines = re.findall(r"`pip\s+install\s+([^`]+)`", readme)
    ours = [a.strip("'\"") for line in lines for a in line.split()
            if not a.startswith("-") and re.match(r"['\"]?(\.|dist/|extract)", a)]
    assert any(a == "." for a in ours) and any(a.startswith("dist/") for a in ours)
    for arg in ours:
        m = re.fullmatch(r"(\.|dist/(\S+?\.whl)|extract-abstracts)(?:\[(\w+)\])?", arg)
        assert m, f"README: pip install {arg}: not this project's distribution"
        if m.group(2):
            assert fnmatch.fnmatch(wheel.name, m.group(2)), (m.group(2), wheel.name)
        if m.group(3):
            assert m.group(3) in extras, arg
