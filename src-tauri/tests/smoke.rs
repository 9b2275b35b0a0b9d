//! The desktop smoke test: starts the real `planwright-studio` binary on a virtual display
//! (Xvfb, no GPU), waits until its page has loaded, saves a screenshot of the display to
//! `target/artifacts/studio-smoke.png`, checks that the window painted something (the
//! screenshot is not one flat colour), and closes the app. Its workspace starts with a draft
//! whose plan the design engine generated (through the studio API, as the Design tab does), so
//! the window opens on the Design tab with that plan, its chat and its candidates: a moment
//! later that is `target/artifacts/studio-design.png`.
//!
//! Needs Xvfb, xwininfo and ImageMagick (`ensure_desktop_deps` in `scripts/ensure-tools`) and a
//! built `ui/dist`, which the binary embeds; `scripts/desktop-smoke` provides all three.

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
const SETTLE: Duration = Duration::from_secs(1);
/// For the draft, the candidates and the graph to arrive after the first paint.
const DESIGN_SETTLE: Duration = Duration::from_secs(3);

/// A child process killed when dropped, also when the test panics.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts Xvfb on the first free display and returns it with the display's name (`:N`).
fn start_xvfb() -> (Killed, String) {
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

fn artifacts_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is <target dir>/tmp.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("the target dir").join("artifacts");
    std::fs::create_dir_all(&dir).expect("create target/artifacts");
    dir
}

/// Saves a screenshot of the whole display to `path` and returns the path.
fn screenshot<'p>(display: &str, path: &'p Path) -> &'p Path {
    let status = Command::new("import")
        .args(["-display", display, "-window", "root"])
        .arg(path)
        .status()
        .expect("ImageMagick's import runs");
    assert!(status.success(), "import could not take the screenshot");
    path
}

/// How many distinct colours the image has (ImageMagick's `%k`).
fn colours(image: &Path) -> u64 {
    let out =
        Command::new("identify").args(["-format", "%k"]).arg(image).output().expect("ImageMagick's identify runs");
    assert!(out.status.success(), "identify failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().parse().expect("identify prints a number")
}

/// A draft in `workspace` holding a generated plan and its design session, as the Design tab
/// leaves one after a generation.
fn seed_generated_draft(workspace: &Path, data_home: &Path) {
    use planwright_api::{DataHome, GenerateRequest, GenerationEvent, KeyStore, PlanText, Studio, StudioConfig};
    let studio = Studio::open(StudioConfig {
        workspace: Some(workspace.to_path_buf()),
        data_home: Some(DataHome::at(data_home)),
        key_store: KeyStore::File,
    })
    .expect("open the studio");
    let instruction = "Read the CSV file and write the rows over 100 to big.csv";
    let request: GenerateRequest = serde_json::from_value(serde_json::json!({ "instruction": instruction })).unwrap();
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let result = runtime.block_on(async {
        let started = studio.start_generation(request).await.expect("start a generation");
        let mut watch = studio.generation_events(started.generation).await.expect("follow it");
        while let Some(event) = watch.next().await {
            if let GenerationEvent::Done { result } = event {
                return result;
            }
        }
        panic!("the generation ended without a plan");
    });
    let session = serde_json::json!({
        "instruction": instruction, "documents": [], "templates": [], "apply_mode": "compose", "pinned": [],
        "answers": {}, "at_run_time": [],
        "chat": [{ "from": "studio", "text": result.requirements[0].requirement.label, "requirement": result.requirements[0].requirement.id }],
        "generation": result,
    });
    let name = format!("{}.yaml", result.plan_id);
    runtime.block_on(async {
        studio.save_draft(name.clone(), PlanText { text: result.text.clone() }).await.expect("save the draft");
        studio.save_design_session(name, serde_json::from_value(session).unwrap()).await.expect("save its session");
    });
}

#[test]
fn the_desktop_studio_opens_its_window_and_paints_the_ui() {
    let (_xvfb, display) = start_xvfb();
    let home = tempfile::tempdir().expect("a temporary home");
    // The desktop app's workspace and data home in this home (`~/Planwright`, PLANWRIGHT_HOME).
    seed_generated_draft(&home.path().join("Planwright"), &home.path().join("planwright"));
    let stderr_path = home.path().join("studio.stderr");
    let started = Instant::now();
    let mut app = Command::new(env!("CARGO_BIN_EXE_planwright-studio"))
        .env("DISPLAY", &display)
        .env_remove("WAYLAND_DISPLAY")
        // A fresh home: the workspace, settings, run data and remembered window state of this
        // run stay in it.
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join(".config"))
        .env("XDG_DATA_HOME", home.path().join(".local/share"))
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .env("PLANWRIGHT_HOME", home.path().join("planwright"))
        // No GPU on a virtual display: WebKitGTK paints in software.
        .env("WEBKIT_DISABLE_COMPOSITING_MODE", "1")
        .env("WEBKIT_DISABLE_DMABUF_RENDERER", "1")
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .env("NO_AT_BRIDGE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(File::create(&stderr_path).expect("create the stderr file"))
        .spawn()
        .expect("start planwright-studio");
    let stdout = app.stdout.take().expect("the app's stdout");
    let mut app = Killed(app);
    let (lines, ready) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let app_stderr = || std::fs::read_to_string(&stderr_path).unwrap_or_default();

    // The page has loaded.
    loop {
        match ready.recv_timeout(Duration::from_millis(200)) {
            Ok(line) if line.starts_with(READY) => break,
            Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let status = app.0.wait().expect("the app's exit status");
                panic!("planwright-studio ended ({status}) before its page loaded:\n{}", app_stderr());
            }
        }
        assert!(started.elapsed() < START_DEADLINE, "no ready line within {START_DEADLINE:?}:\n{}", app_stderr());
    }
    let to_ready = started.elapsed();

    // The window is on the display, under its title.
    let window = Command::new("xwininfo")
        .args(["-display", &display, "-name", "Planwright"])
        .output()
        .expect("xwininfo runs (apt install x11-utils)");
    assert!(window.status.success(), "no window named Planwright: {}", String::from_utf8_lossy(&window.stderr));

    // It has painted: the screenshot is not one flat colour. The one kept is taken a moment
    // later, when the UI's first answers have come in.
    let shot = artifacts_dir().join("studio-smoke.png");
    while colours(screenshot(&display, &shot)) <= 1 {
        assert!(
            started.elapsed() < START_DEADLINE + PAINT_DEADLINE,
            "the window stayed one flat colour: {}",
            shot.display()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    std::thread::sleep(SETTLE);
    screenshot(&display, &shot);
    eprintln!("planwright-studio: page loaded after {to_ready:?}; screenshot {}", shot.display());
    // The Design tab with the generated plan, once its draft, candidates and graph have come in.
    std::thread::sleep(DESIGN_SETTLE);
    let design = artifacts_dir().join("studio-design.png");
    let design = screenshot(&display, &design);
    assert!(colours(design) > 1, "the Design tab painted nothing: {}", design.display());
    eprintln!("planwright-studio: the Design tab with a generated plan: {}", design.display());
    assert!(app.0.try_wait().expect("the app's status").is_none(), "the app ended:\n{}", app_stderr());
}
