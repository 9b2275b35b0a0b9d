//! Files written safely, in one place: the data home's folders and files readable by their
//! owner alone ([`private_dir`], [`private_file`], [`make_private`]), the one atomic write
//! every writer of a whole file uses ([`write_atomically`]): a temporary file with a unique name
//! beside the target, synced, then renamed over it — a reader never sees half a file, two
//! writers never share a temporary file, a failure leaves the old file as it was, and only a
//! regular file is ever replaced (never a link, a folder, a device or a pipe) — and the bounded
//! read of a file a person names ([`read_limited`]): a regular file only, at most its limit.

use std::fs::{File, FileType, OpenOptions};
use std::io::{self, Read, Write};
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
    #[cfg_attr(not(unix), allow(unused_mut))]
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
/// removed on every error path. Refused (`InvalidInput`) when something other than a regular
/// file is at `path`: see [`check_replaceable`].
pub fn write_atomically(path: &Path, bytes: &[u8], access: Access) -> io::Result<()> {
    check_replaceable(path)?;
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

/// Refuses (`InvalidInput`) a `path` that holds anything but a regular file: the rename would
/// put a file in place of a device (`/dev/full` as root), a pipe or a folder, and a link would be
/// replaced by a file where its owner expects a link. Nothing there yet is fine. For callers that
/// check a destination before long work, so that it is refused before the work rather than after.
pub fn check_replaceable(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(meta) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is {}, not a regular file, and is never replaced: give the path of a regular file, or of one \
                 to create",
                path.display(),
                kind_of(meta.file_type())
            ),
        )),
        // Nothing there (its folder missing too, or not a folder): the write says why it fails.
        Err(e) if matches!(e.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Reads the regular file at `path` (a link to one is followed), at most `limit` bytes. Looks
/// before opening: a pipe or a device might never end and opening a pipe waits for a writer, so
/// either is refused (`InvalidInput`) unopened, and the file is opened non-blocking should it be
/// swapped for a pipe meanwhile. More than `limit` bytes is refused (`FileTooLarge`) after
/// reading at most one byte more, whatever the file's size says (a file may grow).
pub fn read_limited(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "it is {}, not a regular file, and might never end: save its content to a file and give that",
                kind_of(meta.file_type())
            ),
        ));
    }
    let too_large = || io::Error::new(io::ErrorKind::FileTooLarge, format!("it is larger than {limit} bytes"));
    if meta.len() > limit {
        return Err(too_large());
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "it was replaced by something other than a file"));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// A file that is not a regular file, in words.
fn kind_of(file_type: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_block_device() || file_type.is_char_device() {
            return "a device";
        }
        if file_type.is_fifo() {
            return "a pipe";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_symlink() {
        "a symbolic link"
    } else if file_type.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
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

    fn mkfifo(path: &Path) {
        let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    }

    #[test]
    fn only_a_regular_file_is_ever_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "kept").unwrap();
        let link = dir.path().join("link.yaml");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let dangling = dir.path().join("dangling.yaml");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        let pipe = dir.path().join("pipe.yaml");
        mkfifo(&pipe);
        let folder = dir.path().join("folder.yaml");
        std::fs::create_dir(&folder).unwrap();
        for (path, kind) in
            [(&link, "a symbolic link"), (&dangling, "a symbolic link"), (&pipe, "a pipe"), (&folder, "a folder")]
        {
            let error = write_atomically(path, b"new", Access::Shared).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{}", path.display());
            assert!(error.to_string().contains(&format!("is {kind}, not a regular file")), "{error}");
        }
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is still a link");
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "kept", "nothing written through the link");
        assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        assert!(!dir.path().join("nowhere").exists(), "nothing created where a dangling link points");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo());
        assert!(folder.is_dir());
        // A device is only looked at here: replacing one (as root) is what must never happen.
        let device = check_replaceable(Path::new("/dev/full")).unwrap_err();
        assert!(device.to_string().contains("is a device, not a regular file"), "{device}");
        let names: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert_eq!(names.len(), 5, "no temporary file is left: {names:?}");
    }

    #[test]
    fn reads_are_of_regular_files_and_never_more_than_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("answers.yaml");
        mkfifo(&pipe);
        for (path, kind) in [(&pipe, "a pipe"), (&dir.path().to_path_buf(), "a folder")] {
            let error = read_limited(path, 1024).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{}", path.display());
            assert!(error.to_string().contains(&format!("it is {kind}, not a regular file")), "{error}");
        }
        let zero = read_limited(Path::new("/dev/zero"), 1024).unwrap_err();
        assert!(zero.to_string().contains("it is a device, not a regular file"), "{zero}");
        let file = dir.path().join("instruction.txt");
        std::fs::write(&file, vec![b'a'; 1024]).unwrap();
        assert_eq!(read_limited(&file, 1024).unwrap().len(), 1024, "the limit itself is allowed");
        let over = read_limited(&file, 1023).unwrap_err();
        assert_eq!(over.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(over.to_string(), "it is larger than 1023 bytes");
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_limited(&link, 1024).unwrap().len(), 1024, "a link to a file is read");
        assert_eq!(read_limited(&dir.path().join("missing"), 1).unwrap_err().kind(), io::ErrorKind::NotFound);
    }
}
