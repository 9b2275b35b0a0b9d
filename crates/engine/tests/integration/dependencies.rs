//! The engine runs any block it is given and holds the run's browser only as a slot: it must
//! not compile a browser driver nor a block family's heavy dependencies (docs/architecture.md,
//! the dependency table).

use std::process::Command;

/// Crates that belong to the block families, never to the engine.
const FORBIDDEN: &[&str] = &[
    "tokio-tungstenite",
    "planwright-browser",
    "planwright-browser-port",
    "planwright-blocks",
    "planwright-objectives",
    "planwright-documents",
    "calamine",
    "rust_xlsxwriter",
    "lopdf",
    "pdf-extract",
    "docx-rs",
];

#[test]
fn the_engine_compiles_no_browser_nor_block_family() {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let output = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "-e", "normal", "--prefix", "none", "--manifest-path", manifest])
        .args(["-p", "planwright-engine"])
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&output.stderr));
    let tree = String::from_utf8(output.stdout).expect("cargo tree writes UTF-8");
    let packages: Vec<&str> = tree.lines().filter_map(|line| line.split(' ').next()).collect();
    assert!(packages.contains(&"planwright-block"), "the tree lists the engine's dependencies:\n{tree}");
    let found: Vec<&&str> = FORBIDDEN.iter().filter(|name| packages.contains(name)).collect();
    assert!(found.is_empty(), "the engine's normal dependencies include {found:?}:\n{tree}");
}
