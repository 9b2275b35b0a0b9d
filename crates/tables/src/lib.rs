//! Planwright's tables as typed columns: each column one Apache Arrow array of one kind — text,
//! whole numbers, decimals of one scale kept exact, or dates — instead of a JSON object per row.
//!
//! This crate reads CSV text into a [`Table`] ([`read_csv`]) and gives back the rows it stands
//! for ([`Table::rows`]), exactly as the blocks have always seen them: a cell that is a plain
//! number ([`plain_number`]) as a JSON number, every other cell as its text. A column is stored
//! as numbers only when every non-empty cell of it reads the same way (all whole, or all with
//! the same number of decimals), and as dates only when every one is a calendar date written
//! `YYYY-MM-DD` (which it reads back as), so nothing a row says is lost by the storage.
//!
//! A table is kept as a file by [`write_table_file`] (Arrow IPC, named by its SHA-256) and read
//! back by [`read_table_file`].
//!
//! Must not know blocks, plans, runs or files: it is handed text and cancellation, and answers
//! with tables and errors.

mod cell_column;
mod csv_read;
mod names;
mod rows;
mod table;
mod table_file;

pub use cell_column::CellColumn;
pub use csv_read::{read_csv, CsvError, CsvFormat};
pub use names::unique_names;
pub use rows::plain_number;
pub use table::{JoinedColumn, Storage, Table};
pub use table_file::{read_table_file, write_table_file, TableFileError};
