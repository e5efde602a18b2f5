"""Money formatting for receipts."""


CURRENCY = "EUR"


def cents(amount):
    return round(amount * 100)


def money(amount, currency=CURRENCY):
    value = cents(amount) / 100  # exact to the cent
    return f"{value:.2f} {currency}"


def receipt_line(name, amount):
    return f"{name:<20}{money(amount):>12}"
