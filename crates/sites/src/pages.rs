//! The embedded files of `assets/sites`, their content types and the origin placeholders.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use include_dir::{include_dir, Dir, File};

static SITES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../assets/sites");

/// Pages that only make sense embedded in another page or reached through an action on one
/// (they need its query or its iframe), so they are left out of [`page_list`]: loading them
/// alone in a conformance test or benchmark says nothing. They are still served. Every page in
/// a `fragments/` folder is one too ([`FRAGMENTS_DIR`]).
pub(crate) const FRAGMENTS: &[&str] = &[
    "cookie-frame.html",
    "checkout/card.html",
    "checkout/done.html",
    "opened.html",
    "welcome.html",
    "objectives/ledgerly/contact-form.html",
];

/// The folder of the hostile pages (`trust/`: injected instructions, a look-alike of a control,
/// another site's field in a frame). Tests of the trust boundaries drive them; they are left out
/// of [`page_list`], whose pages the conformance test and the benchmarks compare drivers on.
pub(crate) const HOSTILE_DIR: &str = "trust/";

/// A folder of fragments: the documents of a task site's iframes and the pages only its actions reach.
const FRAGMENTS_DIR: &str = "/fragments/";

/// The folder of `assets/sites` whose files `/downloads/{file}` serves as attachments (and only
/// it: the plain file route leaves them alone, so every download is recorded).
pub(crate) const DOWNLOADS_DIR: &str = "downloads/";
/// The longest file name `/downloads/{file}` looks up.
const MAX_DOWNLOAD_NAME_CHARS: usize = 100;

/// Replaced in served text with the base URL (`http://127.0.0.1:PORT`) of each origin.
pub(crate) const MAIN_PLACEHOLDER: &str = "__MAIN_ORIGIN__";
pub(crate) const OTHER_PLACEHOLDER: &str = "__OTHER_ORIGIN__";

/// Every embedded file by its `/`-separated path (include_dir keeps the build machine's
/// separators, and URLs always use `/`).
fn files() -> &'static BTreeMap<String, &'static File<'static>> {
    static FILES: OnceLock<BTreeMap<String, &'static File<'static>>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut files = BTreeMap::new();
        let mut dirs = vec![&SITES];
        while let Some(dir) = dirs.pop() {
            dirs.extend(dir.dirs());
            for file in dir.files() {
                let path = file.path().to_string_lossy().replace('\\', "/");
                files.insert(path, file);
            }
        }
        files
    })
}

/// A file's text as it is stored (placeholders unreplaced), by its path.
pub(crate) fn text(path: &str) -> Option<String> {
    files().get(path).and_then(|f| f.contents_utf8()).map(str::to_owned)
}

/// The fixture pages (every `.html` but the fragments and the hostile pages), sorted.
pub(crate) fn page_list() -> Vec<&'static str> {
    files()
        .keys()
        .filter(|path| {
            path.ends_with(".html")
                && !FRAGMENTS.contains(&path.as_str())
                && !path.contains(FRAGMENTS_DIR)
                && !path.starts_with(HOSTILE_DIR)
        })
        .map(String::as_str)
        .collect()
}

/// A file ready to serve: its content type and bytes, placeholders replaced in text.
pub(crate) struct Asset {
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

/// Looks a URL path up (`/` and a missing file name mean `index.html`).
pub(crate) fn asset(url_path: &str, main_base: &str, other_base: &str) -> Option<Asset> {
    let mut path = url_path.trim_start_matches('/').to_owned();
    if path.is_empty() || path.ends_with('/') {
        path.push_str("index.html");
    }
    if path.starts_with(DOWNLOADS_DIR) {
        return None;
    }
    let file = files().get(&path)?;
    let content_type = content_type(&path);
    let body = match file.contents_utf8() {
        Some(text) if content_type.contains("charset=utf-8") => {
            text.replace(MAIN_PLACEHOLDER, main_base).replace(OTHER_PLACEHOLDER, other_base).into_bytes()
        }
        _ => file.contents().to_vec(),
    };
    Some(Asset { content_type, body })
}

/// The page a portal's address with a session token in its path is: `/trust/t/<token>/form.html`
/// is `/trust/form.html` (tests put a secret in such an address).
pub(crate) fn without_token(url_path: &str) -> String {
    match url_path.strip_prefix("/trust/t/").and_then(|rest| rest.split_once('/')) {
        Some((_, page)) => format!("/trust/{page}"),
        None => url_path.to_owned(),
    }
}

/// Where an address without its `.html` (`/objectives/expense/login`) or its final `/`
/// (`/objectives/expense/claims`) is, as a site's clean URLs are: the path to redirect to, or
/// `None` when there is no such page.
pub(crate) fn clean_url(url_path: &str) -> Option<String> {
    let path = url_path.trim_start_matches('/');
    if path.is_empty() || path.ends_with('/') || path.ends_with(".html") || path.starts_with(DOWNLOADS_DIR) {
        return None;
    }
    if files().contains_key(&format!("{path}.html")) {
        Some(format!("/{path}.html"))
    } else if files().contains_key(&format!("{path}/index.html")) {
        Some(format!("/{path}/"))
    } else {
        None
    }
}

/// A file of `assets/sites/downloads/` by its bare name (`statement-2026-10.csv`): its content
/// type and bytes as they are, placeholders and all. Names are plain (ASCII letters, digits,
/// `.`, `_`, `-`, not starting with a dot), so nothing but that folder can be reached and the name
/// can go into `Content-Disposition` as it is.
pub(crate) fn download(name: &str) -> Option<Asset> {
    let plain = !name.is_empty()
        && name.len() <= MAX_DOWNLOAD_NAME_CHARS
        && !name.starts_with('.')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if !plain {
        return None;
    }
    let file = files().get(&format!("{DOWNLOADS_DIR}{name}"))?;
    let content_type = match name.rsplit_once('.').map_or("", |(_, extension)| extension) {
        "csv" => "text/csv; charset=utf-8",
        _ => content_type(name),
    };
    Some(Asset { content_type, body: file.contents().to_vec() })
}

fn content_type(path: &str) -> &'static str {
    let extension = path.rsplit_once('.').map_or("", |(_, extension)| extension);
    match extension {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json; charset=utf-8",
        "md" => "text/markdown; charset=utf-8",
        "txt" | "csv" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml; charset=utf-8",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_urls_lead_to_their_page_or_folder() {
        assert_eq!(clean_url("/objectives/expense/login").as_deref(), Some("/objectives/expense/login.html"));
        assert_eq!(clean_url("/objectives/expense/claims").as_deref(), Some("/objectives/expense/claims/"));
        assert_eq!(clean_url("/objectives/expense/login.html"), None);
        assert_eq!(clean_url("/no/such/page"), None);
    }

    #[test]
    fn fragments_exist_and_are_not_pages() {
        for fragment in FRAGMENTS {
            assert!(files().contains_key(*fragment), "{fragment} is not in assets/sites");
            assert!(!page_list().contains(fragment));
        }
    }

    #[test]
    fn directory_paths_mean_their_index() {
        assert!(asset("/", "m", "o").is_some());
        assert!(asset("", "m", "o").is_some());
        assert!(asset("/checkout/", "m", "o").is_none());
    }

    #[test]
    fn downloads_are_plain_names_in_their_folder_only() {
        let statement = download("statement-2026-10.csv").unwrap();
        assert_eq!(statement.content_type, "text/csv; charset=utf-8");
        assert!(statement.body.starts_with(b"Date,Reference,Description"));
        for name in ["", ".", "..", "../login.html", "a/b.csv", ".hidden", "statement 2026.csv", "明細.csv", "nope.csv"]
        {
            assert!(download(name).is_none(), "{name:?}");
        }
        assert!(download(&"a".repeat(MAX_DOWNLOAD_NAME_CHARS + 1)).is_none());
        // Only through /downloads/{file}, where they are recorded.
        assert!(asset("/downloads/statement-2026-10.csv", "m", "o").is_none());
    }

    #[test]
    fn placeholders_are_replaced_in_text_only() {
        let payment = asset("/checkout/payment.html", "http://main", "http://other").unwrap();
        let text = String::from_utf8(payment.body).unwrap();
        assert!(text.contains("http://other/checkout/card.html"));
        assert!(!text.contains(OTHER_PLACEHOLDER));
    }
}
