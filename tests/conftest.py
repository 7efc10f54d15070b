"""Fixtures for every test folder: the PostgreSQL server the store and web tests also run on."""

import os

import pytest

from .postgres import Server


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
