"""The static shell, read once at start and served compressed and cached right.

There is no build step, so the versioning a bundler would do happens here, when the
server starts: every file under `static/` is read into memory, all of them are hashed
into one version, and the shell is served as

    /static/<version>/<path>  the file, cacheable for a year ("immutable"): the URL changes
                              whenever any file changes, so a browser never asks again
    /static/<path>            the same bytes, revalidated every time (ETag): for old links,
                              tools, and pages from before an upgrade
    /, /grip, /r/<code>       index.html, its /static/ links rewritten to the versioned
                              tree, revalidated on every visit so an upgrade is seen at once
    /offline                  the page the service worker shows when the server is gone
    any other address         a "no such page" page in the app's style, status 404, when a
                              browser asks for a page (API paths keep their JSON 404)
    /sw.js                    the service worker, at the root so that it controls the whole
                              app; it carries the version and the list of files to keep
    /manifest.webmanifest     what a browser needs to install the app

Why one version for the whole tree, not a hash per file: the ES modules import each other
by relative URL (`./cards.js`), so a module loaded from /static/<v>/ finds every import
under the same /static/<v>/ without any JavaScript being rewritten, and a page can never
mix files of two versions. The cost is that any change makes a browser fetch the whole
shell again once (about 75 KB compressed).

Text files are also kept gzip-compressed and sent so to browsers that accept it (gzip
rather than brotli: the standard library has it, and brotli would save a few KB more for
a new dependency). A change to a file needs a restart to be served, like a change to the
Python code.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Awaitable, Callable

from fastapi import FastAPI
from fastapi.exception_handlers import http_exception_handler
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
VERSION_LENGTH = 12
_VERSION_SHAPE = re.compile(r"[0-9a-f]{%d}" % VERSION_LENGTH)

# Worth compressing; images other than SVG are compressed already.
_TEXT_TYPES = ("text/", "application/javascript", "application/json", "application/manifest+json",
               "image/svg+xml")
_TYPES = {".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".html": "text/html; charset=utf-8",
          ".md": "text/markdown; charset=utf-8", ".json": "application/json",
          ".svg": "image/svg+xml", ".png": "image/png",
          ".webmanifest": "application/manifest+json"}
_SMALLEST_WORTH_COMPRESSING = 512

# The pages that are index.html under another address (the client routes on the path).
PAGES = ("/", "/grip", "/r/{code}")
# Addresses whose 404 stays the JSON one: programs, not people, ask for these.
_NOT_PAGES = ("/api/", "/ws", "/static/", "/health")
_SW_TEMPLATE = "sw.js"
# Folders with one file (or folder) per language: a player downloads only their own.
_ONE_LANGUAGE_EACH = ("rules/", "i18n/")
_HIDDEN = re.compile(r"(^|/)\.")


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None  # None when compressing would not pay
    media_type: str
    etag: str


def _media_type(name: str) -> str:
    suffix = Path(name).suffix.lower()
    return _TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"


def _make_asset(body: bytes, media_type: str) -> Asset:
    gzipped = None
    if len(body) >= _SMALLEST_WORTH_COMPRESSING and media_type.startswith(_TEXT_TYPES):
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        if len(packed) < len(body) * 0.9:
            gzipped = packed
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    return Asset(body, gzipped, media_type, etag)


class StaticShell:
    """Every static file in memory, with the one version that names them all."""

    def __init__(self, root: Path) -> None:
        self.root = root
        files: dict[str, bytes] = {}
        if root.is_dir():
            for path in sorted(root.rglob("*")):
                rel = path.relative_to(root).as_posix()
                if path.is_file() and not _HIDDEN.search(rel):
                    files[rel] = path.read_bytes()
        digest = hashlib.sha256()
        for rel, body in files.items():
            digest.update(rel.encode() + b"\0" + hashlib.sha256(body).digest())
        self.version = digest.hexdigest()[:VERSION_LENGTH]
        self.prefix = f"/static/{self.version}/"
        self.files = {rel: _make_asset(body, _media_type(rel)) for rel, body in files.items()}
        self.index = self._page("index.html")
        self.offline = self._page("notice.html", notice="offline")
        self.not_found = self._page("notice.html", notice="notFound")
        self.service_worker = self._service_worker(files.get(_SW_TEMPLATE))

    def _page(self, name: str, notice: str | None = None) -> Asset | None:
        """An HTML page of the shell with its /static/ links pointing at this version (and,
        for notice.html, which notice it shows)."""
        asset = self.files.get(name)
        if asset is None:
            return None
        html = asset.body.decode("utf-8")
        html = re.sub(r'(href|src)="/static/', lambda m: f'{m.group(1)}="{self.prefix}', html)
        if notice is not None:
            html = html.replace('<body data-notice="offline">', f'<body data-notice="{notice}">')
        return _make_asset(html.encode("utf-8"), asset.media_type)

    def shell_urls(self) -> list[str]:
        """What the service worker keeps for offline use: the pages' files, not the strings
        and rules texts of every language (each player needs one, kept when first asked
        for)."""
        keep = [self.prefix + rel for rel in self.files
                if not rel.startswith(_ONE_LANGUAGE_EACH) and rel != _SW_TEMPLATE]
        return ["/offline", *keep]

    def _service_worker(self, template: bytes | None) -> Asset | None:
        if template is None:
            return None
        script = template.decode("utf-8")
        script = script.replace("'__VERSION__'", json.dumps(self.version))
        script = script.replace("['__SHELL__']", json.dumps(self.shell_urls()))
        return _make_asset(script.encode("utf-8"), _TYPES[".js"])

    def lookup(self, path: str) -> tuple[Asset | None, bool]:
        """The asset at a path under /static/, and whether the path named this version.

        A path naming another version (a page loaded before an upgrade asking for one more
        file) gets today's file, revalidated rather than cached for a year."""
        first, _, rest = path.partition("/")
        if first == self.version:
            return self.files.get(rest), True
        if rest and _VERSION_SHAPE.fullmatch(first):
            return self.files.get(rest), False
        return self.files.get(path), False


def respond(request: Request, asset: Asset, cache_control: str, status: int = 200,
            extra: dict[str, str] | None = None) -> Response:
    """The asset as an answer: 304 when the browser already has it, gzip when it accepts
    it (with `Vary` so that caches keep both forms apart)."""
    headers = {"Cache-Control": cache_control, "ETag": asset.etag, **(extra or {})}
    if asset.gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    if status == 200 and asset.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    body = asset.body
    if asset.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
        body = asset.gzipped
        headers["Content-Encoding"] = "gzip"
    if request.method == "HEAD":
        headers["Content-Length"] = str(len(body))
        return Response(status_code=status, headers=headers, media_type=asset.media_type)
    return Response(body, status_code=status, headers=headers, media_type=asset.media_type)


def _serve(asset: Asset, extra: dict[str, str] | None = None) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint answering one asset, revalidated on every visit."""

    async def endpoint(request: Request) -> Response:
        return respond(request, asset, REVALIDATE, extra=extra)

    return endpoint


def install(app: FastAPI, shell: StaticShell) -> None:
    """Add the shell's routes to a FastAPI app (see the module docstring for the URLs)."""

    async def static_file(request: Request, path: str) -> Response:
        asset, versioned = shell.lookup(path)
        if asset is None:
            return Response(status_code=404, content="Not Found", media_type="text/plain")
        return respond(request, asset, IMMUTABLE if versioned else REVALIDATE)

    async def not_found(request: Request, exc: HTTPException) -> Response:
        """A wrong address typed or followed in a browser gets a page it can go on from;
        every other error, and every 404 of the API, keeps FastAPI's JSON answer."""
        wants_page = (exc.status_code == 404 and request.method in ("GET", "HEAD")
                      and not request.url.path.startswith(_NOT_PAGES)
                      and "text/html" in request.headers.get("accept", ""))
        if wants_page and shell.not_found is not None:
            return respond(request, shell.not_found, REVALIDATE, status=404)
        return await http_exception_handler(request, exc)

    # Starlette types every handler as taking any Exception; this one is registered for
    # HTTPException, so that is all it is ever given.
    app.add_exception_handler(HTTPException, not_found)  # type: ignore[arg-type]
    methods = ["GET", "HEAD"]
    if shell.index is not None:
        page = _serve(shell.index)
        for address in PAGES:
            app.add_api_route(address, page, methods=methods, include_in_schema=False)
    if shell.offline is not None:
        app.add_api_route("/offline", _serve(shell.offline), methods=methods, include_in_schema=False)
    if shell.service_worker is not None:
        app.add_api_route("/sw.js", _serve(shell.service_worker, {"Service-Worker-Allowed": "/"}),
                          methods=methods, include_in_schema=False)
    if "manifest.webmanifest" in shell.files:
        app.add_api_route("/manifest.webmanifest", _serve(shell.files["manifest.webmanifest"]),
                          methods=methods, include_in_schema=False)
    app.add_api_route("/static/{path:path}", static_file, methods=methods, include_in_schema=False)
