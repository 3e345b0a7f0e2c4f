"""JupyterLab, where the README sends readers to explore, renders the book's MyST."""

from __future__ import annotations

import re
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

REQUIREMENTS = Path(__file__).resolve().parents[1] / "requirements.txt"


@pytest.mark.skipif(shutil.which("jupyter") is None, reason="jupyter is not installed")
def test_jupyterlab_myst_is_pinned_installed_and_compatible():
    pin = re.search(r"^jupyterlab-myst==(\S+)$", REQUIREMENTS.read_text(), re.M)
    assert pin, "jupyterlab-myst is not pinned in requirements.txt"
    assert metadata.version("jupyterlab-myst") == pin.group(1)
    done = subprocess.run(
        ["jupyter", "labextension", "list"], capture_output=True, text=True, timeout=120
    )
    listing = done.stdout + done.stderr
    line = next((x for x in listing.splitlines() if "jupyterlab-myst" in x), "")
    assert "enabled" in line and "OK" in line, listing
    assert "is not compatible" not in listing, listing
