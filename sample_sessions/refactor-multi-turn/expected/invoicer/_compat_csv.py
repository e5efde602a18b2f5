"""CSV export in the column order and date format the old accounting import expects."""

from __future__ import annotations

import csv
import io

from invoicer.models import Invoice
from invoicer.totals import compute

COLUMNS = ("number", "customer", "issued", "due", "net", "tax", "gross", "currency")


def to_csv(invoices: list[Invoice]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(COLUMNS)
    for invoice in invoices:
        totals = compute(invoice)
        writer.writerow([
            invoice.number,
            invoice.customer,
            invoice.issued.strftime("%d.%m.%Y"),
            invoice.due.strftime("%d.%m.%Y"),
            f"{totals.net:.2f}",
            f"{totals.tax:.2f}",
            f"{totals.gross:.2f}",
            invoice.currency,
        ])
    return out.getvalue()
