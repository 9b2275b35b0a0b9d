use super::*;

fn value(text: &str, cells: &[(&str, f64)]) -> Option<f64> {
    let formula = Formula::parse(text).expect(text);
    formula.evaluate(&|name| cells.iter().find(|(n, _)| *n == name).map(|(_, v)| *v))
}

#[test]
fn arithmetic_follows_the_usual_order_and_brackets() {
    let cells = [("税込金額", 11000.0), ("税率", 10.0)];
    assert_eq!(value("[税込金額] * [税率] / (100 + [税率])", &cells), Some(1000.0));
    assert_eq!(value("[税込金額]×[税率]÷（100＋[税率]）", &cells), Some(1000.0), "the signs people write");
    assert_eq!(value("2 + 3 * 4", &[]), Some(14.0));
    assert_eq!(value("(2 + 3) * 4", &[]), Some(20.0));
    assert_eq!(value("10 - 4 - 3", &[]), Some(3.0), "left to right");
    assert_eq!(value("-[税率] + 1", &cells), Some(-9.0));
    assert_eq!(value("[税込金額] * 10%", &cells), Some(1100.0));
    assert_eq!(value("1,200 / 2", &[]), Some(600.0));
}

#[test]
fn a_missing_number_or_a_zero_divisor_gives_nothing() {
    assert_eq!(value("[a] + 1", &[]), None);
    assert_eq!(value("[a] / [b]", &[("a", 1.0), ("b", 0.0)]), None);
}

#[test]
fn columns_are_listed_once_in_order_and_renamed() {
    let formula = Formula::parse("([revenue] - [cost]) / [revenue] * 100").unwrap();
    assert_eq!(formula.columns(), ["revenue", "cost"]);
    let renamed = formula.renamed(&|name| (name == "revenue").then(|| "Revenue".to_owned()));
    assert_eq!(renamed.to_string(), "([Revenue] - [cost]) / [Revenue] * 100");
}

#[test]
fn a_formula_is_written_back_with_the_brackets_it_needs() {
    for (text, shown) in [
        ("[a]-([b]-[c])", "[a] - ([b] - [c])"),
        ("([a]-[b])-[c]", "[a] - [b] - [c]"),
        ("[a]/([b]*[c])", "[a] / ([b] * [c])"),
        ("([a]+[b])*[c]", "([a] + [b]) * [c]"),
        ("-([a]+1)", "-([a] + 1)"),
        ("0.5 * [a]", "0.5 * [a]"),
    ] {
        assert_eq!(Formula::parse(text).unwrap().to_string(), shown, "{text}");
    }
}

#[test]
fn a_written_formula_reads_its_columns_without_brackets() {
    let formula = Formula::parse_written("税込金額×税率÷(100+税率)").unwrap();
    assert_eq!(formula.to_string(), "[税込金額] * [税率] / (100 + [税率])");
    let formula = Formula::parse_written("(revenue - cost) / revenue x 100").unwrap();
    assert_eq!(formula.to_string(), "([revenue] - [cost]) / [revenue] * 100");
    assert_eq!(Formula::parse_written("On Hand - Reorder Point").unwrap().columns(), ["On Hand", "Reorder Point"]);
    assert_eq!(Formula::parse_written("3月売上 + 4月売上").unwrap().columns(), ["3月売上", "4月売上"]);
    let spaced = Formula::parse_written("net * (1 + vat rate / 100)").unwrap();
    assert_eq!(spaced.to_string(), "[net] * (1 + [vat rate] / 100)", "a number before a space is a number");
    assert_eq!(spaced.signs(), 3);
}

#[test]
fn what_is_wrong_is_said_with_where() {
    assert_eq!(Formula::parse("  "), Err(FormulaError::Empty));
    assert!(matches!(Formula::parse("[a] +"), Err(FormulaError::ExpectedOperand { at: 5, .. })));
    assert!(matches!(Formula::parse("[a] [b]"), Err(FormulaError::ExpectedSign { at: 4, .. })));
    assert!(matches!(Formula::parse("([a] + 1"), Err(FormulaError::Unclosed { at: 0 })));
    assert!(matches!(Formula::parse("[a"), Err(FormulaError::Unclosed { at: 0 })));
    assert!(matches!(Formula::parse("[ ] * 2"), Err(FormulaError::EmptyColumn { at: 0 })));
    assert!(
        matches!(Formula::parse("a * 2"), Err(FormulaError::ExpectedOperand { at: 0, .. })),
        "a column needs brackets"
    );
    assert_eq!(Formula::parse(&"1+".repeat(600)), Err(FormulaError::TooLong));
}
