"""The documents a newcomer reads first stay true to the project: the README a front door, its links
alive, the architecture's layout naming every module and package of ``bidcheck/``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README_MOST_LINES = 250


def _layout() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index("## Layout")
    block = text.index("```", start)
    return text[block + 3 : text.index("```", block + 3)]


def test_the_layout_names_every_module_and_package_of_the_core() -> None:
    layout = _layout()
    core = ROOT / "bidcheck"
    modules = sorted(p.name for p in core.glob("*.py") if p.name != "__init__.py")
    packages = sorted(f"{p.name}/" for p in core.iterdir() if (p / "__init__.py").exists())
    named = [name for name in [*modules, *packages] if re.search(rf"(?<![\w/]){re.escape(name)}", layout)]
    missing = sorted(set(modules + packages) - set(named))
    assert not missing, f"docs/architecture.md's layout does not name: {missing}"


def test_the_readme_is_a_front_door_whose_links_lead_somewhere() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_MOST_LINES
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert local, "the README links to no document"
    assert [link for link in local if not (ROOT / link).exists()] == []


def test_every_document_under_docs_is_listed_in_its_index() -> None:
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    documents = sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.name != "README.md")
    assert [name for name in documents if f"({name})" not in index] == []


def test_every_benchmark_is_listed_in_the_bench_readme() -> None:
    listed = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    modules = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if p.stem != "__init__")
    assert [name for name in modules if f"`{name}`" not in listed] == []


def test_the_settings_page_is_written_from_the_settings_declarations() -> None:
    from bidcheck.config import settings_markdown

    page = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    assert page == settings_markdown(), "docs/settings.md is out of date: run `make settings-doc`"


def test_every_benchmark_record_is_listed_in_the_records_index() -> None:
    index = (ROOT / "docs" / "benchmarks" / "README.md").read_text(encoding="utf-8")
    records = sorted(p.name for p in (ROOT / "docs" / "benchmarks").glob("*.md") if p.name != "README.md")
    assert records and [name for name in records if f"({name})" not in index] == []
