"""Issue 33, item 1: it installs like a Python package. The wheel built from this checkout, installed
into a new virtual environment outside it, serves every page with the templates and static files it
carries, keeps its instance folder outside site-packages, and logs each request with no secret.

To keep it to seconds the wheel is installed `--no-deps`, and the new environment finds the test
environment's packages (Flask and the rest, not this one: an editable install's hook is a .pth file,
which a path in another .pth file does not run) through a .pth file of its own."""

import http.cookiejar
import json
import os
import re
import shutil
import site
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from .postgres import free_port

ROOT = Path(__file__).resolve().parent.parent
# What the wheel is built from: the package, the folders it carries, and what pyproject.toml names.
SOURCES = ("banker", "templates", "static", "pyproject.toml", "setup.py", "README.md")
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
NONCE = re.compile(r'name="nonce" value="([^"]+)"')


def run(*command, **options) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, **options)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A virtual environment outside the checkout with the wheel installed: its folder."""
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "source"  # a copy: the build leaves nothing in the checkout
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, source / name)
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index",
        "-w", str(folder / "dist"), str(source))
    [wheel] = (folder / "dist").iterdir()
    venv = folder / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", str(venv))
    run(sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q", "--no-deps",
        "--no-index", "--no-compile", str(wheel))
    [packages] = (venv / "lib").glob("python*/site-packages")
    (packages / "test-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return venv


def test_the_installed_package_carries_its_folders_and_keeps_its_instance_outside_site_packages(installed):
    found = run(str(installed / "bin" / "python"), "-c",
                "import banker; app = banker.configured(); print(banker.__file__, app.template_folder, "
                "app.static_folder, app.instance_path)", cwd=installed, env=_without_instance())
    package, templates, static, instance = found.split()
    packages = next((installed / "lib").glob("python*/site-packages"))
    assert Path(package).parent == packages / "banker"
    assert Path(templates) == packages / "banker" / "templates" and Path(static) == packages / "banker" / "static"
    assert Path(instance) == installed / "var" / "banker-instance"  # Flask's own for an installed package


def _without_instance() -> dict:
    return {name: value for name, value in os.environ.items() if name not in ("BANKER_INSTANCE", "DATABASE_URL")}


def test_the_installed_banker_serves_every_page_and_logs_them_without_secrets(installed, tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [str(installed / "bin" / "banker"), "--host", "127.0.0.1", "--port", str(port), "--offline"],
        cwd=tmp_path, env={**_without_instance(), "BANKER_INSTANCE": str(tmp_path / "instance")},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said: list[str] = []  # what it prints, read as it comes
    reader = threading.Thread(target=lambda: said.extend(process.stdout), daemon=True)
    reader.start()
    try:
        url = f"http://127.0.0.1:{port}"
        _listening(f"{url}/healthz")
        jar = http.cookiejar.CookieJar()
        phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        home = _read(phone, f"{url}/")
        assert "Create game" in home
        css = re.search(r'href="(/static/css/app\.css\?v=\w+)"', home).group(1)
        assert _read(phone, url + css) == (ROOT / "static" / "css" / "app.css").read_text(encoding="utf-8")
        created = json.loads(_read(phone, f"{url}/api/games", b"{}"))
        code, banker_token = created["code"], created["banker_token"]
        join = _read(phone, f"{url}/j/{code}")
        form = {"csrf_token": CSRF.search(join).group(1), "nonce": NONCE.search(join).group(1),
                "name": "Ann", "token": "hat"}
        wallet = _read(phone, f"{url}/j/{code}", urllib.parse.urlencode(form).encode())  # 303 to the phone page
        assert 'id="wallet"' in wallet and "Ann" in wallet
        host = _read(urllib.request.build_opener(), f"{url}/t/{code}")
        assert code in host and 'data-qr="join"' in host and "Ann" in host
        tv = json.loads(_read(phone, f"{url}/api/games/{code}/tv", b"{}", {"Authorization": f"Bearer {banker_token}"}))
        key = tv["url"].rsplit("/", 1)[1]
        assert "Ann" in _read(urllib.request.build_opener(), f"{url}/tv/{code}/{key}")
        cookies = [cookie.value for cookie in jar]
        assert cookies
        # A line is written once its answer is closed, just after the client has read it whole, to
        # the instance folder's access.log (the terminal keeps its banner).
        _until(lambda: len(_requests(_logged(tmp_path))) >= 10)
    finally:
        process.terminate()
        process.wait(timeout=10)
        reader.join(timeout=10)
        process.stdout.close()
    lines = _requests(_logged(tmp_path))
    assert not _requests(said)
    assert len(lines) == 10  # one per request, the health check that found it listening first
    assert not [line for line in lines for secret in (banker_token, key, *cookies) if secret in line]
    assert f'"GET /tv/{code}/***" 200' in "".join(lines) and "Traceback" not in "".join(said)


def _logged(folder) -> list[str]:
    log = folder / "instance" / "access.log"
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def _requests(said: list[str]) -> list[str]:
    return [line for line in list(said) if re.search(r'"(GET|POST) /', line)]


def _until(condition) -> None:
    for _ in range(200):
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("not within 10 s")


def _listening(url: str) -> None:
    """Once the server listens (it prints its banner just before), its health check says so."""
    for _ in range(100):
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                assert json.loads(response.read()) == {"status": "ok"}
                return
        except ConnectionRefusedError:
            time.sleep(0.05)
        except urllib.error.URLError as error:
            if not isinstance(error.reason, ConnectionRefusedError):
                raise
            time.sleep(0.05)
    raise AssertionError(f"nothing listens at {url}")


def _read(opener, url: str, body: bytes | None = None, headers: dict | None = None) -> str:
    request = urllib.request.Request(url, body, {"Content-Type": "application/json"} if body == b"{}" else {})
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    with opener.open(request, timeout=10) as response:
        return response.read().decode()
