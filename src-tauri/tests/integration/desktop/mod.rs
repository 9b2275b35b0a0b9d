//! Starting a `planwright-studio` binary on a virtual display (Xvfb, no GPU) in a home of its
//! own, waiting until its page has loaded and its window has painted, and screenshots of the
//! display. Shared by the smoke test (the binary cargo built) and the install test (the binary
//! the `.deb` installs).
//!
//! Needs Xvfb, xwininfo and ImageMagick (`ensure_desktop_deps` in `scripts/ensure-tools`).

// Each test binary compiles this module and uses a part of it.
#![allow(dead_code)]

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The display's size: the window's default size, so a window that painted nothing leaves the
/// whole screenshot one colour.
const SCREEN: &str = "1280x800x24";
const READY: &str = "planwright-studio: ready";
const START_DEADLINE: Duration = Duration::from_secs(60);
const PAINT_DEADLINE: Duration = Duration::from_secs(30);
/// For the UI's first answers to come in after the first paint.
const SETTLE: Duration = Duration::from_secs(1);

/// A child process killed when dropped, also when the test panics.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts Xvfb on the first free display and returns it with the display's name (`:N`).
pub fn start_xvfb() -> (Killed, String) {
    let mut xvfb = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", SCREEN, "-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb runs (apt install xvfb; scripts/ensure-tools: ensure_desktop_deps)");
    let stdout = xvfb.stdout.take().expect("Xvfb's stdout");
    let xvfb = Killed(xvfb);
    let mut number = String::new();
    BufReader::new(stdout).read_line(&mut number).expect("Xvfb prints its display number");
    let number = number.trim();
    assert!(!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()), "Xvfb gave no display: {number:?}");
    (xvfb, format!(":{number}"))
}

pub fn artifacts_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is <target dir>/tmp.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("the target dir").join("artifacts");
    std::fs::create_dir_all(&dir).expect("create target/artifacts");
    dir
}

/// Saves a screenshot of the whole display to `path` and returns the path.
pub fn screenshot<'p>(display: &str, path: &'p Path) -> &'p Path {
    let status = Command::new("import")
        .args(["-display", display, "-window", "root"])
        .arg(path)
        .status()
        .expect("ImageMagick's import runs");
    assert!(status.success(), "import could not take the screenshot");
    path
}

/// How many distinct colours the image has (ImageMagick's `%k`).
pub fn colours(image: &Path) -> u64 {
    let out =
        Command::new("identify").args(["-format", "%k"]).arg(image).output().expect("ImageMagick's identify runs");
    assert!(out.status.success(), "identify failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().parse().expect("identify prints a number")
}

/// A studio window that has loaded its page and painted, killed when dropped.
pub struct OpenStudio {
    pub app: Killed,
    stderr: PathBuf,
}

impl OpenStudio {
    /// What the app wrote on standard error so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// Panics when the app has ended.
    pub fn assert_running(&mut self) {
        assert!(self.app.0.try_wait().expect("the app's status").is_none(), "the app ended:\n{}", self.stderr());
    }
}

/// Starts `binary` on `display` with `home` as its home (the workspace, settings, run data and
/// remembered window state stay in it), waits for its ready line, its window named Planwright
/// and a painted screen, then saves a screenshot to `shot` a moment later.
pub fn open_studio(binary: &Path, display: &str, home: &Path, shot: &Path) -> OpenStudio {
    let stderr = home.join("studio.stderr");
    let started = Instant::now();
    let mut app = Command::new(binary)
        .env("DISPLAY", display)
        .env_remove("WAYLAND_DISPLAY")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("PLANWRIGHT_HOME", home.join("planwright"))
        // No GPU on a virtual display: WebKitGTK paints in software.
        .env("WEBKIT_DISABLE_COMPOSITING_MODE", "1")
        .env("WEBKIT_DISABLE_DMABUF_RENDERER", "1")
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .env("NO_AT_BRIDGE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(File::create(&stderr).expect("create the stderr file"))
        .spawn()
        .unwrap_or_else(|e| panic!("start {}: {e}", binary.display()));
    let stdout = app.stdout.take().expect("the app's stdout");
    let mut studio = OpenStudio { app: Killed(app), stderr };
    let (lines, ready) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });

    // The page has loaded.
    loop {
        match ready.recv_timeout(Duration::from_millis(200)) {
            Ok(line) if line.starts_with(READY) => break,
            Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let status = studio.app.0.wait().expect("the app's exit status");
                panic!("{} ended ({status}) before its page loaded:\n{}", binary.display(), studio.stderr());
            }
        }
        assert!(started.elapsed() < START_DEADLINE, "no ready line within {START_DEADLINE:?}:\n{}", studio.stderr());
    }
    let to_ready = started.elapsed();

    // The window is on the display, under its title.
    let window = Command::new("xwininfo")
        .args(["-display", display, "-name", "Planwright"])
        .output()
        .expect("xwininfo runs (apt install x11-utils)");
    assert!(window.status.success(), "no window named Planwright: {}", String::from_utf8_lossy(&window.stderr));

    // It has painted: the screenshot is not one flat colour. The one kept is taken a moment
    // later, when the UI's first answers have come in.
    while colours(screenshot(display, shot)) <= 1 {
        assert!(
            started.elapsed() < START_DEADLINE + PAINT_DEADLINE,
            "the window stayed one flat colour: {}",
            shot.display()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    std::thread::sleep(SETTLE);
    screenshot(display, shot);
    eprintln!("{}: page loaded after {to_ready:?}; screenshot {}", binary.display(), shot.display());
    studio
}
