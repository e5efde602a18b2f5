from datetime import date, timedelta
from decimal import Decimal

from invoicer.models import Invoice, LineItem
from invoicer.totals import compute, payment_terms


def make_invoice(*items: LineItem, days: int = 30) -> Invoice:
    issued = date(2024, 3, 1)
    return Invoice("2024-017", "Acme GmbH", issued, issued + timedelta(days=days), items)


def test_totals_are_rounded_once() -> None:
    totals = compute(make_invoice(LineItem("Hosting", 3, Decimal("3.335"))))
    assert totals.net == Decimal("10.01")
    assert totals.tax == Decimal("2.00")
    assert totals.gross == Decimal("12.01")


def test_payment_terms() -> None:
    assert payment_terms(make_invoice(days=14)) == "net 14 days"
    assert payment_terms(make_invoice(days=0)) == "due on receipt"
