//! A table kept as a file: Arrow IPC (LZ4-compressed), named by its SHA-256, so that a run's
//! record holds a large table once, as columns, and reads back exactly that table.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use arrow_ipc::reader::FileReader;
use arrow_ipc::writer::{FileWriter, IpcWriteOptions};
use arrow_ipc::CompressionType;
use sha2::{Digest, Sha256};

use crate::Table;

#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    #[error("the table file {path} cannot be written: {message}")]
    Write { path: String, message: String },
    #[error("the table file {path} cannot be read: {message}")]
    Read { path: String, message: String },
    #[error("the table file {path} is not the one recorded (its SHA-256 differs); the record was changed")]
    Changed { path: String },
}

/// Writes `table` to `path` and gives the file's SHA-256 (hex).
pub fn write_table_file(table: &Table, path: &Path) -> Result<String, TableFileError> {
    let failed = |message: String| TableFileError::Write { path: path.display().to_string(), message };
    let file = File::create(path).map_err(|e| failed(e.to_string()))?;
    let mut out = HashingWriter { inner: BufWriter::new(file), hash: Sha256::new() };
    let options = IpcWriteOptions::default()
        .try_with_compression(Some(CompressionType::LZ4_FRAME))
        .map_err(|e| failed(e.to_string()))?;
    let batch = table.batch();
    let mut writer =
        FileWriter::try_new_with_options(&mut out, &batch.schema(), options).map_err(|e| failed(e.to_string()))?;
    writer.write(batch).map_err(|e| failed(e.to_string()))?;
    writer.finish().map_err(|e| failed(e.to_string()))?;
    drop(writer);
    out.inner.flush().map_err(|e| failed(e.to_string()))?;
    Ok(format!("{:x}", out.hash.finalize()))
}

/// Reads the table at `path` back, refusing a file whose SHA-256 is not `sha256`.
pub fn read_table_file(path: &Path, sha256: &str) -> Result<Table, TableFileError> {
    let failed = |message: String| TableFileError::Read { path: path.display().to_string(), message };
    let mut file = File::open(path).map_err(|e| failed(e.to_string()))?;
    let mut hash = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let read = file.read(&mut buffer).map_err(|e| failed(e.to_string()))?;
        if read == 0 {
            break;
        }
        hash.update(&buffer[..read]);
    }
    if format!("{:x}", hash.finalize()) != sha256 {
        return Err(TableFileError::Changed { path: path.display().to_string() });
    }
    let file = File::open(path).map_err(|e| failed(e.to_string()))?;
    let reader = FileReader::try_new(BufReader::new(file), None).map_err(|e| failed(e.to_string()))?;
    let schema = reader.schema();
    let batches = reader.collect::<Result<Vec<_>, _>>().map_err(|e| failed(e.to_string()))?;
    let batch = arrow_select::concat::concat_batches(&schema, &batches).map_err(|e| failed(e.to_string()))?;
    Ok(Table::from_batch(batch))
}

struct HashingWriter<W> {
    inner: W,
    hash: Sha256,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(bytes)?;
        self.hash.update(&bytes[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{read_csv, CsvFormat};

    #[test]
    fn a_table_file_reads_back_the_same_rows_and_refuses_a_changed_file() {
        let text = "date,vendor,amount\n2026-04-01,山田商事,1200.50\n2026-04-02,\"Acme, Inc.\",-3.25\n,x,\n";
        let table = read_csv(text.as_bytes(), CsvFormat { delimiter: b',', has_header: true }, &|| false).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rows.arrow");
        let sha = write_table_file(&table, &path).unwrap();
        let back = read_table_file(&path, &sha).unwrap();
        assert_eq!(back.rows(), table.rows());
        assert_eq!(back.storage(), table.storage());
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        assert!(matches!(read_table_file(&path, &sha), Err(TableFileError::Changed { .. })));
    }
}
