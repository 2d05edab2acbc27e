"""Writes recipients.xls, the xls fixture of server/tests/api/recipients.rs.

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
