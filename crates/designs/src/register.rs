//! Registering a plan: an atomic, never-overwriting write into the designs folder.

use std::ffi::OsStr;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use time::OffsetDateTime;

use crate::name;
use crate::RegisterOutcome;

/// Why a plan could not be registered. Nothing was written, and no temporary file is left.
#[derive(Debug, thiserror::Error)]
pub enum RegisterError {
    /// The plan id does not match `^[a-z0-9][a-z0-9_-]*$` (at most 64 characters).
    #[error(
        "refusing to register plan id {id} in {}: {reason}. A plan id is 1 to 64 lower-case letters, digits, `_` \
         and `-`, starting with a letter or digit (like `invoice_dupes`); fix the plan's `id:` and register again",
        dir.display()
    )]
    InvalidId {
        /// The id as given, escaped and cut short when long.
        id: String,
        /// What is wrong with it.
        reason: &'static str,
        /// The designs folder.
        dir: PathBuf,
    },
    /// The registration time has a year that does not fit the four-digit stamp.
    #[error(
        "cannot register a plan in {} at year {year}: the file name stamp (yyyymmddHHMM) needs a year from 0000 \
         to 9999; check the computer's clock",
        dir.display()
    )]
    InvalidTime {
        /// The year of the time given.
        year: i32,
        /// The designs folder.
        dir: PathBuf,
    },
    /// A plan with different text is already registered under the same name.
    #[error(
        "a different plan is already registered as {}: the same plan id was registered with other text in this \
         same minute, and registered plans are never overwritten. Register again in a minute, which gives a new file \
         name; there is no need to change the plan or bump its version",
        path.display()
    )]
    Conflict {
        /// The registered file, left unchanged.
        path: PathBuf,
    },
    /// The name is taken by something that is not a registered plan file.
    #[error(
        "{} exists but is {kind}, not a registered plan file, and registering never writes through links or over \
         folders; move it out of the designs folder, then register again",
        path.display()
    )]
    NotAFile {
        /// The name in the designs folder.
        path: PathBuf,
        /// What it is: `a symbolic link`, `a folder`, `a special file`.
        kind: &'static str,
    },
    /// A file system operation failed.
    #[error(
        "cannot {action} {}: {source}; check that the designs folder is a folder you can write to and that the \
         disk is not full",
        path.display()
    )]
    Io {
        /// What was being done, as a verb phrase (`create the designs folder`).
        action: &'static str,
        /// The file or folder concerned.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
}

fn io_error<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> RegisterError + 'a {
    move |source| RegisterError::Io { action, path: path.to_path_buf(), source }
}

pub(crate) fn register(
    dir: &Path,
    plan_id: &str,
    text: &str,
    now: OffsetDateTime,
    newest: Option<&Path>,
) -> Result<RegisterOutcome, RegisterError> {
    let invalid = |reason| RegisterError::InvalidId { id: name::shown(plan_id), reason, dir: dir.to_path_buf() };
    name::check_id(plan_id).map_err(invalid)?;
    let stamp =
        name::stamp(now).ok_or_else(|| RegisterError::InvalidTime { year: now.year(), dir: dir.to_path_buf() })?;
    let file_name = name::registered_name(plan_id, &stamp);
    let path = dir.join(&file_name);
    // The id check already rules out separators and `..`; this is the contract, checked on the
    // path itself: the file is a direct child of the designs folder, named as computed.
    if path.parent() != Some(dir) || path.file_name() != Some(OsStr::new(&file_name)) {
        return Err(invalid("it would name a file outside the designs folder"));
    }

    if let Some(newest) = newest {
        if is_file_with(newest, text)? {
            return Ok(RegisterOutcome::AlreadyRegistered(newest.to_path_buf()));
        }
    }
    fs::create_dir_all(dir).map_err(io_error("create the designs folder", dir))?;
    if let Some(outcome) = existing(&path, text)? {
        return Ok(outcome);
    }

    // Written next to its final name so that the link below stays within one file system. The
    // name ends in `.tmp`, never `.yaml`, so a reader never takes it for a registered plan; it
    // is removed when `temp` drops, on every error path.
    let temp_prefix = format!(".{plan_id}_{stamp}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&temp_prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        // Like any new file (the umask applies), rather than tempfile's owner-only default.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o644));
    }
    let mut temp = builder.tempfile_in(dir).map_err(io_error("create a temporary file in", dir))?;
    temp.write_all(text.as_bytes()).map_err(io_error("write a temporary file in", dir))?;
    temp.as_file().sync_all().map_err(io_error("sync a temporary file in", dir))?;

    match temp.persist_noclobber(&path) {
        Ok(_) => {
            sync_dir(dir);
            tracing::info!(path = %path.display(), "registered plan");
            Ok(RegisterOutcome::Written(path))
        }
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => {
            // Someone registered the same name between the check and the link.
            drop(e.file);
            match existing(&path, text)? {
                Some(outcome) => Ok(outcome),
                None => Err(RegisterError::Io { action: "register the plan as", path, source: e.error }),
            }
        }
        Err(e) => Err(RegisterError::Io { action: "move the new plan into place as", path, source: e.error }),
    }
}

/// What is already at `path`: nothing (`None`), the same text, or an error.
fn existing(path: &Path, text: &str) -> Result<Option<RegisterOutcome>, RegisterError> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(RegisterError::Io { action: "look at", path: path.to_path_buf(), source: e }),
    };
    let file_type = meta.file_type();
    let kind = if file_type.is_symlink() {
        "a symbolic link"
    } else if file_type.is_dir() {
        "a folder"
    } else if !file_type.is_file() {
        "a special file"
    } else {
        return if meta.len() == text.len() as u64 && same_bytes(path, text.as_bytes())? {
            Ok(Some(RegisterOutcome::AlreadyRegistered(path.to_path_buf())))
        } else {
            Err(RegisterError::Conflict { path: path.to_path_buf() })
        };
    };
    Err(RegisterError::NotAFile { path: path.to_path_buf(), kind })
}

/// Whether `path` is a regular file holding exactly `text`. A link is never taken for a
/// registration, as in [`existing`].
fn is_file_with(path: &Path, text: &str) -> Result<bool, RegisterError> {
    match fs::symlink_metadata(path) {
        Ok(meta) => Ok(meta.is_file() && meta.len() == text.len() as u64 && same_bytes(path, text.as_bytes())?),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(RegisterError::Io { action: "look at", path: path.to_path_buf(), source: e }),
    }
}

fn same_bytes(path: &Path, expected: &[u8]) -> Result<bool, RegisterError> {
    let mut bytes = Vec::with_capacity(expected.len());
    fs::File::open(path)
        .and_then(|file| file.take(expected.len() as u64 + 1).read_to_end(&mut bytes))
        .map_err(io_error("read the registered plan", path))?;
    Ok(bytes == expected)
}

/// Makes the new name durable. Best effort: the plan is registered either way.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        if let Err(e) = fs::File::open(dir).and_then(|d| d.sync_all()) {
            tracing::warn!(dir = %dir.display(), error = %e, "could not sync the designs folder");
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
}
