"""banker/gunicorn_config.py as gunicorn's own Config takes it, in each environment, and its hook
for a worker that is gone. tests/test_proxy.py serves through it with a real gunicorn."""

import runpy
from types import SimpleNamespace

import pytest
from gunicorn.config import Config

from banker import gunicorn_config


def settings(monkeypatch, **env: str) -> Config:
    """gunicorn's configuration from the module run afresh with only `env` of its variables set, as
    `gunicorn -c python:banker.gunicorn_config` would read it."""
    for name in ("BANKER_BIND", "BANKER_WORKERS", "BANKER_THREADS", "FORWARDED_ALLOW_IPS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    config = Config()
    for name, value in runpy.run_path(gunicorn_config.__file__).items():
        if name in config.settings:
            config.set(name, value)
    return config


def test_gunicorn_serves_the_app_with_threads_on_the_local_machine_and_no_access_log_of_its_own(monkeypatch):
    config = settings(monkeypatch)
    assert (config.wsgi_app, config.bind, config.worker_class_str, config.workers, config.threads) == (
        "banker:create_app()", ["127.0.0.1:8000"], "gthread", 4, 128)
    assert config.accesslog is None
    assert config.forwarded_allow_ips == ["127.0.0.1", "::1"]


def test_the_environment_says_where_it_listens_its_workers_threads_and_proxies(monkeypatch):
    config = settings(monkeypatch, BANKER_BIND="0.0.0.0:9000", BANKER_WORKERS="2", BANKER_THREADS="100",
                      FORWARDED_ALLOW_IPS="10.0.0.5")
    assert (config.bind, config.workers, config.threads, config.forwarded_allow_ips) == (
        ["0.0.0.0:9000"], 2, 100, ["10.0.0.5"])


@pytest.mark.parametrize("value", ["sixty", "0", "-4", ""])
def test_a_count_that_is_not_a_whole_number_stops_gunicorn_with_a_message_naming_it(monkeypatch, value):
    with pytest.raises(SystemExit) as stopped:
        settings(monkeypatch, BANKER_THREADS=value)
    assert str(stopped.value) == f"BANKER_THREADS must be a whole number of at least 1, not {value!r}"


def test_a_worker_gone_takes_its_live_gauges_out_of_the_metrics(tmp_path, monkeypatch):
    """prometheus_client's multiprocess mode keeps each worker's values in files named by its pid:
    those of a live gauge go with the worker, the others (counters, histograms) stay counted."""
    pytest.importorskip("prometheus_client")
    for name in ("gauge_livesum_4242.db", "gauge_all_4242.db", "counter_4242.db", "gauge_livesum_4343.db"):
        (tmp_path / name).write_bytes(b"")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    gunicorn_config.child_exit(None, SimpleNamespace(pid=4242))
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "counter_4242.db", "gauge_all_4242.db", "gauge_livesum_4343.db"]
