//! The JSON endpoints pages fetch from, with server-side delays like a real back end.
//!
//! Each takes `instant=1`, which skips the delay: pages pass it on when they were loaded with
//! `?instant=1`, so a conformance run sees the same final DOM without waiting.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Query, State as Extract};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::server::{read_record, ApiError, Ctx};

/// "A table that renders 400 ms after a click."
const INVOICES_DELAY: Duration = Duration::from_millis(400);
/// Long enough that typing outruns the answers, short enough to feel like autocomplete.
const SUGGEST_DELAY: Duration = Duration::from_millis(150);

/// The longest a page may ask `/api/answer` to wait: slow, never hung.
const MAX_ANSWER_DELAY_MS: u64 = 10_000;
/// What a refusal says when the page does not say what its server would.
const DEFAULT_REFUSAL: &str = "The server refused the request.";

pub(crate) const INVOICES_PER_PAGE: usize = 8;
pub(crate) const INVOICE_PAGES: usize = 3;
const MAX_QUERY_CHARS: usize = 100;
const MAX_SUGGESTIONS: usize = 8;

const CUSTOMERS: &[&str] = &[
    "Northwind Traders",
    "Contoso Ltd",
    "Fabrikam Inc",
    "Tailspin Toys",
    "Adventure Works",
    "Wide World Importers",
    "Litware Inc",
    "Proseware Inc",
    "Alpine Ski House",
    "Blue Yonder Airlines",
    "Coho Winery",
];
const STATUSES: &[&str] = &["Paid", "Paid", "Pending", "Overdue", "Paid", "Pending"];

/// What the search box suggests; matches are case-insensitive, prefixes first.
const PRODUCTS: &[&str] = &[
    "Wireless mouse",
    "Wireless keyboard",
    "Wireless charger",
    "Wired headset",
    "Webcam HD",
    "USB-C hub",
    "USB-C cable 2 m",
    "Laptop stand",
    "Laptop sleeve 14 in",
    "Monitor arm",
    "Monitor 27 in 4K",
    "Mechanical keyboard",
    "Noise-cancelling headphones",
    "Desk lamp",
    "Standing desk",
    "Ergonomic chair",
    "Mouse pad XL",
    "Docking station",
    "Portable SSD 1 TB",
    "Bluetooth speaker",
];

/// `GET /api/invoices?page=N[&instant=1]`: one page of invoices INV-1001…INV-1024, 8 a page.
pub(crate) async fn invoices(Query(query): Query<BTreeMap<String, String>>) -> Result<Json<Value>, ApiError> {
    let page = match query.get("page") {
        None => 1,
        Some(text) => match text.trim().parse::<usize>() {
            Ok(page) if (1..=INVOICE_PAGES).contains(&page) => page,
            _ => return Err(ApiError::bad_request(format!("page must be a number from 1 to {INVOICE_PAGES}"))),
        },
    };
    delay(&query, INVOICES_DELAY).await;
    let first = (page - 1) * INVOICES_PER_PAGE;
    let rows: Vec<Value> = (first..first + INVOICES_PER_PAGE).map(invoice).collect();
    Ok(Json(json!({
        "page": page,
        "pages": INVOICE_PAGES,
        "per_page": INVOICES_PER_PAGE,
        "total": INVOICE_PAGES * INVOICES_PER_PAGE,
        "rows": rows,
    })))
}

/// The `index`-th invoice (0-based); deterministic so tests can name cells.
fn invoice(index: usize) -> Value {
    // Spread amounts so sorting and formatting are exercised (hundreds to thousands).
    let cents = 12_000 + (index * 7_919 * 37) % 480_000;
    json!({
        "invoice": format!("INV-{}", 1001 + index),
        "customer": CUSTOMERS[index % CUSTOMERS.len()],
        "amount": dollars(cents),
        "status": STATUSES[index % STATUSES.len()],
    })
}

/// `123456` → `"$1,234.56"`.
fn dollars(cents: usize) -> String {
    let whole = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("${grouped}.{:02}", cents % 100)
}

/// `GET /api/suggest?q=TEXT[&instant=1]`: up to 8 product names matching the text.
pub(crate) async fn suggest(Query(query): Query<BTreeMap<String, String>>) -> Result<Json<Value>, ApiError> {
    let text = query.get("q").map_or("", |q| q.trim());
    if text.chars().count() > MAX_QUERY_CHARS {
        return Err(ApiError::bad_request(format!("q must be at most {MAX_QUERY_CHARS} characters")));
    }
    delay(&query, SUGGEST_DELAY).await;
    Ok(Json(json!({ "query": text, "suggestions": suggestions(text) })))
}

fn suggestions(text: &str) -> Vec<&'static str> {
    let needle = text.to_lowercase();
    if needle.is_empty() {
        return Vec::new();
    }
    let (mut prefixed, mut containing) = (Vec::new(), Vec::new());
    for product in PRODUCTS {
        let name = product.to_lowercase();
        if name.starts_with(&needle) {
            prefixed.push(*product);
        } else if name.contains(&needle) {
            containing.push(*product);
        }
    }
    prefixed.extend(containing);
    prefixed.truncate(MAX_SUGGESTIONS);
    prefixed
}

/// `POST /api/answer?status=NNN&delay_ms=N&error=TEXT[&instant=1]` with a `/__record` body: the
/// back end of a form, generic so that a page can stand for any server. The event is recorded
/// first (the request reached the server and did its work, whatever the answer), then after
/// `delay_ms` (a slow answer) the status comes back: `{"ok": true, "action", "detail"}` below
/// 400, `{"error": TEXT}` from 400 (a card declined, a value refused, a server error).
pub(crate) async fn answer(
    Extract(ctx): Extract<Ctx>,
    Query(query): Query<BTreeMap<String, String>>,
    body: Body,
) -> Result<Response, ApiError> {
    let status = match query.get("status") {
        None => StatusCode::OK,
        Some(text) => match text.trim().parse::<u16>().ok().filter(|code| (200..=599).contains(code)) {
            Some(code) => StatusCode::from_u16(code).map_err(|err| ApiError::bad_request(err.to_string()))?,
            None => return Err(ApiError::bad_request("status must be an HTTP status from 200 to 599")),
        },
    };
    let delay_ms = match query.get("delay_ms") {
        None => 0,
        Some(text) => match text.trim().parse::<u64>() {
            Ok(ms) if ms <= MAX_ANSWER_DELAY_MS => ms,
            _ => {
                return Err(ApiError::bad_request(format!("delay_ms must be a number from 0 to {MAX_ANSWER_DELAY_MS}")))
            }
        },
    };
    let record = read_record(body).await?;
    let (action, detail) = (record.action.clone(), record.detail.clone());
    ctx.state.record(ctx.origin, record).map_err(ApiError::bad_request)?;
    delay(&query, Duration::from_millis(delay_ms)).await;
    let body = if status.as_u16() < 400 {
        json!({ "ok": true, "action": action, "detail": detail })
    } else {
        json!({ "error": query.get("error").map_or(DEFAULT_REFUSAL, String::as_str) })
    };
    Ok((status, Json(body)).into_response())
}

async fn delay(query: &BTreeMap<String, String>, duration: Duration) {
    if query.get("instant").map(String::as_str) != Some("1") {
        tokio::time::sleep(duration).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_group_thousands() {
        assert_eq!(dollars(5), "$0.05");
        assert_eq!(dollars(99_900), "$999.00");
        assert_eq!(dollars(123_456), "$1,234.56");
        assert_eq!(dollars(123_456_789), "$1,234,567.89");
    }

    #[test]
    fn suggestions_put_prefixes_first() {
        assert_eq!(suggestions("MOUSE"), vec!["Mouse pad XL", "Wireless mouse"]);
        assert!(suggestions("").is_empty());
        assert!(suggestions("zzz").is_empty());
        assert!(suggestions("e").len() <= MAX_SUGGESTIONS);
    }

    #[test]
    fn invoices_are_numbered_in_order() {
        assert_eq!(invoice(0)["invoice"], "INV-1001");
        assert_eq!(invoice(23)["invoice"], "INV-1024");
    }
}
