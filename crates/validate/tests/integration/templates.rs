//! Templates: every shipped template validates; a broken one is told apart by what is wrong.

use std::path::Path;

use planwright_catalog::Catalog;
use planwright_designs::{Designs, TemplateSpec};
use planwright_plan::Code;
use planwright_validate::validate_template;

fn shipped() -> Designs {
    Designs::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../designs"))
}

#[test]
fn every_shipped_template_loads_and_validates_in_both_languages() {
    let catalog = Catalog::bundled().unwrap();
    let templates = shipped().templates().unwrap();
    assert!(templates.len() >= 12, "{} templates", templates.len());
    let mut ids = Vec::new();
    for file in &templates {
        let spec = file.spec.as_ref().unwrap_or_else(|e| panic!("{}: {e}", file.file));
        assert!(file.file.ends_with(&format!("/{}.yaml", spec.id)), "{}: the id is the file's name", file.file);
        assert!(!file.category.is_empty(), "{}", file.file);
        for text in [&spec.title.en, &spec.title.ja, &spec.description.en, &spec.description.ja] {
            assert!(!text.trim().is_empty(), "{}", file.file);
        }
        assert!(!spec.tags.en.is_empty() && !spec.tags.ja.is_empty(), "{}", file.file);
        let findings = validate_template(spec, &catalog);
        assert!(findings.is_empty(), "{}: {findings:#?}", file.file);
        ids.push(spec.id.clone());
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), templates.len(), "template ids are unique");
}

const BROKEN: &str = "id: broken
title: {en: Broken, ja: 壊れた}
description: {en: For the test, ja: テスト用}
tags: {en: [test], ja: [テスト]}
imports:
  rows: {type: array, description: {en: rows, ja: 行}}
  unused: {type: string, description: {en: nothing reads it, ja: 未使用}}
  odd: {type: table, description: {en: no such type, ja: 存在しない型}}
exports:
  kept: {type: array, description: {en: kept rows, ja: 残した行}}
  missing: {type: rows, description: {en: no node gives it, ja: どのノードも出さない}}
graph_snippet:
  - id: keep
    block: transforms.filter
    in: {items: '${imports.rows}', conditions: [{field: a, operator: eq, value: '${imports.nowhere}'}]}
    out: {filtered: kept}
  - id: write
    block: report.wrte
    in: {data: '${keep.kept}', path: out.md, odd: '${imports.odd}'}
";

#[test]
fn a_broken_template_is_told_apart_by_what_is_wrong_and_where() {
    let spec = TemplateSpec::parse(BROKEN).unwrap();
    let findings = validate_template(&spec, &Catalog::bundled().unwrap());
    let has = |code: Code, path: &str| findings.iter().any(|f| f.code == code && f.path == path);
    assert!(has(Code::UnknownAlias, "/exports/missing"), "{findings:#?}");
    assert!(has(Code::InvalidValue, "/imports/odd/type"), "{findings:#?}");
    assert!(has(Code::InvalidValue, "/exports/missing/type"), "{findings:#?}");
    assert!(has(Code::UnknownBlock, "/graph_snippet/1/block"), "{findings:#?}");
    let undefined = findings.iter().find(|f| f.code == Code::UndefinedVar).expect("an import nobody declared");
    assert!(undefined.message.contains("nowhere") && undefined.hint.as_deref().unwrap_or("").contains("imports"));
    let unused = findings.iter().find(|f| f.code == Code::UnusedVar).expect("an import nothing reads");
    assert_eq!(unused.path, "/imports/unused");
    assert_eq!(unused.message, "import `unused` is not used by the snippet");
    assert!(findings.iter().all(|f| f.line.is_none()), "lines of the built plan would mislead");
    assert!(findings.iter().position(|f| !f.is_error()) > findings.iter().rposition(|f| f.is_error()));
}
