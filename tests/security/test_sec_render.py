"""Security: render_range shows LibreOffice a sanitised private copy only.

A workbook whose drawing holds two pictures linked (``r:link``, relationships with
``TargetMode="External"``) to a file outside the workspace and to a loopback HTTP server:
the render must fetch nothing, open nothing outside, still produce a PNG, and say what it
left out (``not_rendered``). Renders also run at most two at a time by default.
"""

from __future__ import annotations

import http.server
import io
import json
import pathlib
import threading
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field

import openpyxl
import pytest
from openpyxl.drawing.image import Image
from secutil import (
    OpenWatch,
    count_pixels,
    descendants,
    payload,
    png_size,
    soffice_missing,
    solid_png,
    tree_diff,
    tree_state,
)

from registry_sidecar import Client, Sidecar

pytestmark = pytest.mark.security

RENDER_TIMEOUT_S = 180.0
BLUE = solid_png(64, 64, (0, 0, 255))
#: Fewer red or blue pixels than this are not a drawn picture: a drawn 64 x 64
#: picture is at least 4,096 pixels, while LibreOffice marks a picture it
#: could not load with a small red "Picture N" placeholder (about 600 pixels).
PLACEHOLDER_PIXELS = 2000

DRAWING = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" \
xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" \
xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">{pics}</xdr:wsDr>"""

PIC = """<xdr:twoCellAnchor editAs="oneCell">\
<xdr:from><xdr:col>{c0}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>\
<xdr:to><xdr:col>{c1}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>12</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>\
<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="{id}" name="{name}"/><xdr:cNvPicPr><a:picLocks noChangeAspect="1"/></xdr:cNvPicPr></xdr:nvPicPr>\
<xdr:blipFill><a:blip r:link="{rid}"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill>\
<xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2286000" cy="2095500"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr>\
</xdr:pic><xdr:clientData/></xdr:twoCellAnchor>"""

RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
<Relationship Id="rIdRed" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" \
Target="{red}" TargetMode="External"/>\
<Relationship Id="rIdBlue" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" \
Target="{blue}" TargetMode="External"/></Relationships>"""


@dataclass
class HTTPLog:
    """Every request the loopback server saw: (method, path, user agent)."""

    requests: list[tuple[str, str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


@pytest.fixture()
def http_log() -> Iterator[tuple[HTTPLog, int]]:
    """A loopback HTTP server serving /blue.png and logging every request, whatever its method."""
    log = HTTPLog()

    class Handler(http.server.BaseHTTPRequestHandler):
        def parse_request(self) -> bool:
            ok = super().parse_request()
            with log.lock:
                log.requests.append((self.command or "?", self.path or "?", self.headers.get("User-Agent", "") if ok else ""))
            return ok

        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(BLUE)))
            self.end_headers()
            self.wfile.write(BLUE)

        def do_HEAD(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(BLUE)))
            self.end_headers()

        def do_OPTIONS(self) -> None:
            self.send_response(200)
            self.send_header("Allow", "GET, HEAD, OPTIONS")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield log, int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


def linked_pictures_book(path: pathlib.Path, red_url: str, blue_url: str) -> None:
    """A workbook with text in A1 and a drawing of two pictures linked (not embedded) to red_url and blue_url."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Data"
    sheet["A1"] = "linked pictures"
    sheet.add_image(Image(io.BytesIO(solid_png(8, 8, (0, 200, 0)))), "B2")
    tmp = path.with_suffix(".tmp.xlsx")
    wb.save(tmp)
    pics = PIC.format(c0=1, c1=5, id=2, name="Red", rid="rIdRed") + PIC.format(c0=6, c1=10, id=3, name="Blue", rid="rIdBlue")
    with zipfile.ZipFile(tmp) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename.startswith("xl/media/"):
                continue  # nothing embedded: the pictures exist only behind their links
            if info.filename == "xl/drawings/drawing1.xml":
                dst.writestr(info.filename, DRAWING.format(pics=pics))
            elif info.filename == "xl/drawings/_rels/drawing1.xml.rels":
                dst.writestr(info.filename, RELS.format(red=red_url, blue=blue_url))
            else:
                dst.writestr(info, src.read(info))
    tmp.unlink()


def test_render_range_follows_no_external_link(
    sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, http_log: tuple[HTTPLog, int]
) -> None:
    why = soffice_missing()
    if why:
        pytest.skip(why)
    log, port = http_log
    ws = tmp_path / "ws"
    outside = tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    (outside / "red.png").write_bytes(solid_png(64, 64, (255, 0, 0)))
    red_url = (outside / "red.png").as_uri()
    blue_url = f"http://127.0.0.1:{port}/blue.png"
    linked_pictures_book(ws / "linked.xlsx", red_url, blue_url)
    outside_before = tree_state(outside)
    watch = OpenWatch(outside)
    try:
        with Sidecar.launch(ws, binary=sidecar_bin) as sc, Client(sc.url, token=sc.token, call_timeout=RENDER_TIMEOUT_S) as c:
            t0 = time.monotonic()
            r = c.call_tool("render_range", {"file_path": "linked.xlsx", "sheet_name": "Data", "cell_range": "A1:K14", "output_path": "shot.png"})
            took = time.monotonic() - t0
            time.sleep(0.5)  # a request sent at the very end still reaches the log
        opened = watch.events()
    finally:
        watch.close()
    got = payload(r.text)
    png = ws / "shot.png"
    red = count_pixels(png, "red") if png.exists() else -1
    blue = count_pixels(png, "blue") if png.exists() else -1
    print(f"\nrender took {took:.1f} s; HTTP requests {log.requests}; outside events {opened}; red {red}, blue {blue} pixels; not_rendered {got.get('not_rendered')}")

    assert log.requests == [], f"LibreOffice fetched the linked picture: {log.requests}"
    assert opened == [], f"something opened the outside picture: {opened}"
    assert tree_diff(outside_before, tree_state(outside)) == []
    assert not r.is_error and got["status"] == "success", r.text
    data = png.read_bytes()
    assert png_size(data) == (got["width"], got["height"])
    assert got["size_bytes"] == len(data)
    # Drawn, either picture covers tens of thousands of pixels; a placeholder
    # LibreOffice draws for a picture it may not load stays under the bound.
    assert red < PLACEHOLDER_PIXELS, f"{red} red pixels: the outside file was drawn"
    assert blue < PLACEHOLDER_PIXELS, f"{blue} blue pixels: the URL was fetched and drawn"
    not_rendered = got.get("not_rendered")
    assert isinstance(not_rendered, list) and not_rendered, f"the result does not say what was left out: {r.text}"
    # Each entry names the part, what was left out and the link's scheme
    # only (never an attacker's full URL).
    links = [o for o in not_rendered if o.get("what") == "linked image"]
    assert sorted(o.get("target") for o in links) == ["file", "http"], f"not_rendered does not list both links: {not_rendered}"
    assert sum(int(o.get("count", 0)) for o in links) == 2, not_rendered
    assert "red.png" not in json.dumps(not_rendered) and "127.0.0.1" not in json.dumps(not_rendered)


def renders_running(sidecar_pid: int) -> set[int]:
    """The sidecar's children (one per render: oosplash, or a sandbox wrapper
    around it) under which a living soffice.bin runs. soffice.bin forks helpers
    of its own and oosplash restarts it on a fresh profile, so soffice.bin
    processes are not renders."""
    procs = {p: (ppid, comm, state) for p, ppid, comm, state in descendants(sidecar_pid)}
    roots: set[int] = set()
    for p, (_ppid, comm, state) in procs.items():
        if comm != "soffice.bin" or state == "Z":
            continue
        while procs.get(p, (sidecar_pid,))[0] != sidecar_pid and p in procs:
            p = procs[p][0]
        roots.add(p)
    return roots


def test_renders_run_at_most_two_at_once(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    why = soffice_missing()
    if why:
        pytest.skip(why)
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    for r in range(1, 21):
        sheet.append([f"row {r}", r, r * 2])
    wb.save(tmp_path / "book.xlsx")
    renders = 4  # enough to see a cap of 2; each uncapped soffice costs about 500 MB
    answers: list[str] = []
    errors: list[BaseException] = []
    with Sidecar.launch(tmp_path, binary=sidecar_bin) as sc:
        pid = sc.pid
        assert pid is not None

        def render(i: int) -> None:
            try:
                with Client(sc.url, token=sc.token, call_timeout=RENDER_TIMEOUT_S) as c:
                    r = c.call_tool("render_range", {"file_path": "book.xlsx", "output_path": f"shot{i}.png"})
                answers.append(r.text)
            except BaseException as exc:  # reported by the test
                errors.append(exc)

        threads = [threading.Thread(target=render, args=(i,)) for i in range(renders)]
        peak = 0
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            running = len(renders_running(pid))
            peak = max(peak, running)
            time.sleep(0.05)
        for t in threads:
            t.join()
    print(f"\n{renders} concurrent renders: at most {peak} soffice.bin at once")
    assert not errors, errors
    assert len(answers) == renders
    for text in answers:
        assert payload(text)["status"] == "success", text
    assert 1 <= peak <= 2, f"{peak} LibreOffice processes ran at once (the cap is 2 by default)"
