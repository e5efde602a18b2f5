"""One-off: 2023 records had a single "date" and a "terms" count instead of a due date."""

import json
import sys
from datetime import date, timedelta
from pathlib import Path


def migrate(record: dict) -> dict:
    if "date" in record:
        issued = date.fromisoformat(record.pop("date"))
        record["issued"] = issued.isoformat()
        record["due"] = (issued + timedelta(days=int(record.pop("terms", 30)))).isoformat()
    return record


if __name__ == "__main__":
    for name in sys.argv[1:]:
        path = Path(name)
        record = migrate(json.loads(path.read_text(encoding="utf-8")))
        path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
