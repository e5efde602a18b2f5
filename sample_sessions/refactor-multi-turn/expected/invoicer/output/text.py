"""Plain-text rendering of an invoice, for email bodies and the terminal."""

from __future__ import annotations

from decimal import Decimal

from invoicer.models import Invoice
from invoicer.totals import compute, payment_terms

WIDTH = 60
LABEL = WIDTH - 16


def _money(amount: Decimal, currency: str) -> str:
    return f"{amount:>12,.2f} {currency}"


def render_text(invoice: Invoice, discount: Decimal = Decimal(0)) -> str:
    totals = compute(invoice, discount)
    lines = [
        f"Invoice {invoice.number}".ljust(WIDTH - 10) + invoice.issued.isoformat(),
        f"Bill to: {invoice.customer}",
        "",
    ]
    for item in invoice.items:
        label = f"{item.quantity} x {item.description}"
        lines.append(label[:LABEL].ljust(LABEL) + _money(item.net, invoice.currency))
    lines += [
        "-" * WIDTH,
        *([f"Discount {discount:.0%}"] if discount else []),
        "Net".ljust(LABEL) + _money(totals.net, invoice.currency),
        "Tax".ljust(LABEL) + _money(totals.tax, invoice.currency),
        "Total".ljust(LABEL) + _money(totals.gross, invoice.currency),
        "",
        f"Payment terms: {payment_terms(invoice)}",
    ]
    return "\n".join(lines) + "\n"
