"""The wheel carries schemas/ and prompts/ and registers both backends."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_ships_schemas_prompts_and_entry_points(tmp_path):
    pytest.importorskip("setuptools")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "-q", "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    wheel = next(tmp_path.glob("extract-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "extract/schemas/paper.py" in names
    assert "extract/report_assets/report.js" in names and "extract/report_assets/report.css" in names
    assert "extract/prompts/extract.system.txt" in names and "extract/prompts/extract.user.txt" in names
    ep = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(ep).decode()
    assert "[extract.backends]" in text and "local = " in text and "openai = " in text
