"""Command line: ``invoicer render FILE`` and ``invoicer export FILE...``."""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from pathlib import Path

from invoicer._compat_csv import to_csv
from invoicer._compat_dates import parse_date
from invoicer.models import Invoice, LineItem
from invoicer.output import render_text


def load(path: Path) -> Invoice:
    data = json.loads(path.read_text(encoding="utf-8"))
    items = tuple(
        LineItem(item["description"], int(item["quantity"]), Decimal(item["unit_price"]))
        for item in data["items"]
    )
    return Invoice(
        number=data["number"],
        customer=data["customer"],
        issued=parse_date(data["issued"]),
        due=parse_date(data["due"]),
        items=items,
        currency=data.get("currency", "EUR"),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="invoicer")
    sub = parser.add_subparsers(dest="command", required=True)
    render = sub.add_parser("render", help="print one invoice as text")
    render.add_argument("file", type=Path)
    render.add_argument("--discount", type=Decimal, default=Decimal(0),
                        help="fraction of the net to take off, 0 to 0.50")
    export = sub.add_parser("export", help="CSV for the accounting import")
    export.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "render":
        sys.stdout.write(render_text(load(args.file), args.discount))
    else:
        sys.stdout.write(to_csv([load(path) for path in args.files]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
