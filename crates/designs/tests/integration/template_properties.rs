//! Reading a template never panics, whatever the file holds: it is a template or an error that
//! says where.

use planwright_designs::TemplateSpec;
use proptest::prelude::*;

const VALID: &str = "id: t
title: {en: T, ja: T}
description: {en: D, ja: D}
tags: {en: [a], ja: [b]}
graph_snippet:
  - {id: n, block: report.write, in: {data: [], path: out.md}}
";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn any_text_is_a_template_or_an_error(text in any::<String>()) {
        if let Err(error) = TemplateSpec::parse(&text) {
            prop_assert!(!error.0.is_empty());
        }
    }

    #[test]
    fn a_template_cut_anywhere_is_a_template_or_an_error(cut in 0usize..VALID.len()) {
        let text = &VALID[..VALID.floor_char_boundary(cut)];
        if let Err(error) = TemplateSpec::parse(text) {
            prop_assert!(!error.0.is_empty());
        }
    }
}
