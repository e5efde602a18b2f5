"""Date helpers kept from the 2019 billing system, which wrote dates as DD.MM.YYYY."""

from __future__ import annotations

from datetime import date, datetime

FORMATS = ("%Y-%m-%d", "%d.%m.%Y")


def parse_date(text: str) -> date:
    """An ISO date, or the old DD.MM.YYYY form."""
    text = text.strip()
    for pattern in FORMATS:
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    raise ValueError(f"not a date: {text!r}")


def days_between(start: date, end: date) -> int:
    return (end - start).days
