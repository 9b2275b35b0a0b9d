//! Excel text through calamine: the first worksheet (or all on request), from the top-left
//! of its used range, at most `max_rows` × `max_columns` cells, one row a line with cells joined
//! by ` | `. An .xlsx sheet is streamed and reading stops below the bound, so a sheet of a
//! million rows costs no more than its first rows.

use std::collections::BTreeMap;
use std::io::Cursor;

use calamine::{Data, Reader, SheetType, SheetVisible, Xls, Xlsb, Xlsx};

use crate::limits::Limits;
use crate::outcome::{Extracted, Unreadable};

/// The cells read from one sheet, by row then column, relative to the used range's top-left.
struct Grid {
    rows: BTreeMap<u32, Vec<(u32, String)>>,
    /// Rows and columns of the used range, when known.
    height: Option<u32>,
    width: Option<u32>,
    rows_cut: bool,
    columns_cut: bool,
}

pub(crate) fn xlsx(bytes: &[u8], limits: &Limits) -> Result<Extracted, Unreadable> {
    let mut book: Xlsx<_> = calamine::open_workbook_from_rs(Cursor::new(bytes))
        .map_err(|e: calamine::XlsxError| invalid(&e.to_string()))?;
    let names = chosen_sheets(book.sheets_metadata(), limits.all_sheets);
    let mut grids = Vec::new();
    for name in &names.read {
        grids.push((name.clone(), xlsx_grid(&mut book, name, limits)?));
    }
    Ok(render(grids, &names.left, limits))
}

pub(crate) fn xls(bytes: &[u8], limits: &Limits) -> Result<Extracted, Unreadable> {
    let mut book: Xls<_> = calamine::open_workbook_from_rs(Cursor::new(bytes)).map_err(|e| match e {
        calamine::XlsError::Password => encrypted(),
        e => invalid(&e.to_string()),
    })?;
    let (grids, left) = ranged(&mut book, limits)?;
    Ok(render(grids, &left, limits))
}

pub(crate) fn xlsb(bytes: &[u8], limits: &Limits) -> Result<Extracted, Unreadable> {
    let mut book: Xlsb<_> = calamine::open_workbook_from_rs(Cursor::new(bytes))
        .map_err(|e: calamine::XlsbError| invalid(&e.to_string()))?;
    let (grids, left) = ranged(&mut book, limits)?;
    Ok(render(grids, &left, limits))
}

struct Chosen {
    read: Vec<String>,
    left: Vec<String>,
}

/// The worksheets to read: all, or the first visible one (chart and macro sheets hold no cells).
fn chosen_sheets(meta: &[calamine::Sheet], all: bool) -> Chosen {
    let worksheets: Vec<&calamine::Sheet> = meta.iter().filter(|s| s.typ == SheetType::WorkSheet).collect();
    if all {
        return Chosen { read: worksheets.iter().map(|s| s.name.clone()).collect(), left: Vec::new() };
    }
    let first = worksheets.iter().find(|s| s.visible == SheetVisible::Visible).or(worksheets.first());
    let read: Vec<String> = first.map(|s| s.name.clone()).into_iter().collect();
    let left = worksheets.iter().map(|s| s.name.clone()).filter(|n| !read.contains(n)).collect();
    Chosen { read, left }
}

fn xlsx_grid<RS: std::io::Read + std::io::Seek>(
    book: &mut Xlsx<RS>,
    name: &str,
    limits: &Limits,
) -> Result<Grid, Unreadable> {
    let mut reader = book.worksheet_cells_reader(name).map_err(|e| invalid(&e.to_string()))?;
    let dims = reader.dimensions();
    // A sheet without a <dimension> reports (0,0)-(0,0); then the first cell sets the origin.
    let declared = dims.end != (0, 0);
    let mut origin: Option<(u32, u32)> = declared.then_some(dims.start);
    let mut grid = Grid {
        rows: BTreeMap::new(),
        height: declared.then(|| dims.end.0 - dims.start.0 + 1),
        width: declared.then(|| dims.end.1 - dims.start.1 + 1),
        rows_cut: false,
        columns_cut: false,
    };
    while let Some(cell) = reader.next_cell().map_err(|e| invalid(&e.to_string()))? {
        let value = Data::from(cell.get_value().clone());
        if matches!(value, Data::Empty) {
            continue;
        }
        let (row, col) = cell.get_position();
        let (top, left) = *origin.get_or_insert((row, col));
        let (r, c) = (row.saturating_sub(top), col.saturating_sub(left));
        if r >= limits.max_rows {
            // Excel writes rows in order: nothing after this is within the bound.
            grid.rows_cut = true;
            break;
        }
        if c >= limits.max_columns {
            grid.columns_cut = true;
            continue;
        }
        grid.rows.entry(r).or_default().push((c, cell_text(&value)));
    }
    Ok(grid)
}

type Sheets = (Vec<(String, Grid)>, Vec<String>);

/// .xls and .xlsb: whole sheets through calamine's ranges (the formats are small: .xls holds
/// 65,536 rows at most).
fn ranged<RS, R>(book: &mut R, limits: &Limits) -> Result<Sheets, Unreadable>
where
    RS: std::io::Read + std::io::Seek,
    R: Reader<RS>,
    R::Error: std::fmt::Display,
{
    let names = chosen_sheets(book.sheets_metadata(), limits.all_sheets);
    let mut grids = Vec::new();
    for name in &names.read {
        let range = book.worksheet_range(name).map_err(|e| invalid(&e.to_string()))?;
        let (height, width) = range.get_size();
        let mut grid = Grid {
            rows: BTreeMap::new(),
            height: Some(height as u32),
            width: Some(width as u32),
            rows_cut: height > limits.max_rows as usize,
            columns_cut: width > limits.max_columns as usize,
        };
        for (r, row) in range.rows().take(limits.max_rows as usize).enumerate() {
            for (c, value) in row.iter().take(limits.max_columns as usize).enumerate() {
                if !matches!(value, Data::Empty) {
                    grid.rows.entry(r as u32).or_default().push((c as u32, cell_text(value)));
                }
            }
        }
        grids.push((name.clone(), grid));
    }
    Ok((grids, names.left))
}

fn render(grids: Vec<(String, Grid)>, left: &[String], limits: &Limits) -> Extracted {
    let mut out = Extracted { sheets: u32::try_from(grids.len() + left.len()).ok(), ..Extracted::default() };
    let mut blocks = Vec::new();
    for (name, grid) in grids {
        let mut lines = vec![format!("[sheet: {name}]")];
        for cells in grid.rows.values() {
            let width = cells.iter().map(|(c, _)| *c as usize + 1).max().unwrap_or(0);
            let mut row = vec![""; width];
            for (c, text) in cells {
                row[*c as usize] = text.as_str();
            }
            lines.push(row.join(" | ").trim_end().to_string());
        }
        blocks.push(lines.join("\n"));
        if grid.rows_cut {
            out.truncated = true;
            let of = grid.height.filter(|h| *h > limits.max_rows).map_or(String::new(), |h| format!(" of {h}"));
            out.notes
                .push(format!("sheet {name}: first {} rows{of} read (raise max_rows to read more)", limits.max_rows));
        }
        if grid.columns_cut {
            out.truncated = true;
            let of = grid.width.filter(|w| *w > limits.max_columns).map_or(String::new(), |w| format!(" of {w}"));
            out.notes.push(format!("sheet {name}: first {} columns{of} read", limits.max_columns));
        }
    }
    if !left.is_empty() {
        out.notes.push(format!(
            "only the first sheet read; {} more not read ({}) — set all_sheets to read them",
            left.len(),
            left.join(", ")
        ));
    }
    out.text = blocks.join("\n\n");
    out
}

/// A cell as people see it: numbers without a trailing `.0`, dates as `2024-04-05`.
fn cell_text(value: &Data) -> String {
    match value {
        Data::DateTime(dt) if !dt.is_duration() => {
            let (y, m, d, hh, mm, ss, _) = dt.to_ymd_hms_milli();
            if dt.as_f64() < 1.0 {
                format!("{hh:02}:{mm:02}:{ss:02}")
            } else if (hh, mm, ss) == (0, 0, 0) {
                format!("{y:04}-{m:02}-{d:02}")
            } else {
                format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02}:{ss:02}")
            }
        }
        Data::DateTimeIso(s) => s.strip_suffix("T00:00:00").unwrap_or(s).replacen('T', " ", 1),
        other => other.to_string().replace(['\n', '\r'], " "),
    }
}

fn invalid(detail: &str) -> Unreadable {
    if detail.to_ascii_lowercase().contains("password") || detail.to_ascii_lowercase().contains("encrypt") {
        return encrypted();
    }
    Unreadable::new(format!("not a valid Excel file ({detail})")).hint("open it in Excel and save it again as .xlsx")
}

fn encrypted() -> Unreadable {
    Unreadable::new("encrypted (password-protected workbook)").hint("save a copy without a password to read it")
}
