//! A CSV file's bytes as UTF-8 text, decoded as they are read (the file is never held whole, nor
//! a decoded copy of it): a byte-order mark wins over the encoding named; a file that is clearly
//! in another Japanese encoding than the one named is refused with the fix; a few bad bytes
//! become `�` with a warning naming the line of the first.

use std::io::{self, Read};
use std::path::Path;

use encoding_rs::{CoderResult, Decoder, Encoding, SHIFT_JIS, UTF_8};
use planwright_block::BlockError;
use planwright_runs::{Reason, RunMessage};
use sha2::{Digest, Sha256};

use crate::files::MAX_CSV_BYTES;

/// Bytes read from the file at a time.
const CHUNK: usize = 1 << 20;
/// The replacement character in UTF-8.
const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// The text of a file as it is read, in UTF-8, through `encoding`'s decoder.
pub(crate) struct DecodedText<R> {
    file: R,
    decoder: Decoder,
    input: Vec<u8>,
    /// The part of `input` not yet decoded.
    pending: std::ops::Range<usize>,
    output: Vec<u8>,
    /// The part of `output` not yet handed out.
    ready: std::ops::Range<usize>,
    file_done: bool,
    decoder_done: bool,
    bytes_read: u64,
    had_errors: bool,
    /// Newlines handed out before the first `�`, once one was decoded.
    lines_before_replacement: usize,
    first_replacement_line: Option<usize>,
    /// The SHA-256 of the bytes read so far: what a run's record keeps to know the file again.
    hash: Sha256,
}

impl<R: Read> DecodedText<R> {
    /// The file decoded in `encoding`, or in the encoding of its byte-order mark.
    pub(crate) fn new(file: R, encoding: &'static Encoding) -> DecodedText<R> {
        DecodedText::with_decoder(file, encoding.new_decoder())
    }

    fn with_decoder(file: R, decoder: Decoder) -> DecodedText<R> {
        DecodedText {
            file,
            decoder,
            input: vec![0; CHUNK],
            pending: 0..0,
            output: vec![0; CHUNK * 3 + 16],
            ready: 0..0,
            file_done: false,
            decoder_done: false,
            bytes_read: 0,
            had_errors: false,
            lines_before_replacement: 0,
            first_replacement_line: None,
            hash: Sha256::new(),
        }
    }

    /// The encoding the text was read in (a byte-order mark's, when the file had one), whether
    /// some bytes were not in it, and the line (1-based) of the first `�`.
    pub(crate) fn outcome(&self) -> (&'static Encoding, bool, usize) {
        (self.decoder.encoding(), self.had_errors, self.first_replacement_line.unwrap_or(1))
    }

    /// The SHA-256 (hex) of the file's bytes, once it was read to its end.
    pub(crate) fn sha256(&self) -> String {
        format!("{:x}", self.hash.clone().finalize())
    }

    /// Decodes the next piece of the file into `output`; false at the end.
    fn fill(&mut self) -> io::Result<bool> {
        while self.ready.is_empty() {
            if self.decoder_done {
                return Ok(false);
            }
            if self.pending.is_empty() && !self.file_done {
                let n = self.file.read(&mut self.input)?;
                self.bytes_read += n as u64;
                self.hash.update(&self.input[..n]);
                if self.bytes_read > MAX_CSV_BYTES {
                    return Err(io::Error::other("the file grew past the read limit while it was read"));
                }
                self.pending = 0..n;
                self.file_done = n == 0;
            }
            let last = self.file_done;
            let (result, read, written, had_errors) =
                self.decoder.decode_to_utf8(&self.input[self.pending.clone()], &mut self.output, last);
            self.pending.start += read;
            self.had_errors |= had_errors;
            self.ready = 0..written;
            self.note_replacement(written);
            if last && result == CoderResult::InputEmpty && self.pending.is_empty() {
                self.decoder_done = true;
            }
        }
        Ok(true)
    }

    /// Counts lines up to the first `�` in the piece just decoded.
    fn note_replacement(&mut self, written: usize) {
        if self.first_replacement_line.is_some() {
            return;
        }
        let piece = &self.output[..written];
        match piece.windows(REPLACEMENT.len()).position(|w| w == REPLACEMENT) {
            Some(at) => {
                let lines = self.lines_before_replacement + piece[..at].iter().filter(|b| **b == b'\n').count();
                self.first_replacement_line = Some(lines + 1);
            }
            None => self.lines_before_replacement += piece.iter().filter(|b| **b == b'\n').count(),
        }
    }
}

impl<R: Read> Read for DecodedText<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.fill()? {
            return Ok(0);
        }
        let n = buf.len().min(self.ready.len());
        buf[..n].copy_from_slice(&self.output[self.ready.start..self.ready.start + n]);
        self.ready.start += n;
        Ok(n)
    }
}

/// What to do about a file whose bytes were not all in the encoding it was read in: refuse it
/// when it is wholly in the other encoding (the fix named), else a warning.
pub(crate) fn bad_bytes_verdict(
    path: &Path,
    shown: &str,
    used: &'static Encoding,
    first_bad_line: usize,
) -> Result<String, BlockError> {
    if used == UTF_8 && decodes_cleanly(path, SHIFT_JIS)? {
        return Err(BlockError::input(format!(
            "`encoding`: {shown} is not UTF-8; it looks like Shift_JIS (usual for files from Japanese banks and \
             accounting systems) — set encoding: shift_jis"
        )));
    }
    if used != UTF_8 && decodes_cleanly(path, UTF_8)? {
        return Err(BlockError::input(format!(
            "`encoding`: {shown} is not {}; it is UTF-8 — set encoding: utf-8",
            used.name()
        )));
    }
    Ok(format!(
        "{shown} is not valid {} (first bad character on line {first_bad_line}); unreadable characters were replaced \
         with \u{FFFD} — if much of the text is garbled, set `encoding` to the file's encoding (utf-8, shift_jis, \
         euc-jp)",
        used.name()
    ))
}

/// Whether every byte of the file is text in `encoding` (a byte-order mark not looked for), read
/// again a piece at a time.
fn decodes_cleanly(path: &Path, encoding: &'static Encoding) -> Result<bool, BlockError> {
    let failed = |e: io::Error| BlockError::failed(format!("cannot read the file again to tell its encoding: {e}"));
    let file = std::fs::File::open(path).map_err(failed)?;
    let mut text = DecodedText::with_decoder(file, encoding.new_decoder_without_bom_handling());
    io::copy(&mut text, &mut io::sink()).map_err(failed)?;
    Ok(!text.had_errors)
}

/// A read error of the file, as the block says it.
pub(crate) fn unreadable(shown: &str, e: &io::Error) -> BlockError {
    let said = RunMessage::FileUnreadable { path: shown.to_owned() };
    BlockError::failed(Reason::said(said, format!("cannot read {shown}: {e}")))
}

#[cfg(test)]
mod tests {
    use encoding_rs::EUC_JP;

    use super::*;

    fn decode(bytes: &[u8], encoding: &'static Encoding) -> (String, &'static Encoding, bool, usize) {
        let mut text = DecodedText::new(bytes, encoding);
        let mut out = String::new();
        text.read_to_string(&mut out).unwrap();
        let (used, had_errors, line) = text.outcome();
        (out, used, had_errors, line)
    }

    #[test]
    fn shift_jis_and_a_bom_are_decoded_as_whole_decoding_would() {
        let (sjis, _, _) = SHIFT_JIS.encode("取引先,金額\n株式会社サンプル,1200\n");
        assert_eq!(decode(&sjis, SHIFT_JIS).0, "取引先,金額\n株式会社サンプル,1200\n");
        let bom = b"\xEF\xBB\xBFa,b\n1,2\n";
        let (text, used, had_errors, _) = decode(bom, EUC_JP);
        assert_eq!((text.as_str(), used, had_errors), ("a,b\n1,2\n", UTF_8, false));
    }

    #[test]
    fn the_line_of_the_first_bad_byte_is_counted_across_pieces() {
        let mut bytes = "a\n".repeat(CHUNK).into_bytes();
        bytes.extend_from_slice(b"x\xFFy\n");
        let (_, _, had_errors, line) = decode(&bytes, UTF_8);
        assert!(had_errors);
        assert_eq!(line, CHUNK + 1);
    }
}
