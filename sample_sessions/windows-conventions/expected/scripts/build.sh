#!/usr/bin/env bash
# Builds the inventory tool on the Linux and macOS CI runners.
set -euo pipefail
cd "$(dirname "$0")/.."

configuration="${1:-Release}"
dotnet restore src/Inventory/Inventory.csproj
dotnet build src/Inventory/Inventory.csproj -c "$configuration" --no-restore
