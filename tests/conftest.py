"""Shared test set-up."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

# Snapshots must not depend on the order tests run in or on the developer's terminal.
os.environ.pop("NO_COLOR", None)

# The validated content pack is cached in the user's cache folder (nctui.games.nightmare_cathedral.content.cache): tests
# use a folder of their own, never the developer's.
if not os.environ.get("NCTUI_CACHE_DIR"):
    import tempfile

    os.environ["NCTUI_CACHE_DIR"] = tempfile.mkdtemp(prefix="nctui-test-cache-")


# Pilot presses keys at machine speed: the hand-off's guard against a quick double press (which
# tests/test_ui_flows.py checks with the guard on) would swallow them.
from nctui.ui.screens.handoff import HandoffScreen

HandoffScreen.guard = 0.0

import pytest  # noqa: E402

from tests.test_net_lobby import HostThread  # noqa: E402
from tests.test_net_turns import ManualClock, clocked_host  # noqa: E402


@pytest.fixture
def turn_clock() -> ManualClock:
    """The time source of a test's ``turn_host``: moved on by hand (turn-based rooms' clocks)."""
    return ManualClock()


@pytest.fixture
def turn_host(tmp_path: Path, turn_clock: ManualClock) -> Iterator[HostThread]:
    """A game host in this process whose rooms keep time by ``turn_clock``."""
    yield from clocked_host(tmp_path, turn_clock)


def pytest_configure(config) -> None:
    # `make test` runs every test; `-m "not slow"` leaves out those that build or install something.
    config.addinivalue_line("markers", "slow: builds or installs something (seconds); -m 'not slow' skips it")


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def pg_cluster():
    """One PostgreSQL server per test process (tests/pg_helpers.py); skips where there is none."""
    from tests.pg_helpers import cluster

    with cluster() as c:
        yield c


@pytest.fixture
def pg_url(pg_cluster) -> str:
    """A fresh database of the test's own on that server."""
    return pg_cluster.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def open_store(request, tmp_path):
    """The contract of the rooms store: a test taking this runs against both implementations.
    ``open_store()`` opens the same database again (as a restarted host would)."""
    if request.param == "sqlite":
        from nctui.platform.net.store_sqlite import SqliteRoomStore

        return lambda: SqliteRoomStore(tmp_path / "rooms.db")
    from nctui.platform.net.store_postgres import PostgresRoomStore

    url = request.getfixturevalue("pg_url")
    return lambda: PostgresRoomStore(url, host_id="host-a")
