"""Files other programs open: spreadsheet-safe CSV (two dialects), .xlsx workbooks, and an
atomic byte writer. XlsxWriter is imported only when a workbook is written.

Formula injection: a spreadsheet runs a cell that starts with ``= + - @`` (and some read a
leading tab or carriage return the same way) as a formula, so a student named
``=HYPERLINK(...)`` would become a live link or command. Such cells are written with a leading
``'`` (OWASP's advice; Excel and LibreOffice show the text without it), and
:func:`unescape_cell` takes it off again when kb reads its own CSV back. The .xlsx has typed
cells, so it keeps the text as it is and needs no escaping.
"""

from __future__ import annotations

import csv
import io
import os
import re
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .errors import UsageError

FORMULA_START = "=+-@\t\r"
_ESCAPE = re.compile(r"'*[=+\-@\t\r]")  # quotes first too, so that unescape(escape(s)) == s always
DIALECTS = ("comma", "excel-eu")


def check_dialect(dialect: str) -> str:
    """The dialect, or UsageError listing the known ones."""
    if dialect not in DIALECTS:
        raise UsageError("--csv-dialect {dialect}: unknown CSV dialect",
                         "use one of {dialects}",
                         dialect=dialect, dialects=', '.join(DIALECTS))
    return dialect


def escape_cell(value: Any) -> Any:
    """``value`` safe for a spreadsheet cell: text that a spreadsheet would read as a formula
    gets a leading ``'``; numbers and other text are unchanged."""
    if isinstance(value, str) and _ESCAPE.match(value):
        return "'" + value
    return value


def unescape_cell(value: str) -> str:
    """The text :func:`escape_cell` was given."""
    if value.startswith("'") and _ESCAPE.match(value, 1):
        return value[1:]
    return value


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]], dialect: str = "comma") -> str:
    """A CSV document. ``comma``: UTF-8, ``,``, ``.`` decimals, ``\\n`` line ends (for programs
    and for LibreOffice, Google Sheets and Excel in English locales). ``excel-eu``: a UTF-8 BOM,
    ``;`` between cells, ``,`` as decimal mark and ``\\r\\n`` line ends — what Excel in a
    Portuguese or Spanish locale opens in columns with the accents right. Formula-looking
    cells are escaped in both."""
    eu = check_dialect(dialect) == "excel-eu"
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=";" if eu else ",", lineterminator="\r\n" if eu else "\n")
    w.writerow([escape_cell(h) for h in header])
    for row in rows:
        w.writerow([_cell(v, eu) for v in row])
    return ("\ufeff" if eu else "") + buf.getvalue()


def _cell(value: Any, decimal_comma: bool) -> Any:
    if isinstance(value, float):
        text = format(value, ".15g")  # 0.667, 1 — never 0.6670000000000001
        return text.replace(".", ",") if decimal_comma else text
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value).lower()
    return escape_cell(value) if isinstance(value, str) else value


def xlsx_bytes(sheets: dict[str, tuple[Sequence[str], Sequence[Sequence[Any]]]]) -> bytes:
    """A workbook with one sheet per entry (name → header, rows): bold frozen header, filters,
    column widths from the content; numbers as numbers, every string as a string (never a
    formula or a link, whatever it starts with)."""
    try:
        import xlsxwriter
    except ImportError:  # pragma: no cover - XlsxWriter is a dependency of kb
        raise UsageError("writing .xlsx needs the XlsxWriter package, which is not installed",
                         "pip install XlsxWriter (a dependency of kb: pip install -e . installs it)") from None
    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False,
                                   "strings_to_numbers": False})
    wb.set_properties({"author": "kb"})
    bold = wb.add_format({"bold": True})
    for name, (header, rows) in sheets.items():
        ws = wb.add_worksheet(name[:31])
        widths = [len(str(h)) for h in header]
        for c, h in enumerate(header):
            ws.write_string(0, c, str(h), bold)
        for r, row in enumerate(rows, start=1):
            for c, v in enumerate(row):
                if isinstance(v, bool) or v is None:
                    ws.write_string(r, c, "" if v is None else str(v).lower())
                elif isinstance(v, (int, float)):
                    ws.write_number(r, c, v)
                else:
                    ws.write_string(r, c, str(v))
                if c < len(widths):
                    widths[c] = max(widths[c], min(60, len(str(v))))
        for c, wdt in enumerate(widths):
            ws.set_column(c, c, wdt + 2)
        ws.freeze_panes(1, 0)
        if rows:
            ws.autofilter(0, 0, len(rows), len(header) - 1)
    wb.close()
    return buf.getvalue()


_XLSX_NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
            "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
            "p": "http://schemas.openxmlformats.org/package/2006/relationships"}


def read_xlsx_sheet(path: Path, name: str) -> list[list[str]] | None:
    """The rows of the sheet ``name`` of the workbook at ``path`` as text (a number as Excel or
    LibreOffice saved it: ``2``, ``2.5``), empty cells as ""; None when the workbook has no such sheet.
    Stdlib only (a .xlsx is a zip of XML): for reading back what a teacher edited in kb's own files."""
    import re
    import zipfile
    from xml.etree import ElementTree as ET

    def col(ref: str) -> int:
        n = 0
        for ch in re.match(r"[A-Z]+", ref).group(0):  # type: ignore[union-attr]
            n = n * 26 + ord(ch) - 64
        return n - 1

    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        wb = ET.fromstring(z.read("xl/workbook.xml"))
        rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
        rid = next((sh.get(f"{{{_XLSX_NS['r']}}}id") for sh in wb.iterfind("m:sheets/m:sheet", _XLSX_NS)
                    if sh.get("name") == name), None)
        target = next((r.get("Target", "") for r in rels.iterfind("p:Relationship", _XLSX_NS) if r.get("Id") == rid),
                      None)
        if rid is None or target is None:
            return None
        target = target.lstrip("/") if target.startswith("/") else "xl/" + target
        shared: list[str] = []
        if "xl/sharedStrings.xml" in names:
            for si in ET.fromstring(z.read("xl/sharedStrings.xml")).iterfind("m:si", _XLSX_NS):
                shared.append("".join(t.text or "" for t in si.iter(f"{{{_XLSX_NS['m']}}}t")))
        rows: list[list[str]] = []
        for row in ET.fromstring(z.read(target)).iterfind("m:sheetData/m:row", _XLSX_NS):
            cells: list[str] = []
            for c in row.iterfind("m:c", _XLSX_NS):
                kind, v = c.get("t"), c.find("m:v", _XLSX_NS)
                if kind == "inlineStr":
                    text = "".join(t.text or "" for t in c.iter(f"{{{_XLSX_NS['m']}}}t"))
                elif v is None or v.text is None:
                    text = ""
                elif kind == "s":
                    text = shared[int(v.text)]
                else:
                    text = v.text
                    if kind != "str" and re.fullmatch(r"-?\d+\.0+", text):
                        text = text.split(".")[0]  # 2.0 → 2
                at = col(c.get("r", "A")) if c.get("r") else len(cells)
                cells += [""] * (at - len(cells)) + [text]
            at = int(row.get("r", len(rows) + 1)) - 1
            rows += [[] for _ in range(at - len(rows))] + [cells]
        return rows


def write_atomic_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename, so
    a crash leaves the old file or the new one, never half of one; the file gets the
    permissions a plain ``open`` would give (the user's umask), not the temp file's 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def check_output_file(path: Path, option: str, example: str) -> None:
    """Before any work: ``path`` (given as ``option``) can be written as one file. An InputError
    naming the path and the fix when it is a folder, or when the folder that would hold it (the
    nearest one that exists: the rest is made) cannot be written — tried with a temporary file,
    the only test that holds for root, read-only mounts and ACLs alike. ``example`` is a file
    name to suggest."""
    from .errors import InputError

    if path.is_dir():
        raise InputError("{option} {path}: is a folder, and this writes one file",
                         "name a file in it, e.g. {option} {example_path}",
                         option=option, path=path, example_path=path / example)
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise InputError("{option} {path}: {folder} is a file, not a folder",
                         "choose another path, e.g. {option} {example}",
                         option=option, path=path, folder=folder, example=example)
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise InputError("{option} {path}: cannot write in {folder} ({error})",
                         "choose a folder you can write to (e.g. {option} {example_path}), or make {folder} "
                         "writable (chmod u+w, or a read-write mount)",
                         option=option, path=path, folder=folder, error=e.strerror or e,
                         example_path=Path.home() / example) from e


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
