//! Every block spec has exactly one implementation among the families the binaries run, and
//! every implementation a spec.

use std::collections::BTreeSet;

use planwright_catalog::Catalog;

#[test]
fn every_spec_has_an_implementation_and_every_implementation_a_spec() {
    let catalog = Catalog::bundled().unwrap();
    let specs: BTreeSet<String> = catalog.blocks().map(|s| s.id.clone()).collect();
    let home = tempfile::tempdir().unwrap();
    let blocks = planwright_api::blocks(home.path());
    let implemented: BTreeSet<String> = blocks.iter().map(|b| b.id().to_owned()).collect();
    assert_eq!(implemented.len(), blocks.len(), "an id is implemented twice");
    let missing: Vec<&String> = specs.difference(&implemented).collect();
    let orphans: Vec<&String> = implemented.difference(&specs).collect();
    assert!(missing.is_empty(), "specs without an implementation: {missing:?}");
    assert!(orphans.is_empty(), "implementations without a spec: {orphans:?}");
}
