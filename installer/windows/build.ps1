# Builds the Windows installer on a Windows PC: PyInstaller freezes the app into dist\bidcheck (the spec
# that `make installer` builds and tests on Linux), then Inno Setup wraps the folder in
# dist\bidcheck-VERSION-setup.exe. Needs Python 3.11 or later and Inno Setup 6 (ISCC.exe).
$ErrorActionPreference = "Stop"
Set-Location (Resolve-Path "$PSScriptRoot\..\..")

if (-not (Test-Path .venv)) { python -m venv .venv }
$python = ".venv\Scripts\python.exe"
& $python -m pip install --quiet --upgrade pip
& $python -m pip install --quiet -e ".[installer]"
if ($LASTEXITCODE) { throw "pip failed ($LASTEXITCODE)" }

& $python -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build\pyinstaller `
    installer\bidcheck.spec
if ($LASTEXITCODE) { throw "PyInstaller failed ($LASTEXITCODE)" }
$version = (& dist\bidcheck\bidcheck.exe --version).Split(" ")[1]

$iscc = (Get-Command ISCC.exe -ErrorAction SilentlyContinue).Source
if (-not $iscc) { $iscc = Join-Path ${env:ProgramFiles(x86)} "Inno Setup 6\ISCC.exe" }
& $iscc "/DAppVersion=$version" installer\windows\bidcheck.iss
if ($LASTEXITCODE) { throw "Inno Setup failed ($LASTEXITCODE)" }
Write-Host "dist\bidcheck-$version-setup.exe"
