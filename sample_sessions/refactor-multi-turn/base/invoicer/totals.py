"""Money arithmetic for invoices: net, tax and gross, rounded once at the end."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from invoicer._legacy_dates import days_between
from invoicer.models import Invoice

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Totals:
    net: Decimal
    tax: Decimal
    gross: Decimal


def _round(amount: Decimal) -> Decimal:
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def compute(invoice: Invoice) -> Totals:
    net = sum((item.net for item in invoice.items), Decimal(0))
    tax = sum((item.net * item.tax_rate for item in invoice.items), Decimal(0))
    return Totals(net=_round(net), tax=_round(tax), gross=_round(net + tax))


def payment_terms(invoice: Invoice) -> str:
    days = days_between(invoice.issued, invoice.due)
    return "due on receipt" if days <= 0 else f"net {days} days"
