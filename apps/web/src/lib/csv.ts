/**
 * CSV export for every list the app offers as a file (a session's tokens, the payments): one
 * quoting rule, one formula guard, one download.
 */

/** Cells a spreadsheet would run as a formula (=, @, +, - followed by a non-number). */
const FORMULA = /^(?:[=@\t\r]|[+-](?![\d\s(]))/;

/** One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; quotes doubled. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows to CSV text, lines ended by CRLF as RFC 4180 asks. */
export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** Offers `text` as a file download (UTF-8 with a BOM, so spreadsheets read accents right). */
export function downloadCsv(fileName: string, text: string): void {
  const blob = new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
