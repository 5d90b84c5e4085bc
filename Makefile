# bidcheck — set-up, demo, tests. Every target installs what it needs on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: demo test lint typecheck unit run clean qt-libs office-deps java-deps mutants installer settings-doc

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/bidcheck demo --out demo-output

lint: $(STAMP)
	$(VENV)/bin/ruff check bidcheck tests bench
	$(VENV)/bin/ruff format --check bidcheck tests
	$(VENV)/bin/lint-imports --no-cache

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# Qt (the GUI and its offscreen tests) links a few system libraries that a bare Debian lacks;
# they are installed only when PySide6 cannot load (the list was tried on a minimal bookworm).
QT_LIBS := libegl1 libgl1 libx11-6 libxkbcommon0 libglib2.0-0 libfontconfig1 libfreetype6 libdbus-1-3
qt-libs: $(STAMP)
	@$(PY) -c "import PySide6.QtWidgets" 2>/dev/null || { \
		apt-get update -qq && apt-get install -y -qq --no-install-recommends $(QT_LIBS); }

# .doc/.wps/.rtf are read through LibreOffice Writer; the test PDFs embed WenQuanYi Micro Hei (a TrueType
# CJK font, so that their pages render alike on every machine for the OCR tests); the app shows Chinese
# in Noto CJK. Installed when missing (as root, with apt), else named for the user.
office-deps:
	@missing=""; \
	dpkg -s libreoffice-writer-nogui >/dev/null 2>&1 || dpkg -s libreoffice-writer >/dev/null 2>&1 \
		|| missing="libreoffice-writer-nogui"; \
	dpkg -s libreoffice-calc-nogui >/dev/null 2>&1 || dpkg -s libreoffice-calc >/dev/null 2>&1 \
		|| missing="$$missing libreoffice-calc-nogui"; \
	dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing="$$missing fonts-noto-cjk"; \
	dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || missing="$$missing fonts-wqy-microhei"; \
	dpkg -s fonts-crosextra-carlito >/dev/null 2>&1 || missing="$$missing fonts-crosextra-carlito"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else \
		echo "bidcheck's tests need LibreOffice Writer and Calc, CJK fonts and Carlito (Calibri's widths): install$$missing (e.g. sudo apt-get install$$missing)"; \
	fi

# bidcheck archive (a Spark job, tested in local mode) runs on Java 17: installed when missing.
java-deps:
	@java -version >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
				openjdk-17-jre-headless; \
		else echo "bidcheck archive's tests need Java 17 (e.g. sudo apt-get install openjdk-17-jre-headless)"; fi; }

unit: $(STAMP) qt-libs office-deps java-deps
	$(PY) -m pytest

run: $(STAMP) qt-libs
	$(VENV)/bin/bidcheck-gui

test: lint typecheck unit

# docs/settings.md, written from the settings' declarations (bidcheck/config/settings.py); a test holds it to them
settings-doc: $(STAMP)
	$(PY) -c "from bidcheck.config import settings_markdown; print(settings_markdown(), end='')" > docs/settings.md

# Mutation testing, not part of `make test`: mutmut plants one small bug at a time in compare/, evidence/,
# judge.py, text/, report/, signals/, library/, selfcheck/, workers.py and ingest/limits.py and runs the
# tests that reach it ([tool.mutmut] in pyproject.toml); a bug no test notices is a gap. It runs on a copy
# of the tree in build/mutation. MUTANTS picks the mutants by name: by default those whose number ends in 1
# (the first of each function and one in ten after; about two and a half hours on two cores, most of it
# signals/, whose tests check whole sections); one package's, e.g. MUTANTS='bidcheck.library.*__mutmut_*1';
# MUTANTS='*' tries every one (a day). The score is printed per module;
# `cd build/mutation && ../../.venv/bin/mutmut show NAME` shows what a surviving mutant changed.
MUTANTS ?= *__mutmut_*1
MUTATION := build/mutation
mutants: $(STAMP)
	rm -rf $(MUTATION) && mkdir -p $(MUTATION)
	cp -R pyproject.toml bidcheck tests bench dicts resources $(MUTATION)/
	cd $(MUTATION) && ../../$(VENV)/bin/mutmut run '$(MUTANTS)' > mutmut.log 2>&1 \
		|| { tail -c 3000 mutmut.log; exit 1; }
	cd $(MUTATION) && ../../$(PY) tests/mutation_score.py '$(MUTANTS)'

# The desktop bundle: dist/bidcheck/ with `bidcheck` and `bidcheck-gui`, runnable when copied alone to
# another machine of the same system (installer/bidcheck.spec; a minute and a half here, on two busy cores).
# tests/test_frozen.py runs it when it exists; installer/windows/build.ps1 builds the same on Windows.
installer: $(STAMP) qt-libs
	$(PY) -m pip install --quiet -e '.[dev,installer]'
	$(PY) -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller \
		installer/bidcheck.spec

clean:
	rm -rf $(VENV) demo-output dist .pytest_cache .ruff_cache .mypy_cache $(MUTATION)
