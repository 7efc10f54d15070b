"""gunicorn's settings for the hosted mode, whole: `gunicorn -c python:banker.gunicorn_config`.

Every open page holds one live connection, and with gunicorn one thread of a worker for as long as
it is open: so the workers are `gthread` ones (the default `sync` worker has one thread and would
follow no page), and each worker's live slots are its threads less those kept for page loads and
actions (banker/live/slots.py reads them from this configuration). The server listens on the local
machine only, behind nginx (deploy/nginx/), which reads slow clients' requests whole before passing
them on. Set in the environment (docs/hosting.md, Hosted mode):

- BANKER_BIND: where it listens (127.0.0.1:8000);
- BANKER_WORKERS: worker processes (4);
- BANKER_THREADS: threads of each worker (128: 112 open pages and 16 threads for the rest; a thread
  is started only when a connection needs it). Not fewer: the kernel deals each new connection to
  whichever worker takes it first, not evenly, so one worker may get half as many again as its
  share (measured: 144 screens over four workers of 48 open pages each, one refused now and then);
- FORWARDED_ALLOW_IPS: the proxies whose X-Forwarded-Proto gunicorn believes (127.0.0.1,::1, the
  local nginx; gunicorn's own variable, read here as gunicorn reads it).

gunicorn's own access log stays off: it would print the secrets some paths carry (rejoin codes, TV
view keys). A command-line option still overrides any of these settings.
"""

import os

# Imported here, not in the hook: gunicorn's master runs child_exit from its signal handling, and a
# reload (HUP) that ends every worker at once imported it half-way twice (a partially initialized
# module, and gunicorn down).
from prometheus_client import multiprocess


def _whole_number(name: str, default: int) -> int:
    """A positive whole number from the environment, or gunicorn stops with a message naming it."""
    value = os.environ.get(name, str(default))
    if not value.isdigit() or int(value) < 1:
        raise SystemExit(f"{name} must be a whole number of at least 1, not {value!r}")
    return int(value)


wsgi_app = "banker:create_app()"
bind = os.environ.get("BANKER_BIND", "127.0.0.1:8000")
worker_class = "gthread"
workers = _whole_number("BANKER_WORKERS", 4)
threads = _whole_number("BANKER_THREADS", 128)
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
accesslog = None
# Open pages never finish their answer: on a stop or a restart, a worker waits this long for the
# actions under way, not 30 s for the pages, which reconnect by themselves.
graceful_timeout = 5
proc_name = "banker"


def child_exit(server, worker) -> None:
    """A worker is gone: with prometheus_client's multiprocess mode (PROMETHEUS_MULTIPROC_DIR set),
    its live gauges are dropped from what the other workers' /metrics report."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(worker.pid)


def post_worker_init(worker) -> None:
    """A worker has loaded the app: it keeps the tournaments' round clocks from now on (each worker,
    as each `banker` process does: the first to call a round's last turn is recorded, the rest refused)."""
    from flask import Flask

    from banker.web.pages.tournament_live import keep_time

    if isinstance(worker.wsgi, Flask):  # not gunicorn's stand-in for an app that failed to load (--reload)
        keep_time(worker.wsgi)
