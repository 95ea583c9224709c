// Cells of every CSV or xlsx the server writes: a text a spreadsheet would run as a formula
// (a contact named `=HYPERLINK(...)`) gets a leading apostrophe, so it shows as typed.

/** Starts a spreadsheet reads as a formula (or as a cell break some readers honour). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The text of a cell, with a formula-like start neutralised by a leading apostrophe. */
export const spreadsheetText = (value: unknown): string => {
  const text = String(value ?? '');
  return FORMULA_START.test(text) ? `'${text}` : text;
};

/** One CSV cell: neutralised, quoted, inner quotes doubled. */
export const csvCell = (value: unknown): string =>
  `"${spreadsheetText(value).replace(/"/g, '""')}"`;
