from datetime import date
from decimal import Decimal

from invoicer.models import Invoice, LineItem
from invoicer.render import render_text


def test_render_lists_items_and_total() -> None:
    invoice = Invoice("2024-018", "Globex", date(2024, 3, 4), date(2024, 4, 3),
                      (LineItem("Support hours", 4, Decimal("85")),))
    text = render_text(invoice)
    assert "4 x Support hours" in text
    assert "408.00 EUR" in text
    assert text.endswith("Payment terms: net 30 days\n")
