import pytest

from . import started


@pytest.fixture
def game():
    """Ann and Bob, seated in that order; Ann rolls first, from GO, with 1500 each."""
    return started(2)


@pytest.fixture
def game3():
    """Ann, Bob and Cy, seated in that order; Ann rolls first."""
    return started(3)
