//! Blocks whose real implementation arrives with a later issue: they fail with a clear reason.

use std::sync::Arc;

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};

pub(crate) fn blocks() -> Vec<Arc<dyn Block>> {
    vec![Arc::new(Pending {
        id: "browser.run_objectives",
        reason: "browser.run_objectives is not available yet: the objective runner, which carries out steps \
                     written in plain words, arrives with a later issue; the direct browser blocks work now, so write \
                     the steps with browser.navigate, browser.click, browser.fill, browser.extract_table and \
                     browser.screenshot",
    })]
}

/// A catalog block that cannot run yet.
struct Pending {
    id: &'static str,
    reason: &'static str,
}

impl Block for Pending {
    fn id(&self) -> &'static str {
        self.id
    }

    fn run<'a>(&'a self, _inputs: Values, _ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { Err(BlockError::Failed(self.reason.to_owned())) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use planwright_block::Workdir;
    use planwright_block::{BlockEvents, HumanInput};
    use planwright_block::{BrowserSettings, BrowserSlot};
    use planwright_runs::{ArtifactKind, LogLevel};

    struct Nobody;

    impl BlockEvents for Nobody {
        fn log(&self, _: &str, _: LogLevel, _: String) {}
        fn artifact(&self, _: &str, _: &std::path::Path, _: ArtifactKind, _: u64) {}
        fn progress(&self, _: &str, _: planwright_runs::Progress) {}
    }

    impl planwright_block::BlockSecrets for Nobody {
        fn reveal(&self, name: &str) -> Result<String, BlockError> {
            Err(BlockError::NotSetUp(format!("no secret {name}")))
        }

        fn redact(&self, text: &str) -> String {
            text.to_owned()
        }
    }

    impl HumanInput for Nobody {
        fn ask<'a>(
            &'a self,
            _: &'a str,
            _: planwright_runs::InputRequest,
        ) -> BoxFuture<'a, Result<planwright_runs::InputAnswer, BlockError>> {
            Box::pin(async { Err(BlockError::NoAnswer("nobody".into())) })
        }
    }

    #[tokio::test]
    async fn the_objective_runner_block_fails_with_its_reason() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = BlockContext {
            node: "n".into(),
            workdir: Workdir::new(dir.path()).unwrap(),
            cancel: Default::default(),
            events: Arc::new(Nobody),
            input: Arc::new(Nobody),
            browser: Arc::new(BrowserSlot::new(BrowserSettings::default())),
            models: None,
            secrets: Arc::new(Nobody),
            record_dir: dir.path().join("records"),
        };
        let blocks = blocks();
        let ids: Vec<&str> = blocks.iter().map(|b| b.id()).collect();
        assert_eq!(ids, ["browser.run_objectives"]);
        for block in &blocks {
            let err = block.run(Values::new(), &ctx).await.unwrap_err();
            let BlockError::Failed(message) = err else { panic!("{err:?}") };
            assert!(message.contains("objective runner") && message.contains("later issue"), "{message}");
            assert!(!message.contains("driver"), "the driver is here now: {message}");
            for direct in ["navigate", "click", "fill", "extract_table", "screenshot"] {
                assert!(message.contains(&format!("browser.{direct}")), "{message}");
            }
        }
    }
}
