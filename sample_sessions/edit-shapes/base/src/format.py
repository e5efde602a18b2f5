"""Money formatting for receipts."""


def cents(amount):
    return round(amount * 100)


def money(amount, currency="EUR"):
    value = cents(amount) / 100
    return f"{value:.2f} {currency}"


def receipt_line(name, amount):
    return f"{name:<20}{money(amount):>12}"
