//! The desktop smoke test: starts the real `planwright-studio` binary on a virtual display
//! (Xvfb, no GPU), waits until its page has loaded, saves a screenshot of the display to
//! `target/artifacts/studio-smoke.png`, checks that the window painted something (the
//! screenshot is not one flat colour), and closes the app. Its workspace starts with a draft
//! whose plan the design engine generated (through the studio API, as the Design tab does), so
//! the window opens on the Design tab with that plan, its chat and its candidates: a moment
//! later that is `target/artifacts/studio-design.png`.
//!
//! Needs Xvfb, xwininfo and ImageMagick (`ensure_desktop_deps` in `scripts/ensure-tools`) and a
//! built `ui/dist`, which the binary embeds; `scripts/desktop-smoke` provides all three. The
//! install test (`tests/integration/package.rs`) starts the packaged binary the same way (`desktop`).

use crate::desktop;

use std::path::Path;
use std::time::Duration;

use desktop::{artifacts_dir, colours, open_studio, screenshot, start_xvfb};

/// For the draft, the candidates and the graph to arrive after the first paint.
const DESIGN_SETTLE: Duration = Duration::from_secs(3);

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
    let binary = Path::new(env!("CARGO_BIN_EXE_planwright-studio"));
    let mut studio = open_studio(binary, &display, home.path(), &artifacts_dir().join("studio-smoke.png"));
    // The Design tab with the generated plan, once its draft, candidates and graph have come in.
    std::thread::sleep(DESIGN_SETTLE);
    let design = artifacts_dir().join("studio-design.png");
    let design = screenshot(&display, &design);
    assert!(colours(design) > 1, "the Design tab painted nothing: {}", design.display());
    eprintln!("planwright-studio: the Design tab with a generated plan: {}", design.display());
    studio.assert_running();
}
