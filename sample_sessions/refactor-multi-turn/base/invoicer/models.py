"""Invoices and their lines."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal


@dataclass(frozen=True)
class LineItem:
    description: str
    quantity: int
    unit_price: Decimal
    tax_rate: Decimal = Decimal("0.20")

    @property
    def net(self) -> Decimal:
        return self.unit_price * self.quantity


@dataclass(frozen=True)
class Invoice:
    number: str
    customer: str
    issued: date
    due: date
    items: tuple[LineItem, ...] = ()
    currency: str = "EUR"
