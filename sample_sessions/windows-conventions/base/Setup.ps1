# Sets up a Windows developer machine for the inventory tool.
# Run from a PowerShell prompt: .\Setup.ps1
[CmdletBinding()]
param(
    [string]$DataDir = "$env:LOCALAPPDATA\Inventory"
)

$ErrorActionPreference = 'Stop'

if (-not (Get-Command dotnet -ErrorAction SilentlyContinue)) {
    Write-Error "The .NET SDK is not installed: https://dot.net/download"
}

New-Item -ItemType Directory -Force -Path $DataDir | Out-Null
Copy-Item -Path "$PSScriptRoot\src\Inventory\appsettings.json" -Destination $DataDir -Force

Write-Host "✓ Inventory data folder: $DataDir"
