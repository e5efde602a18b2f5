"""Write a demo invoice to examples/, for trying the command line."""

import json
from pathlib import Path

DEMO = {
    "number": "2024-017",
    "customer": "Acme GmbH",
    "issued": "2024-03-01",
    "due": "2024-03-31",
    "items": [
        {"description": "Hosting (March)", "quantity": 1, "unit_price": "49.00"},
        {"description": "Support hours", "quantity": 3, "unit_price": "85.00"},
    ],
}

if __name__ == "__main__":
    target = Path("examples") / f"{DEMO['number']}.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(DEMO, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {target}")
