//! Generates the app's context — the embedded UI from `ui/dist`, icons, capabilities — here
//! rather than in `generate_context!`, so that a rebuilt `ui/dist` rebuilds the binary.

fn main() {
    let attributes = tauri_build::Attributes::new().codegen(tauri_build::CodegenContext::new());
    if let Err(e) = tauri_build::try_build(attributes) {
        panic!("tauri-build: {e:#}");
    }
}
