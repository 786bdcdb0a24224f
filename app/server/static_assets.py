"""The static shell, read once at start and served compressed and cached right.

There is no build step, so the versioning a bundler would do happens here, when the
server starts: every file under `static/` is read into memory, all of them are hashed
into one version, and the shell is served as

    /static/<version>/<path>  the file, cacheable for a year ("immutable"): the URL changes
                              whenever any file changes, so a browser never asks again
    /static/<path>            the same bytes, revalidated every time (ETag): for old links,
                              tools, and pages from before an upgrade
    /, /grip, /r/<code>, …    index.html (every address of PAGES), its /static/ links rewritten to the versioned
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

The page's module graph is known here too: index.html names its entry modules, and
the static `import ... from './x.js'` statements of each module name the rest. The shell
lists every module of that graph as `<link rel="modulepreload">`, so a first visit asks
for all of them at once instead of finding them one import (one round trip) deeper at a
time: nine deep, on a phone's network, that was most of a second. A dynamic
`import()` is not found by that walk: the room and Devil's Grip, which app.js loads when
shown, are added for their own addresses (PAGE_MODULES), so the home page preloads only
what it runs, and a link to a room preloads the room. A language's strings are the
browser's choice. The first visit's language module is hinted too, from Accept-Language (the
browser's own list, which is what the page picks from when nothing is saved), in one
variant of the page per language, all made here at start-up.

Text files are also kept gzip-compressed and sent so to browsers that accept it (gzip
rather than brotli: the standard library has it, and brotli would save a few KB more for
a new dependency). A change to a file needs a restart to be served, like a change to the
Python code.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import mimetypes
import posixpath
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI
from fastapi.exception_handlers import http_exception_handler
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
VERSION_LENGTH = 12
_VERSION_SHAPE = re.compile(rf"[0-9a-f]{{{VERSION_LENGTH}}}")

# Worth compressing; images other than SVG are compressed already.
_TEXT_TYPES = ("text/", "application/javascript", "application/json", "application/manifest+json", "image/svg+xml")
_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
}
_SMALLEST_WORTH_COMPRESSING = 512

# The pages that are index.html under another address (the client routes on the path),
# each with the module app.js loads for it with `import()` (app.js PAGES): the home page
# is in app.js's static imports; the room and Devil's Grip are loaded when shown, so the
# home page of a first visit does not wait for them, and each page preloads its own.
PAGES = ("/", "/grip", "/r/{code}", "/replay/{code}/{replay_id}", "/grip/replay/{game_id}", "/daily")
PAGE_MODULES = {
    "/": (),
    "/grip": ("grip/grip.js",),
    "/r/{code}": ("demon/room.js", "demon/table.js"),  # room.js import()s its table
    "/replay/{code}/{replay_id}": ("replay/replay.js",),
    "/grip/replay/{game_id}": ("replay/grip-viewer.js",),
    "/daily": ("daily/daily.js",),
}
# Addresses whose 404 stays the JSON one: programs, not people, ask for these.
_NOT_PAGES = ("/api/", "/ws", "/static/", "/health")
_SW_TEMPLATE = "sw.js"
# Folders with one file (or folder) per language: a player downloads only their own.
_ONE_LANGUAGE_EACH = ("rules/", "i18n/")
_HIDDEN = re.compile(r"(^|/)\.")
# A static import or re-export of a relative module (`import {a} from './x.js';`,
# `import './x.js';`, `export {a} from '../y.js';`), at the start of a line: a comment
# line starts with `//` and so is not one. `import(` (dynamic) has no space or brace after
# `import` and is not matched either.
_STATIC_IMPORT = re.compile(
    r"""^[ \t]*(?:import|export)[ \t]+(?:[^'";]*?[ \t\n}]from[ \t]*)?['"](\.{1,2}/[^'"]+)['"]""", re.MULTILINE
)
_ENTRY_MODULE = re.compile(r'<script type="module" src="/static/([^"]+)"')
# index.html's languages: the modules static/i18n/<code>.js (language.js lists the same).
_LANGUAGE_MODULE = re.compile(r"^i18n/([a-z]{2})\.js$")


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None  # None when compressing would not pay
    media_type: str
    etag: str


# The one inline script, put into every page's <head> before its stylesheets: the
# player's theme on <html> before the first paint. The settings module (settings.js)
# writes the same attribute, but only once the modules have run, and until then a dark
# or light page showed the green felt first. The policy allows exactly this script by
# its hash (`BOOT_SCRIPT_HASH`, app.py's CSP), so no other inline script can run.
BOOT_SCRIPT = (
    "try{var t=JSON.parse(localStorage.getItem('dg.prefs')||'{}').theme;"
    "if(t==='dark'||t==='light')document.documentElement.dataset.theme=t}catch(e){}"
)
BOOT_SCRIPT_HASH = "'sha256-" + base64.b64encode(hashlib.sha256(BOOT_SCRIPT.encode()).digest()).decode() + "'"


def _media_type(name: str) -> str:
    suffix = Path(name).suffix.lower()
    return _TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"


def module_imports(rel: str, source: str) -> list[str]:
    """The modules (paths under static/) that the module at `rel` imports statically."""
    base = posixpath.dirname(rel)
    return [posixpath.normpath(posixpath.join(base, spec)) for spec in _STATIC_IMPORT.findall(source)]


def module_graph(entries: list[str], files: dict[str, bytes]) -> list[str]:
    """Every module the entries need, directly or through other imports, breadth first
    (the entries themselves first); a module named but missing is left out (the browser
    would report it; the shell's tests check that none is)."""
    order: list[str] = []
    queue = list(entries)
    seen = set(queue)
    while queue:
        rel = queue.pop(0)
        if rel not in files:
            continue
        order.append(rel)
        for dep in module_imports(rel, files[rel].decode("utf-8")):
            if dep not in seen:
                seen.add(dep)
                queue.append(dep)
    return order


def best_language(accept_language: str, languages: list[str], default: str = "en") -> str:
    """The first language of an Accept-Language header (by its q weights, then its order)
    that the app speaks, by its base code as language.js reads navigator.languages."""
    wanted = []
    for i, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag:
            wanted.append((-q, i, tag.lower().split("-")[0]))
    for _, _, base in sorted(wanted):
        if base in languages:
            return base
    return default


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
        index_html = files.get("index.html", b"").decode("utf-8")
        self.entries = _ENTRY_MODULE.findall(index_html)
        self.modules = module_graph(self.entries, files)
        self.languages = sorted(m.group(1) for rel in files if (m := _LANGUAGE_MODULE.match(rel)))
        # per page: the entries' graph and the page's own module's (PAGE_MODULES)
        self.page_modules = {
            address: [m for m in module_graph([*self.entries, *lazy], files) if m not in self.entries]
            for address, lazy in PAGE_MODULES.items()
        }
        self.index = self._page("index.html", preload=self.page_modules["/"])
        # each page with the language module of a first visit hinted too, per language
        self.index_for = {
            (address, code): self._page("index.html", preload=[*modules, f"i18n/{code}.js"])
            for address, modules in self.page_modules.items()
            for code in self.languages
        }
        self.offline = self._page("notice.html", notice="offline")
        self.not_found = self._page("notice.html", notice="notFound")
        self.service_worker = self._service_worker(files.get(_SW_TEMPLATE))

    def _page(self, name: str, notice: str | None = None, preload: list[str] | None = None) -> Asset | None:
        """An HTML page of the shell with its /static/ links pointing at this version (and,
        for notice.html, which notice it shows; for index.html, the modules to preload,
        listed before its first module script)."""
        asset = self.files.get(name)
        if asset is None:
            return None
        html = asset.body.decode("utf-8")
        first_style = html.find('<link rel="stylesheet"')
        if first_style >= 0:
            html = html[:first_style] + f"<script>{BOOT_SCRIPT}</script>\n  " + html[first_style:]
        if preload:
            links = "".join(f'<link rel="modulepreload" href="/static/{rel}">\n  ' for rel in preload)
            at = html.find('<script type="module"')
            if at >= 0:
                html = html[:at] + links + html[at:]
        html = re.sub(r'(href|src)="/static/', lambda m: f'{m.group(1)}="{self.prefix}', html)
        if notice is not None:
            html = html.replace('<body data-notice="offline">', f'<body data-notice="{notice}">')
        return _make_asset(html.encode("utf-8"), asset.media_type)

    def shell_urls(self) -> list[str]:
        """What the service worker keeps for offline use: the pages' files, not the strings
        and rules texts of every language (each player needs one, kept when first asked
        for)."""
        keep = [
            self.prefix + rel for rel in self.files if not rel.startswith(_ONE_LANGUAGE_EACH) and rel != _SW_TEMPLATE
        ]
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


def respond(
    request: Request, asset: Asset, cache_control: str, status: int = 200, extra: dict[str, str] | None = None
) -> Response:
    """The asset as an answer: 304 when the browser already has it, gzip when it accepts
    it (with `Vary` so that caches keep both forms apart)."""
    headers = {"Cache-Control": cache_control, "ETag": asset.etag, **(extra or {})}
    if asset.gzipped is not None:
        headers.setdefault("Vary", "Accept-Encoding")  # a page varying by more says so itself
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
        wants_page = (
            exc.status_code == 404
            and request.method in ("GET", "HEAD")
            and not request.url.path.startswith(_NOT_PAGES)
            and "text/html" in request.headers.get("accept", "")
        )
        if wants_page and shell.not_found is not None:
            return respond(request, shell.not_found, REVALIDATE, status=404)
        return await http_exception_handler(request, exc)

    # Starlette types every handler as taking any Exception; this one is registered for
    # HTTPException, so that is all it is ever given.
    app.add_exception_handler(HTTPException, not_found)  # type: ignore[arg-type]
    methods = ["GET", "HEAD"]
    if shell.index is not None:
        index: Asset = shell.index

        def page_at(address: str) -> Callable[[Request], Awaitable[Response]]:
            async def page(request: Request) -> Response:
                """index.html with this page's modules preloaded, and the language module
                this browser will ask for hinted (a first visit: nothing saved, the
                browser's languages decide, as in language.js)."""
                code = best_language(request.headers.get("accept-language", ""), shell.languages)
                return respond(
                    request,
                    shell.index_for.get((address, code)) or index,
                    REVALIDATE,
                    extra={"Vary": "Accept-Encoding, Accept-Language"},
                )

            return page

        for address in PAGES:
            app.add_api_route(address, page_at(address), methods=methods, include_in_schema=False)
    if shell.offline is not None:
        app.add_api_route("/offline", _serve(shell.offline), methods=methods, include_in_schema=False)
    if shell.service_worker is not None:
        app.add_api_route(
            "/sw.js",
            _serve(shell.service_worker, {"Service-Worker-Allowed": "/"}),
            methods=methods,
            include_in_schema=False,
        )
    if "manifest.webmanifest" in shell.files:
        app.add_api_route(
            "/manifest.webmanifest",
            _serve(shell.files["manifest.webmanifest"]),
            methods=methods,
            include_in_schema=False,
        )
    app.add_api_route("/static/{path:path}", static_file, methods=methods, include_in_schema=False)
