"""python -m banker: the same as the `banker` command."""

from .cli import main

main()
