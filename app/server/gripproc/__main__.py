"""`python -m app.server.gripproc FD`: the Devil's Grip worker (`worker.py`).

A module of its own that imports nothing before it runs: the search pools' forkserver,
started from the worker, prepares its children from the main module, and a package's
`__main__` is left out of that (as `python -m app` is for the server), while `worker.py`
as the main module would have every search process import FastAPI and the routers
first (the first hint after a start then missed its deadline on a loaded machine).
"""


def main() -> None:
    from app.server.gripproc.worker import main as serve

    serve()


if __name__ == "__main__":
    main()
