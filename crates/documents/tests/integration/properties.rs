//! Properties: any bytes give text or a warning in time, never a panic; prompt text never
//! exceeds its budget, keeps every name, and normalising twice changes nothing.

use crate::common;

use std::time::{Duration, Instant};

use common::Folder;
use planwright_documents::{
    documents_for_prompt, extract_file, normalise_text, share_budget, Isolation, Limits, Outcome, Source, NO_DOCUMENTS,
};
use proptest::prelude::*;

/// Magic prefixes, so that random bytes also reach each format's reader.
fn prefixed_bytes() -> impl Strategy<Value = Vec<u8>> {
    let prefixes: Vec<Vec<u8>> = vec![
        vec![],
        b"%PDF-1.7\n".to_vec(),
        b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF".to_vec(),
        b"PK\x03\x04".to_vec(),
        b"PK\x05\x06".to_vec(),
        vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1],
        "請求書\n".as_bytes().to_vec(),
    ];
    (proptest::sample::select(prefixes), proptest::collection::vec(any::<u8>(), 0..4096)).prop_map(|(p, rest)| {
        let mut bytes = p;
        bytes.extend(rest);
        bytes
    })
}

fn extension() -> impl Strategy<Value = &'static str> {
    proptest::sample::select(vec!["pdf", "docx", "xlsx", "xls", "csv", "txt", "bin", ""])
}

/// 200 cases (each case extracts files in worker processes) unless `PROPTEST_CASES` asks for another number.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(200);
    ProptestConfig::with_cases(cases)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_bytes_give_text_or_a_warning_in_time(bytes in prefixed_bytes(), ext in extension()) {
        let f = Folder::new();
        let name = if ext.is_empty() { "file".to_string() } else { format!("file.{ext}") };
        let source = Source { name: name.clone(), path: f.write(&name, &bytes) };
        let limits = Limits { deadline: Duration::from_secs(10), ..Limits::default() };
        let started = Instant::now();
        let outcome = extract_file(&source, &limits, &Isolation::Thread, &|| false).unwrap();
        prop_assert!(started.elapsed() < Duration::from_secs(11));
        match outcome {
            Outcome::Read(doc) => prop_assert!(doc.chars() <= limits.max_chars),
            Outcome::Skipped(skip) => {
                prop_assert!(!skip.reason.is_empty());
                let prefix = format!("{}: ", name);
                prop_assert!(skip.message().starts_with(&prefix));
            }
        }
    }

    #[test]
    fn normalising_is_idempotent(text in "(\\PC|[ \\t\\r\\n\u{3000}]){0,400}") {
        let once = normalise_text(&text);
        prop_assert_eq!(normalise_text(&once), once.clone());
        prop_assert!(!once.contains("  ") && !once.contains("\n\n\n") && !once.contains('\t'));
    }

    #[test]
    fn normalising_repeated_lines_is_idempotent(lines in proptest::collection::vec("(a|bb|請求書 No\\. 1|Page header text|)", 0..40)) {
        let text = lines.join("\n");
        let once = normalise_text(&text);
        prop_assert_eq!(normalise_text(&once), once);
    }

    #[test]
    fn prompts_keep_to_the_budget_and_keep_the_names(
        docs in proptest::collection::vec(("[a-zA-Z0-9_ 請求書]{1,20}\\.(pdf|docx|txt)", "(\\PC|\n){0,1500}"), 0..8),
        budget in 0usize..12_000,
    ) {
        let prompt = documents_for_prompt(&docs, budget);
        prop_assert!(prompt.chars().count() <= budget, "{} > {budget}", prompt.chars().count());
        if docs.is_empty() {
            prop_assert_eq!(prompt, NO_DOCUMENTS.chars().take(budget).collect::<String>());
        } else {
            let names: usize = docs.iter().map(|(n, _)| format!("[document: {}]", n.split_whitespace().collect::<Vec<_>>().join(" ")).chars().count() + 2).sum();
            if names <= budget {
                for (name, _) in &docs {
                    let shown = name.split_whitespace().collect::<Vec<_>>().join(" ");
                    let header = format!("[document: {shown}]");
                    prop_assert!(prompt.contains(&header), "{header} missing");
                }
            }
        }
    }

    #[test]
    fn shares_never_exceed_the_budget_or_a_length(lengths in proptest::collection::vec(0usize..50_000, 0..12), budget in 0usize..200_000) {
        let shares = share_budget(&lengths, budget);
        prop_assert!(shares.iter().sum::<usize>() <= budget);
        for (share, len) in shares.iter().zip(&lengths) {
            prop_assert!(share <= len);
        }
        // What is left over is never withheld from a text that wanted it.
        if shares.iter().sum::<usize>() < budget {
            prop_assert_eq!(&shares, &lengths);
        }
    }
}
