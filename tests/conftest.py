"""Shared test set-up."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def tables_cache_in_a_temporary_folder(tmp_path_factory):
    """Built game tables (Connect-4) are cached on disk: keep them in a temporary folder.

    Set before any worker process starts, so loky and Dask workers inherit it.
    """
    os.environ["MENACE_LIB_CACHE"] = str(tmp_path_factory.mktemp("tables"))
    yield
