//! `schemas/plan.schema.json` is the generated schema, byte for byte, so editors that point at
//! the file see exactly what the loader checks.

use planwright_plan::schema::plan_schema_text;

#[test]
fn schema_file_is_the_generated_schema() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas/plan.schema.json");
    let stored = std::fs::read_to_string(path).expect("schemas/plan.schema.json exists");
    assert!(
        stored == plan_schema_text(),
        "schemas/plan.schema.json is out of date; regenerate it with\n  cargo run -q --bin planwright -- schema > schemas/plan.schema.json"
    );
}
