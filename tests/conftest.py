"""Fixtures for every test folder: the PostgreSQL server, and the database a store or web test's app
keeps its games in.

A test runs on a SQLite file in its tmp_path. A test marked `storage` (a module whose behaviour
depends on the database: locking, transactions, notifications, stored times) runs again on a
database of its own on the PostgreSQL server."""

import gc
import os

import pytest

from .apps import give_back, postgres_database, sqlite_database
from .postgres import Server


def pytest_collection_finish(session):
    """What collection built (test items, modules, Hypothesis strategies) lives the whole run: freeze
    it out of the garbage collector's sight, and collect less often. The tests make many short-lived
    objects (apps, sessions, pages); full collections walking everything again were a tenth of the
    web tests' time (benchmarked in the note of issue 18)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)


def pytest_generate_tests(metafunc):
    """A `storage` test runs on both databases, unless it names its own (`parametrize("database", ...)`)."""
    if "database" not in metafunc.fixturenames or not metafunc.definition.get_closest_marker("storage"):
        return
    if not any("database" in str(mark.args[0]) for mark in metafunc.definition.iter_markers("parametrize")):
        metafunc.parametrize("database", ["sqlite", "postgres"], indirect=True)


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL server's URL without a database: the one `.ci/run` started (BANKER_TEST_POSTGRES),
    or a throwaway one for this session."""
    if os.environ.get("BANKER_TEST_POSTGRES"):
        yield os.environ["BANKER_TEST_POSTGRES"]
        return
    server = Server().start()
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def playwright():
    """Playwright's driver, started once per worker and shared by the e2e browser and any test that
    launches a browser of its own (test_proxy): a second sync_playwright fails while one is running,
    and a worker may run both."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture
def database(request, tmp_path):
    """A SQLite file in tmp_path at the newest schema; for a `storage` test, also (as its second
    run) a database of its own on the PostgreSQL server, empty when the test starts."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield sqlite_database(tmp_path)
        return
    server = request.getfixturevalue("postgres")
    database = postgres_database(server, tmp_path)
    yield database
    give_back(server, database)
