"""One-off: 2022 records kept the customer under "client" and prices in cents."""

import json
import sys
from decimal import Decimal
from pathlib import Path


def migrate(record: dict) -> dict:
    if "client" in record:
        record["customer"] = record.pop("client")
    for item in record.get("items", []):
        if "unit_cents" in item:
            item["unit_price"] = str(Decimal(item.pop("unit_cents")) / 100)
    return record


if __name__ == "__main__":
    for name in sys.argv[1:]:
        path = Path(name)
        record = migrate(json.loads(path.read_text(encoding="utf-8")))
        path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
