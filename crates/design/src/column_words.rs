//! The words of column names ([`name_words`]), and Japanese words for the columns of English
//! headers: 「設備ID」 is `machine_id`, 「計画時間」 is `planned_min`, 「ライン」 is `line`. A
//! Japanese name is cut into the words below, longest first, and each word must start one of the
//! English name's words; the English name may hold no other word than a code or a name (「設備」
//! is `machine_id`, the thing said by its code). The caller binds only a name that one column
//! alone fits.

/// Japanese words, and the starts of English words that say the same in a column's name.
const WORDS: &[(&str, &[&str])] = &[
    ("設備", &["machine", "equipment", "asset", "device", "unit"]),
    ("機械", &["machine"]),
    ("機器", &["device", "equipment"]),
    ("計画", &["plan", "scheduled", "target"]),
    ("予定", &["plan", "scheduled", "expected"]),
    ("稼働", &["run", "operat", "uptime", "active"]),
    ("停止", &["stop", "down", "idle"]),
    ("実働", &["run", "work", "actual"]),
    ("時間", &["hour", "hrs", "min", "time", "duration"]),
    ("分", &["min"]),
    ("時刻", &["time"]),
    ("日時", &["datetime", "timestamp", "time"]),
    ("日付", &["date", "day"]),
    ("日", &["date", "day"]),
    ("年月", &["month", "period"]),
    ("月", &["month"]),
    ("年", &["year"]),
    ("理由", &["reason", "cause"]),
    ("原因", &["cause", "reason"]),
    ("ライン", &["line"]),
    ("工程", &["process", "step", "stage"]),
    ("拠点", &["site", "location", "base"]),
    ("工場", &["plant", "factory", "site"]),
    ("倉庫", &["warehouse"]),
    ("部署", &["department", "dept", "team", "division"]),
    ("部門", &["department", "dept", "division"]),
    ("チーム", &["team", "squad"]),
    ("社員", &["employee", "staff"]),
    ("従業員", &["employee", "staff"]),
    ("担当者", &["owner", "rep", "assignee", "agent", "staff"]),
    ("担当", &["owner", "rep", "assignee", "agent", "staff"]),
    ("オペレーター", &["operator", "agent"]),
    ("顧客", &["customer", "client"]),
    ("取引先", &["vendor", "supplier", "customer", "partner"]),
    ("仕入先", &["vendor", "supplier"]),
    ("支払先", &["payee", "vendor", "supplier"]),
    ("請求書", &["invoice", "bill"]),
    ("請求", &["invoice", "bill"]),
    ("支払", &["payment", "paid", "pay"]),
    ("入金", &["deposit", "receipt", "payment", "received"]),
    ("期日", &["due"]),
    ("期限", &["due", "expir", "deadline"]),
    ("有効期限", &["expir", "valid"]),
    ("開始", &["start", "begin", "from"]),
    ("終了", &["end", "finish", "to"]),
    ("作成", &["created", "create"]),
    ("更新", &["updated", "renew", "modified"]),
    ("登録", &["registered", "created", "signup"]),
    ("申請", &["request", "applied", "application", "submitted"]),
    ("承認", &["approv"]),
    ("完了", &["complet", "done", "finish", "closed"]),
    ("出荷", &["ship"]),
    ("納品", &["deliver"]),
    ("配送", &["deliver", "ship"]),
    ("受注", &["order"]),
    ("注文", &["order"]),
    ("発注", &["order", "po"]),
    ("商品", &["product", "item", "sku"]),
    ("製品", &["product"]),
    ("品目", &["item", "product", "sku"]),
    ("部品", &["part", "component"]),
    ("在庫", &["stock", "inventory", "onhand"]),
    ("数量", &["quantity", "qty", "count", "units"]),
    ("個数", &["quantity", "qty", "count", "units"]),
    ("件数", &["count", "number"]),
    ("回数", &["count", "times"]),
    ("数", &["count", "number", "quantity", "qty", "num"]),
    ("単価", &["unitprice", "price", "rate"]),
    ("価格", &["price"]),
    ("金額", &["amount", "amt", "value", "total"]),
    ("額", &["amount", "amt"]),
    ("費用", &["cost", "expense", "spend"]),
    ("経費", &["expense", "cost"]),
    ("売上", &["sales", "revenue"]),
    ("予算", &["budget"]),
    ("実績", &["actual"]),
    ("合計", &["total", "sum"]),
    ("平均", &["average", "avg", "mean"]),
    ("税込", &["gross", "inctax", "withtax", "taxincluded"]),
    ("税抜", &["net", "extax", "pretax"]),
    ("税", &["tax", "vat"]),
    ("通貨", &["currency"]),
    ("為替", &["fx", "exchange"]),
    ("レート", &["rate"]),
    ("率", &["rate", "ratio", "pct", "percent"]),
    ("割合", &["ratio", "share", "pct", "percent"]),
    ("点数", &["score", "points"]),
    ("得点", &["score", "points"]),
    ("スコア", &["score"]),
    ("評価", &["rating", "score", "grade"]),
    ("ポイント", &["point"]),
    ("状態", &["status", "state"]),
    ("ステータス", &["status"]),
    ("区分", &["type", "category", "kind", "class"]),
    ("種別", &["type", "kind", "category"]),
    ("分類", &["category", "class"]),
    ("カテゴリ", &["category"]),
    ("科目", &["account", "category"]),
    ("勘定", &["account"]),
    ("口座", &["account"]),
    ("案件", &["project", "deal", "case"]),
    ("プロジェクト", &["project"]),
    ("契約", &["contract"]),
    ("タスク", &["task"]),
    ("チケット", &["ticket"]),
    ("不具合", &["bug", "defect", "issue"]),
    ("重要度", &["severity", "priority"]),
    ("優先度", &["priority"]),
    ("テスト", &["test"]),
    ("結果", &["result", "outcome", "status"]),
    ("国", &["country"]),
    ("都市", &["city"]),
    ("地域", &["region", "area"]),
    ("店舗", &["store", "shop"]),
    ("支店", &["branch"]),
    ("住所", &["address"]),
    ("電話", &["phone", "tel"]),
    ("メールアドレス", &["email", "mail"]),
    ("メール", &["email", "mail"]),
    ("氏名", &["name", "fullname"]),
    ("名前", &["name"]),
    ("名称", &["name", "title"]),
    ("名", &["name"]),
    ("番号", &["number", "no", "id", "code"]),
    ("コード", &["code", "id"]),
    ("車両", &["vehicle", "car"]),
    ("給油", &["fuel", "fill"]),
    ("距離", &["distance", "km", "mile"]),
    ("重量", &["weight", "kg"]),
    ("容量", &["capacity", "size"]),
    ("サイズ", &["size"]),
    ("最終", &["last", "latest"]),
    ("前回", &["last", "previous", "prev"]),
    ("次回", &["next"]),
    ("残高", &["balance"]),
    ("残", &["remaining", "balance", "left"]),
    ("使用", &["used", "usage"]),
    ("消化", &["used", "burn"]),
    ("残業", &["overtime"]),
    ("出勤", &["clockin", "checkin", "attend"]),
    ("退勤", &["clockout", "checkout"]),
    ("入社", &["hire", "join", "start"]),
    ("退職", &["leav", "exit", "termination", "end"]),
];

/// Words an English name may hold beyond those said: the thing's code or its name.
const CODES: &[&str] = &["id", "code", "no", "number", "num", "cd", "name"];

/// Whether `wanted`, a Japanese name (「計画時間」), says the column named `english` in its words
/// (`planned_min`). False for a name with any letter outside kanji and katakana (save a
/// trailing `ID`), and for a column name that is not ASCII.
pub fn japanese_names_english(wanted: &str, english: &str) -> bool {
    if !english.is_ascii() {
        return false;
    }
    let Some(said) = japanese_words(wanted) else { return false };
    let columns: Vec<String> = name_words(english).iter().map(|w| w.to_ascii_lowercase()).collect();
    if columns.is_empty() {
        return false;
    }
    let mut covered = vec![false; columns.len()];
    for starts in &said {
        let mut fits = false;
        for (i, word) in columns.iter().enumerate() {
            if starts.iter().any(|s| word.starts_with(s)) {
                covered[i] = true;
                fits = true;
            }
        }
        if !fits {
            return false;
        }
    }
    columns.iter().zip(&covered).all(|(word, done)| *done || CODES.contains(&word.as_str()))
}

/// The words of a Japanese name, each as the starts of English words it may be, cut longest
/// first; `None` where some part of the name is no word of [`WORDS`].
fn japanese_words(wanted: &str) -> Option<Vec<Vec<String>>> {
    let mut rest = wanted.trim();
    let mut words = Vec::new();
    while !rest.is_empty() {
        // 「設備ID」「社員No」: a code said in Latin letters.
        let latin: String = rest.chars().take_while(char::is_ascii_alphanumeric).collect();
        if !latin.is_empty() {
            let lower = latin.to_ascii_lowercase();
            if !CODES.contains(&lower.as_str()) {
                return None;
            }
            words.push(vec![lower]);
            rest = &rest[latin.len()..];
            continue;
        }
        let (ja, en) = WORDS.iter().filter(|(ja, _)| rest.starts_with(ja)).max_by_key(|(ja, _)| ja.len())?;
        words.push(en.iter().map(|s| (*s).to_owned()).collect());
        rest = rest[ja.len()..].trim_start_matches(['・', ' ']);
    }
    (!words.is_empty()).then_some(words)
}

/// The words of a column's name, as written: `planned_min` → planned, min; `RunMinutes` → Run,
/// Minutes; `InvoiceID` → Invoice, ID.
pub(crate) fn name_words(name: &str) -> Vec<&str> {
    let mut words = Vec::new();
    for part in name.split(|c: char| !c.is_alphanumeric()).filter(|p| !p.is_empty()) {
        let mut start = 0;
        for (i, c) in part.char_indices().skip(1) {
            if c.is_uppercase() && !part[..i].ends_with(char::is_uppercase) {
                words.push(&part[start..i]);
                start = i;
            }
        }
        words.push(&part[start..]);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_japanese_name_says_an_english_column_word_by_word() {
        assert!(japanese_names_english("設備ID", "machine_id"));
        assert!(japanese_names_english("設備", "machine_id"), "the thing by its code");
        assert!(japanese_names_english("計画時間", "planned_min"));
        assert!(japanese_names_english("稼働時間", "run_min"));
        assert!(japanese_names_english("ライン", "line"));
        assert!(japanese_names_english("停止理由", "StopReason"));
        assert!(!japanese_names_english("計画時間", "run_min"), "a word said fits no word of the name");
        assert!(!japanese_names_english("時間", "run_min"), "a word of the name left unsaid");
        assert!(!japanese_names_english("設備の時間", "machine_min"), "の is no word of a name");
        assert!(!japanese_names_english("計画時間", "計画時間"), "a Japanese column is no English one");
        assert!(!japanese_names_english("設備X", "machine_x"), "letters that are no code");
    }
}
