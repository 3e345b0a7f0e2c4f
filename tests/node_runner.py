"""Running the widgets' JavaScript in node from the tests: one helper for every JS parity test."""

import json
import shutil
import subprocess

import pytest

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


def node_json(args: list[str], payload: object, timeout: float = 300) -> object:
    """Run ``node ARGS`` with ``payload`` as JSON on stdin and parse its JSON stdout."""
    done = subprocess.run(
        [NODE, *args],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def run_module(script: str, payload: object) -> object:
    """Run an ES module given as text (``node --input-type=module -e``) on ``payload``."""
    return node_json(["--input-type=module", "-e", script], payload)
