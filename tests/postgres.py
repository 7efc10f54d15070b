"""A throwaway PostgreSQL server for the tests, from the machine's own PostgreSQL 15 packages.

initdb refuses to run as root, so as root the cluster is made and run by the `postgres` user (as
any other user, by that user). It lives in a temporary folder, listens on a free port of
127.0.0.1 only, trusts local connections and skips fsync: it holds nothing worth keeping.

The tests use a server named by BANKER_TEST_POSTGRES (a URL without a database name, as `.ci/run`
exports it), or start their own for the session. By hand:

    python -m tests.postgres start   # prints the URL to export as BANKER_TEST_POSTGRES
    python -m tests.postgres stop <folder>
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

VERSION = "15"
SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "300",
            "listen_addresses": "127.0.0.1", "timezone": "UTC"}


def binaries() -> Path:
    """The folder of initdb and pg_ctl (Debian keeps them out of PATH)."""
    for folder in (Path(f"/usr/lib/postgresql/{VERSION}/bin"), *map(Path, os.environ.get("PATH", "").split(":"))):
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    raise RuntimeError(f"PostgreSQL {VERSION} is not installed (Debian: apt-get install postgresql-{VERSION})")


def _as_owner(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """One throwaway cluster: `start()` makes and starts it, `stop()` stops it and deletes it."""

    def __init__(self, folder: Path | None = None, port: int | None = None):
        self.folder = folder or Path(tempfile.mkdtemp(prefix="banker-postgres-"))
        self.port = port or free_port()

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def url(self) -> str:
        """The server's address for SQLAlchemy with psycopg 3, without a database name."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}"

    def start(self) -> "Server":
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        run = lambda *command: subprocess.run(_as_owner(list(command)), check=True, capture_output=True)  # noqa: E731
        run(str(binaries() / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
            "--no-sync", "--no-instructions")
        options = " ".join(f"-c {key}={value}" for key, value in SETTINGS.items())
        run(str(binaries() / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-t", "60",
            "-o", f"-p {self.port} -k {self.folder} {options}", "start")
        return self

    def stop(self) -> None:
        subprocess.run(_as_owner([str(binaries() / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w",
                                  "stop"]), capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


def main(argv: list[str]) -> None:
    if argv[:1] == ["start"]:
        server = Server().start()
        print(f"{server.url} {server.folder}")
    elif argv[:1] == ["stop"] and len(argv) == 2:
        folder = Path(argv[1])
        Server(folder, 0).stop()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
