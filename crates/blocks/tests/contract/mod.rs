//! What every block test checks against the catalog: the block by its id, and outputs exactly as
//! its spec declares them. Included by the support modules of the test binaries.

use std::collections::HashMap;
use std::sync::Arc;

use planwright_blocks::{Block, BlockError, BlockSecrets, Values};
use planwright_catalog::Catalog;

/// Secrets a test gives by value (in a run, the engine reads them from their source and
/// registers each for masking).
#[derive(Default)]
pub struct GivenSecrets(pub HashMap<String, String>);

impl GivenSecrets {
    pub fn of(pairs: &[(&str, &str)]) -> Arc<GivenSecrets> {
        Arc::new(GivenSecrets(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()))
    }
}

impl BlockSecrets for GivenSecrets {
    fn reveal(&self, name: &str) -> Result<String, BlockError> {
        self.0.get(name).cloned().ok_or_else(|| BlockError::NotSetUp(format!("secret `{name}` has no value")))
    }
}

/// The built-in block with this id, from the library's registry.
pub fn block(id: &str) -> Arc<dyn Block> {
    planwright_blocks::builtin().into_iter().find(|b| b.id() == id).unwrap_or_else(|| panic!("no block {id}"))
}

/// Every output is declared by the spec and admits its declared type; every declared output is
/// produced, in the spec's order.
pub fn assert_declared_outputs(id: &str, outputs: &Values) {
    let catalog = Catalog::bundled().unwrap();
    let spec = catalog.get(id).unwrap();
    let declared: Vec<&String> = spec.outputs.keys().collect();
    let produced: Vec<&String> = outputs.keys().collect();
    assert_eq!(produced, declared, "{id}: outputs exactly as declared, in order");
    for (key, value) in outputs {
        assert!(spec.outputs[key].ty().admits(value), "{id}: {key} = {value}");
    }
}
