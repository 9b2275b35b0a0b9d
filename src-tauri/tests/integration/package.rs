//! The install test: builds the Debian package of the binaries this test build made
//! (`scripts/package --debug`, the Tauri bundler), installs it into a clean folder with
//! `dpkg -x`, and checks what a person gets: `planwright` and `planwright-studio` on the PATH,
//! stripped, with their debug information beside the package; the desktop entry and its icon;
//! Chromium as a dependency; and the installed studio starting under Xvfb in an empty home,
//! where it seeds the sample workspace that the installed `planwright` then validates.
//!
//! Needs what the smoke test needs, plus dpkg, binutils and the UI's npm packages (the Tauri
//! CLI); `scripts/test` provides them.

use crate::desktop;

use std::path::{Path, PathBuf};
use std::process::Command;

use desktop::{artifacts_dir, open_studio, start_xvfb};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the repository").to_path_buf()
}

/// Runs a command to its end and returns its standard output; panics with its error otherwise.
fn output(command: &mut Command) -> String {
    let out = command.output().unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        out.status.success(),
        "{command:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The ELF section names of `binary`.
fn sections(binary: &Path) -> Vec<String> {
    output(Command::new("readelf").args(["--sections", "--wide"]).arg(binary))
        .lines()
        .filter_map(|line| line.split_once(']').map(|(_, rest)| rest))
        .filter_map(|rest| rest.split_whitespace().next().map(str::to_owned))
        .collect()
}

#[test]
fn the_deb_installs_into_a_clean_folder_and_the_installed_studio_starts() {
    let packaged = output(Command::new(repo().join("scripts/package")).arg("--debug").current_dir(repo()));
    let deb = PathBuf::from(packaged.lines().last().expect("scripts/package prints the package's path"));
    assert_eq!(deb.extension().and_then(|e| e.to_str()), Some("deb"), "not a .deb: {}", deb.display());

    let depends = output(Command::new("dpkg-deb").args(["--field"]).arg(&deb).arg("Depends"));
    assert!(depends.contains("chromium"), "Chromium is not a dependency: {depends}");
    assert!(depends.contains("libwebkit2gtk-4.1-0"), "WebKitGTK is not a dependency: {depends}");
    assert!(depends.contains("libssl3"), "OpenSSL (HTTPS) is not a dependency: {depends}");

    let root = tempfile::tempdir().expect("a folder to install into");
    output(Command::new("dpkg").arg("-x").arg(&deb).arg(root.path()));
    let bin = root.path().join("usr/bin");
    // target/package/debug/bundle/deb/Planwright_….deb: the debug files are in target/package/debug.
    let staged = deb.ancestors().nth(3).expect("the package's staging folder");
    for name in ["planwright", "planwright-studio"] {
        let installed = bin.join(name);
        let found = sections(&installed);
        assert!(found.iter().any(|s| s == ".text"), "{name} is not an executable: {found:?}");
        // `.debug_gdb_scripts` is loaded with the program (it names Rust's pretty printers).
        let dwarf = |s: &&String| s.starts_with(".debug_") && *s != ".debug_gdb_scripts";
        assert!(!found.iter().any(|s| dwarf(&s)), "{name} is installed with debug information: {found:?}");
        assert!(found.iter().any(|s| s == ".gnu_debuglink"), "{name} does not name its debug file");
        let debug = staged.join(format!("{name}.debug"));
        assert!(sections(&debug).iter().any(|s| s == ".debug_line"), "{} holds no line tables", debug.display());
    }

    let entry = std::fs::read_to_string(root.path().join("usr/share/applications/Planwright.desktop"))
        .expect("the desktop entry is installed");
    for line in ["Name=Planwright", "Exec=planwright-studio", "Icon=planwright-studio", "Comment[ja]="] {
        assert!(entry.lines().any(|l| l.starts_with(line)), "the desktop entry lacks {line}:\n{entry}");
    }
    let icon = root.path().join("usr/share/icons/hicolor/128x128/apps/planwright-studio.png");
    assert!(icon.is_file(), "no icon at {}", icon.display());

    let version = output(Command::new(bin.join("planwright")).arg("--version"));
    assert!(version.starts_with("planwright "), "the installed command line answered {version:?}");

    // The installed studio, in an empty home: it opens, and seeds the sample workspace.
    let (_xvfb, display) = start_xvfb();
    let home = tempfile::tempdir().expect("a temporary home");
    let shot = artifacts_dir().join("studio-installed.png");
    let mut studio = open_studio(&bin.join("planwright-studio"), &display, home.path(), &shot);
    studio.assert_running();
    let workspace = home.path().join("Planwright");
    let example = workspace.join("designs/bank_deposit_matching.yaml");
    assert!(example.is_file(), "the sample workspace has no example plans: {}", workspace.display());
    assert!(workspace.join("data/payments.csv").is_file(), "the sample workspace has no sample files");
    assert!(workspace.join("designs/templates/finance").is_dir(), "the sample workspace has no templates");
    output(Command::new(bin.join("planwright")).arg("validate").arg(&example).env("HOME", home.path()));
}
