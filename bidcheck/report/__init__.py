"""Writing the result: the JSON file and the Excel workbook."""

from bidcheck.report.json import write_json
from bidcheck.report.xlsx import write_xlsx

__all__ = ["write_json", "write_xlsx"]
