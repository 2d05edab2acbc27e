"""Writes recipients.xls, the xls fixture of server/tests/api/recipients.rs, and two-sheets.xls:
the same first sheet beside a second whose two cells span a whole BIFF8 sheet (65,536 rows of
256 columns), which the server does not read.

No Rust crate writes the old binary Excel format, so this file is made once with Python's xlwt
(`pip install xlwt`, then `python3 make_xls.py`) and committed. The xlsx and csv fixtures are
made by the tests themselves.
"""
import xlwt

book = xlwt.Workbook()
sheet = book.add_sheet("Recipients")
rows = [
    ("Name", "phone"),
    ("Numeric cell", 201001234567),
    ("Text cell", " 966501234567 "),
    ("With a plus", "+15551234567"),
    ("Repeat", "201001234567"),
    ("Empty", ""),
    ("Last", "15551230000"),
]
for r, (name, phone) in enumerate(rows):
    sheet.write(r, 0, name)
    sheet.write(r, 1, phone)
book.save("recipients.xls")

notes = book.add_sheet("Notes")
notes.write(0, 0, "first")
notes.write(65535, 255, "last")
book.save("two-sheets.xls")
