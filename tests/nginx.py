"""A throwaway nginx in front of a local server, from the machine's own nginx (Debian's), with the
docs' own files: deploy/nginx/banker-tls.conf and the snippet it includes, rendered for a free port
of 127.0.0.1, the server's port and a self-signed certificate made here by openssl.

It runs as an instance of its own (its own prefix, pid file, logs and temporary folders, in the
foreground), as Debian's /etc/nginx/nginx.conf would include the site; `nginx -t` passes first.
As root, its workers run as root too, since its folders are the caller's own. tests/test_proxy.py
and benchmarks/hosted.py (--through-nginx) put it in front of gunicorn.
"""

import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

from .postgres import free_port

DEPLOY = Path(__file__).resolve().parent.parent / "deploy" / "nginx"
NAME = "tables.example.org"  # the server_name of banker-tls.conf, which the certificate names
# What a client checks of the certificate: nothing, since it is the caller's own, self-signed.
UNVERIFIED = ssl.create_default_context()
UNVERIFIED.check_hostname, UNVERIFIED.verify_mode = False, ssl.CERT_NONE


def render(text: str, *replacements: tuple[str, str]) -> str:
    """The docs' file with each `old` (found exactly once, or the file changed under the caller)
    replaced by `new`."""
    for old, new in replacements:
        assert text.count(old) == 1, f"{old!r} is not once in the shipped file"
        text = text.replace(old, new)
    return text


class Proxy:
    """nginx with the TLS site on `port` (a free one by default), passing to 127.0.0.1:`upstream`:
    `start()` makes and starts it, `stop()` stops it and deletes its folder."""

    def __init__(self, upstream: int, port: int | None = None):
        self.upstream, self.port = upstream, port or free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="banker-nginx-"))
        self.root = os.geteuid() == 0
        self.process: subprocess.Popen | None = None

    @property
    def command(self) -> list[str]:
        return [shutil.which("nginx") or "/usr/sbin/nginx", "-p", str(self.folder), "-c",
                str(self.folder / "nginx.conf"), "-e", str(self.folder / "error.log")]

    def start(self) -> "Proxy":
        folder = self.folder
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-days", "2", "-subj", f"/CN={NAME}", "-addext", f"subjectAltName=DNS:{NAME}",
                        "-keyout", str(folder / "privkey.pem"), "-out", str(folder / "fullchain.pem")],
                       check=True, capture_output=True)
        (folder / "snippets").mkdir()
        (folder / "snippets" / "banker-proxy.conf").write_text(render(
            (DEPLOY / "banker-proxy.conf").read_text(),
            ("proxy_pass http://127.0.0.1:8000;", f"proxy_pass http://127.0.0.1:{self.upstream};")))
        (folder / "banker.conf").write_text(render(
            (DEPLOY / "banker-tls.conf").read_text(),
            ("listen 443 ssl http2;", f"listen 127.0.0.1:{self.port} ssl http2;"),
            ("/etc/ssl/banker/fullchain.pem", str(folder / "fullchain.pem")),
            ("/etc/ssl/banker/privkey.pem", str(folder / "privkey.pem"))))
        temporary = " ".join(f"{kind}_temp_path {folder / kind};"
                             for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (folder / "nginx.conf").write_text(
            ("user root;\n" if self.root else "")
            + f"worker_processes 1;\npid {folder / 'nginx.pid'};\nevents {{ worker_connections 1024; }}\n"
            f"http {{\n    access_log off;\n    {temporary}\n    include banker.conf;\n}}\n")
        checked = subprocess.run([*self.command, "-t"], capture_output=True, text=True)
        if checked.returncode != 0:
            self.stop()
            raise RuntimeError(f"nginx -t refused the site:\n{checked.stderr}")
        self.process = subprocess.Popen([*self.command, "-g", "daemon off;"], stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.05)
        log = (folder / "error.log").read_text() if (folder / "error.log").exists() else ""
        self.stop()
        raise RuntimeError(f"nginx did not start:\n{log}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)
