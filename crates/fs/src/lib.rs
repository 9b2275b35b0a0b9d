//! Files written safely, in one place: the data home's folders and files readable by their
//! owner alone ([`private_dir`], [`private_file`], [`make_private`]), and the one atomic write
//! every writer of a whole file uses ([`write_atomically`]): a temporary file with a unique name
//! beside the target, synced, then renamed over it — a reader never sees half a file, two
//! writers never share a temporary file, and a failure leaves the old file as it was.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// Who may read a file written with [`write_atomically`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The owner alone (0600): settings, keys, run records.
    Private,
    /// As the system's default for new files (the person's own documents: reports, plans).
    Shared,
}

/// Creates `dir` and its missing parents readable by the owner alone (0700), and tightens `dir`
/// itself to 0700 when it already existed more open.
pub fn private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    restrict(dir, 0o700)
}

/// Options that create a file readable by the owner alone (0600); add read, write, append,
/// create and truncate as needed.
pub fn private_file() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

/// Tightens an existing file to the owner alone (0600); a missing file is left missing.
pub fn make_private(path: &Path) -> io::Result<()> {
    match restrict(path, 0o600) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

#[cfg(unix)]
fn restrict(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let current = std::fs::metadata(path)?.permissions().mode() & 0o777;
    if current & !mode != 0 {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(current & mode))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn restrict(_path: &Path, _mode: u32) -> io::Result<()> {
    Ok(())
}

/// Replaces `path` with `bytes` atomically (see the crate documentation). The temporary file is
/// removed on every error path.
pub fn write_atomically(path: &Path, bytes: &[u8], access: Access) -> io::Result<()> {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // Hidden and ending in `.tmp`, so no lister takes it for the file it will become.
    let mut temp = tempfile::Builder::new().prefix(&format!(".{name}.")).suffix(".tmp").tempfile_in(dir)?;
    if access == Access::Shared {
        shared_permissions(temp.as_file(), path)?;
    }
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    sync_dir(dir);
    Ok(())
}

/// tempfile creates files 0600; a shared file gets what the file it replaces had, or the
/// system's default for a new file.
#[cfg(unix)]
fn shared_permissions(temp: &File, target: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = match std::fs::metadata(target) {
        Ok(existing) => existing.permissions().mode() & 0o777,
        Err(_) => 0o666 & !umask(),
    };
    temp.set_permissions(std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn shared_permissions(_temp: &File, _target: &Path) -> io::Result<()> {
    Ok(())
}

/// The process's umask, read from `/proc` (setting it to read it would race other threads).
#[cfg(unix)]
fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| status.lines().find_map(|line| line.strip_prefix("Umask:").map(|v| v.trim().to_owned())))
        .and_then(|octal| u32::from_str_radix(&octal, 8).ok())
        .unwrap_or(0o022)
}

/// The rename is durable once the folder is synced; a folder that cannot be synced (some file
/// systems refuse) still holds the renamed file.
fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn private_folders_and_files_are_the_owners_alone() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("a/b");
        private_dir(&home).unwrap();
        assert_eq!(mode(&home), 0o700);
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o755)).unwrap();
        private_dir(&home).unwrap();
        assert_eq!(mode(&home), 0o700, "an existing folder is tightened");
        let file = home.join("runs.db");
        private_file().write(true).create(true).truncate(true).open(&file).unwrap();
        assert_eq!(mode(&file), 0o600);
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        make_private(&file).unwrap();
        assert_eq!(mode(&file), 0o600);
        make_private(&home.join("missing")).unwrap();
    }

    #[test]
    fn atomic_writes_replace_whole_and_keep_the_access_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("keys.yaml");
        write_atomically(&secret, b"one", Access::Private).unwrap();
        assert_eq!(std::fs::read(&secret).unwrap(), b"one");
        assert_eq!(mode(&secret), 0o600);
        let report = dir.path().join("report.md");
        write_atomically(&report, b"# report", Access::Shared).unwrap();
        assert_eq!(mode(&report), 0o666 & !umask());
        std::fs::set_permissions(&report, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&report, b"# again", Access::Shared).unwrap();
        assert_eq!((std::fs::read(&report).unwrap(), mode(&report)), (b"# again".to_vec(), 0o640));
        let names: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert_eq!(names.len(), 2, "no temporary file is left: {names:?}");
    }

    #[test]
    fn concurrent_writers_never_share_a_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("draft.yaml");
        std::thread::scope(|scope| {
            for n in 0..8u8 {
                let target = &target;
                scope.spawn(move || {
                    for _ in 0..20 {
                        write_atomically(target, &vec![b'a' + n; 4096], Access::Shared).unwrap();
                    }
                });
            }
        });
        let written = std::fs::read(&target).unwrap();
        assert_eq!(written.len(), 4096);
        assert!(written.iter().all(|b| *b == written[0]), "one writer's whole text");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("settings.yaml");
        write_atomically(&target, b"old", Access::Private).unwrap();
        let missing_dir = dir.path().join("no/such/settings.yaml");
        assert!(write_atomically(&missing_dir, b"new", Access::Private).is_err());
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
    }
}
