"""Shared test helpers: where the shared data and fixtures live."""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATA = SHARED / "data"
FIXTURES = SHARED / "fixtures"


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test when that data is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    return path
