"""Devil's Grip's HTTP API in a process of its own (docs/architecture.md).

The rooms' event loop relays every Demon play; each Devil's Grip request used to be
parsed, validated and answered on that same loop. With `DEMON_GRIP_WORKER=true` (the
default) the server starts a *Devil's Grip worker*: a child process that runs the same
routers (`app/server/grip_http.py`) with its own games, hint engine and SQLite connection.
The rooms' process hands each `/api/grip...` request over a socketpair as one frame
(method, path, headers, client address, body) and sends back the answer frame it gets.

* `frames.py`: the frame format both sides read and write;
* `parts.py`: the Devil's Grip service objects, built once per process that serves the
  API (the worker, or the server itself with `DEMON_GRIP_WORKER=false`);
* `worker.py`: the child process (`python -m app.server.gripproc FD`, `__main__.py`);
* `relay.py`: the server's side: starts, watches and restarts the worker, relays the
  requests (503 with Retry-After while the worker is down), reads its metrics.
"""
