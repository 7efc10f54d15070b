"""Prometheus metrics (`/metrics`, docs/hosting.md, Metrics): live connections open and refused,
actions by type and outcome, how long actions and renders take, database errors.

Off unless METRICS is set: then nothing is made, and each place that counts costs one look-up in
the app's extensions. Each app has its own registry (the tests make many apps in one process).
Under gunicorn with PROMETHEUS_MULTIPROC_DIR set, every worker writes its values to files there and
`/metrics` adds up those of every worker (prometheus_client's multiprocess mode); gunicorn's
`child_exit` hook (banker/gunicorn_config.py) drops a gone worker's live gauge with
`multiprocess.mark_process_dead`.
"""

import functools
import os
import time

from flask import Flask, current_app
from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest,
                               multiprocess)

from .rules.actions import TAKE_BACK, UNDO
from .rules.declaration import ACTIONS
from .rules.errors import GameError

# Seconds: an action takes a few milliseconds at a table, a render of a game's screens about as long.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# The action types a label may name: any other type a client sends is counted as "other", so that
# nobody can make a new time series per request.
ACTION_TYPES = frozenset((*ACTIONS, UNDO, TAKE_BACK))


class Metrics:
    """The app's metrics, in its own registry, or (multiprocess mode) in the files of
    PROMETHEUS_MULTIPROC_DIR, which the registry reads back for every worker."""

    def __init__(self):
        self.registry = CollectorRegistry()
        shared = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
        if shared:
            multiprocess.MultiProcessCollector(self.registry)
        into = None if shared else self.registry
        self.live_open = Gauge("banker_live_connections", "Live connections (event streams) open",
                               registry=into, multiprocess_mode="livesum")
        self.live_refused = Counter("banker_live_refused", "Live connections turned away, by reason",
                                    ["reason"], registry=into)
        self.actions = Counter("banker_actions", "Actions asked for, by type and outcome (applied, repeated: "
                               "a nonce seen before, refused: by the rules, unknown: no such game or secret, "
                               "failed: busy or the database)", ["type", "outcome"], registry=into)
        self.action_seconds = Histogram("banker_action_seconds", "Time to answer an action, in the store",
                                        registry=into, buckets=BUCKETS)
        self.render_seconds = Histogram("banker_render_seconds", "Time to render a game's screens for one "
                                        "version", registry=into, buckets=BUCKETS)
        self.database_errors = Counter("banker_database_errors", "Requests answered 503 or 507 for the "
                                       "database (unavailable, disk_full)", ["kind"], registry=into)

    CONTENT_TYPE = CONTENT_TYPE_LATEST

    def text(self) -> bytes:
        """Every metric in the Prometheus text format (of CONTENT_TYPE)."""
        return generate_latest(self.registry)


def init_app(app: Flask) -> None:
    """Make the metrics if METRICS is on, and keep the live connections' gauge at the number of the
    process's slots held (live/slots.py): read as a live connection's answer starts and as it ends."""
    if not app.config["METRICS"]:
        return
    metrics = app.extensions["banker.metrics"] = Metrics()

    @app.after_request
    def live_connections(response):
        if response.mimetype == "text/event-stream":
            slots = app.extensions["banker.live"]
            metrics.live_open.set(slots.open)
            # After the stream's own close, which gives its slot back.
            response.call_on_close(lambda: metrics.live_open.set(slots.open))
        return response


def _metrics() -> Metrics | None:
    return current_app.extensions.get("banker.metrics")


def live_refused(reason: str) -> None:
    """A live connection was turned away for `reason` (a short fixed word: the slots' own)."""
    if (metrics := _metrics()) is not None:
        metrics.live_refused.labels(reason).inc()


def rendered(seconds: float) -> None:
    """A game's screens were rendered for one version in `seconds`."""
    if (metrics := _metrics()) is not None:
        metrics.render_seconds.observe(seconds)


def database_failed(kind: str) -> None:
    """A request was answered for the database failing: `unavailable` (503) or `disk_full` (507)."""
    if (metrics := _metrics()) is not None:
        metrics.database_errors.labels(kind).inc()


def counted_action(unknown: tuple[type[Exception], ...]):
    """store.act, counted by type and outcome and timed (when the metrics are on). `unknown`: the
    errors that mean no such game, or a secret that holds no seat in it (the store's own)."""

    def counting(act):
        @functools.wraps(act)
        def counted(code, data, *args, **kwargs):
            metrics = _metrics()
            if metrics is None:
                return act(code, data, *args, **kwargs)
            started, outcome = time.perf_counter(), "failed"
            try:
                done = act(code, data, *args, **kwargs)
                outcome = "repeated" if done.repeated else "applied"
                return done
            except GameError:
                outcome = "refused"
                raise
            except unknown:
                outcome = "unknown"
                raise
            finally:
                metrics.action_seconds.observe(time.perf_counter() - started)
                kind = data.get("type") if isinstance(data, dict) else None
                metrics.actions.labels(kind if isinstance(kind, str) and kind in ACTION_TYPES else "other",
                                       outcome).inc()

        return counted

    return counting

