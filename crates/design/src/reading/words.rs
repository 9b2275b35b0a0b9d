//! The words that name operations, in English and Japanese. English patterns match lower-cased
//! text at word boundaries; Japanese ones match stems, so that every inflection
//! (`突き合わせ`, `突き合わせて`, `突き合わせた`) is found.

use std::sync::LazyLock;

use regex::Regex;

use super::Language;

/// One language's patterns.
pub struct Lexicon {
    pub filter: Regex,
    /// Keep the rows that do *not* meet the conditions.
    pub exclude: Regex,
    pub aggregate: Regex,
    pub join: Regex,
    pub unmatched: Regex,
    pub classify: Regex,
    /// Read fields out of documents (only when the text names documents).
    pub extract: Regex,
    pub summarise: Regex,
    pub translate: Regex,
    /// Columns of free text a model reads fields out of ("the comment column", 「本文」).
    pub text_column: Regex,
    pub ask: Regex,
    pub confirm: Regex,
    pub api: Regex,
    pub send: Regex,
    pub poll: Regex,
    pub per_item: Regex,
    pub browser: Regex,
    /// Reading a table off a page.
    pub table: Regex,
    /// Browser work beyond opening a page and reading it.
    pub interact: Regex,
    pub output: Regex,
    /// Results named without a writing verb ("as a markdown report", "I need a CSV of").
    pub output_phrase: Regex,
    pub read: Regex,
    /// The rows left out ("the rest", 「それ以外」).
    pub rest: Regex,
    pub documents: Regex,
    pub excel_word: Regex,
    pub csv_word: Regex,
    pub report_word: Regex,
    pub screenshot: Regex,
    /// Any word that makes a clause an instruction of its own (for joining list fragments).
    pub verb: Regex,
    /// Totals and counts, not only "by" or "per" (a sort or a duplicate check says "by" too).
    pub totals: Regex,
    /// Tables put one after another ("combine the two files", 「1つにまとめて」).
    pub append: Regex,
    /// Words that ask for an operation on the rows: a clause with one that gives no step is
    /// asked about, not dropped.
    pub operation: Regex,
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("lexicon pattern")
}

pub static EN: LazyLock<Lexicon> = LazyLock::new(|| Lexicon {
    filter: re(
        r"\b(keep|filter|filtered|only|exclude|excluding|drop|remove|discard|ignore|skip|throw out|throw away|get rid of|weed out|strip out|take out|select|where|whose|pick out|leave out|leave (?:the |any |all )?(?:[\w-]+ ){1,3}out|leaving out|leaving (?:the |any |all )?(?:[\w-]+ ){1,3}out|stays? out|kept out|(?:is|are|be) left out|(?:don't|do not|shouldn't|should not|mustn't|must not|won't) count|(?:ones|rows|lines|entries|items|records) (?:go |stay |are )?out|narrow|at or above|at or below|at least|at most|take (?:only |just )?(?:the |all )?(?:[\w-]+ )?(?:rows|lines|entries|records|ones|orders|items|invoices|transactions|payments) (?:with|where|whose|that|which)|(?:rows|lines|entries|records|ones)\s+(?:of\s+(?:[\w.-]+\s+)?)?(?:that|which)\s+(?:are|is|were|was)\s+(?:not\s+|still\s+|already\s+)?[a-z][\w-]*)\b",
    ),
    exclude: re(
        r"\b(exclude|excluding|drop|remove|discard|ignore|ignoring|disregard|skip|throw out|throw away|get rid of|weed out|strip out|take out|leave out|leave (?:the |any |all )?(?:[\w-]+ ){1,3}out|leaving out|leaving (?:the |any |all )?(?:[\w-]+ ){1,3}out|stays? out|kept out|(?:is|are|be) left out|(?:don't|do not|shouldn't|should not|mustn't|must not|won't) count|filter out|without|except|not counting|(?:ones|rows|lines|entries|items|records) (?:go |stay |are )?out)\b",
    ),
    aggregate: re(
        r"\b(total|totals|totall?ed|sum|sums|summed|subtotal|subtotals|add up|aggregate|group|grouped|count|counts|average|mean|how many|number of|per)\b",
    ),
    join: re(
        r"\b(match|matches|matching|reconcile|reconciles|reconciling|join|joins|merge|merging|combine|cross-check|cross check|look up .* in|look (?:the |each |every |its |their )?[a-z_]+ up (?:in|on|by|against)|lookup|(?:put|show|place|add) .{0,60}next to|compare .* (with|against|to)|(?:check|checked|checking|verify) (?:each|every|the) .{0,60}\bagainst|(?:shows?|showed) up (?:at least once )?in|appears? (?:at least once )?in)\b",
    ),
    unmatched: re(
        r"\b(unmatched|not matched|no match|missing|not found|without a match|left over|one side|either side|have no|has no|(have|has|with) nothing (in|on|matching)|no (entry|line|record|row)s? (in|on)|without an? (?:[a-z]+ )?(match|payment|partner|counterpart|invoice|receipt|claim|record|entry|order|bill|approval|timesheet|ticket)|(don'?t|doesn'?t|do not|does not|haven'?t|hasn'?t|have not|has not|never) (have|has|had|got|get|received|appear|show up|match)|not (yet )?(in|on) (the )?\w+|(isn'?t|is not|aren'?t|are not) (anywhere|found) (in|on)|(who|that|which) (isn'?t|aren'?t|wasn'?t|weren'?t) (yet )?(in|on)\b|only (show up|shows up|appear|appears|exist|exists) (on|in) one|(were|was|have been|has been) never \w+ed|(haven'?t|hasn'?t|have not|has not) (?:yet )?been (?:\w+ed|paid|sent|done|seen|made|given|taken|written|bought|sold|run)|(?:with|having) no [\w-]+(?: [\w-]+)? (?:on file|on record)|no (?:matching|corresponding) [\w-]+|with no [\w-]+ at all|with no (?:acknowledg\w+|responses?|repl(?:y|ies)|receipts?|signatures?|submissions?|returns?))\b",
    ),
    classify: re(
        r"\b(classify|classifies|categori[sz]e|categori[sz]es|categori[sz]ation|label each|tag each|bucket|assign (an? )?(account|category|code|gl)|sort (them|each|each \w+|every \w+|the \w+) into|decide whether|judge whether|determine whether|flag each)\b",
    ),
    extract: re(r"\b(extract|extracts|pull out|pull|capture|read out|get|collect|take)\b"),
    summarise: re(r"\b(summari[sz]e|summari[sz]es|summari[sz]ing)\b"),
    translate: re(r"\b(translate|translates|translated|translating|translation)\b"),
    text_column: re(r"\b(comments?|descriptions?|notes?|memos?|remarks?|free[- ]text|body|messages?|narratives?)\b"),
    ask: re(
        r"\b(ask (me|the user|the operator|someone|a person|for)|prompt (me|the user|for)|let (me|the user|the operator) (enter|choose|pick|type|give)|have (me|the user) (enter|type)|user enters|enter the|input the|(i'd like|i would like|i want|i need|we want|we'd like) to (choose|pick|enter|specify|select|type|give)|when (i|we) run (this|it))\b",
    ),
    confirm: re(r"\b(confirm|confirmation|approval|approve|sign[- ]off|signs off|sign off)\b"),
    api: re(r"\b(api|apis|endpoint|endpoints|rest api|webhook|http (get|post)|get request|post request)\b"),
    send: re(r"\b(post|send|submit|upload|notify|register|create)\b"),
    poll: re(r"\b(poll|polling|until|wait for|wait until|keep checking|check every)\b"),
    per_item: re(
        r"\b(for each|for every|each|per (row|item|line|record|customer|supplier|vendor|invoice|entry)|one by one|every)\b",
    ),
    browser: re(
        r"\b(log ?in|log into|logs in|login|sign in|click|portal|website|web site|web page|webpage|browser|navigate|go to|visit|download|fill in|fill out|(?:the|a|an|web|online|contact|order|entry|input|login|search|registration|application|request) forms?|screenshot|dashboard|site|page)\b",
    ),
    table: re(r"\b(table|list)\b"),
    interact: re(
        r"\b(log ?in|log into|login|sign in|click|fill|type|press|download|submit|search|select|choose|upload)\b",
    ),
    output: re(
        r"\b(write|writes|save|saves|export|exports|output|outputs|produce|create|generate|store|put|dump|make|give)\b",
    ),
    output_phrase: re(
        r"\b(as|in|into|to) (a |an |the )?([a-z]+ ){0,2}(report|summary|markdown|spreadsheet|workbook|csv|excel file)\b|\b(need|want|send me|give me) (a |an )?([a-z]+ )?(csv|report|spreadsheet|workbook|excel|summary|list)\b",
    ),
    read: re(r"\b(read|reads|load|loads|open|opens|import|imports|take|from|use|using|parse)\b"),
    rest: re(r"\b(the rest|the others|other rows|excluded|remaining|unmatched|left out)\b"),
    documents: re(r"\b(pdfs?|word files?|docx|documents?|receipts|scans?|scanned|contracts?)\b"),
    excel_word: re(r"\b(excel|xlsx|spreadsheet|workbook)\b"),
    csv_word: re(r"\bcsv\b"),
    report_word: re(r"\b(report|summary|markdown|md)\b"),
    screenshot: re(r"\b(screenshot|screen shot|capture)\b"),
    verb: re(
        r"\b(read|load|open|import|keep|filter|exclude|drop|remove|total|sum|count|group|match|reconcile|join|merge|classify|categori[sz]e|extract|summari[sz]e|ask|confirm|approve|call|post|send|poll|wait|log ?in|click|download|write|save|export|output|create|generate|produce|then|list|flag|take|get|pull|put|store|give|pick|find|check|look up|fetch|go|visit|navigate|sign|capture|convert|copy|split|sort)\b",
    ),
    totals: re(
        r"\b(total|totals|totall?ed|sum|sums|summed|subtotal|subtotals|add up|aggregate|count|counts|average|mean|how many|number of|group|grouped)\b",
    ),
    operation: re(
        r"\b(add (?:them |it |these |those |all |everything |the \w+ )?up|sum(?: up)?|total (?:up|them|it|per|by|each)|subtotal|tally(?: up)?|count|average|group|sort|rank|order (?:them |it )?by|match|compare|reconcile|calculate|compute|subtract|deduct|multiply|divide|dedupe|de-?duplicate|how much|how many)\b",
    ),
    append: re(
        r"\b(combine|combined|combining|append|appended|appending|stack|stacked|put (them |both |these |the two |all )?(files |lists )?together|merge (them|both|these|the two|all)|into (a single|one|1) (list|file|table|sheet|workbook|csv|report)|one (combined |single )?(list|table)|(same|identical) (columns|layout|format|headers)|consolidate|consolidated|one after (the )?other|both (files|lists|exports|months))\b",
    ),
});

pub static JA: LazyLock<Lexicon> = LazyLock::new(|| Lexicon {
    filter: re(
        r"だけ|のみ|絞り込|絞込|除外|除く|除いて|除いた|除き|以外|対象外|フィルタ(?:ー)?(?:で|を(?:かけ|掛け)|して|する|リング|条件)|以上|以下|未満|超え|超の|超過|より大き|より小さ|より多|より少な|を残|抽出|抜き出|取り出|拾い出|ピックアップ|上回|下回|数えない|含めない|入れない|カウントしない|数えません|含めません|入れません|カウントしません|抜いて|抜く|抜きで|は抜き|[^に]は(?:要りません|要らない|いりません|いらない|不要)|[\p{Han}&&[^区配按部半処成自身余気等多十]]分(?:について|を対象|に限)",
    ),
    // (「確定分について」: the rows of that value. 「キャンセルは抜いてね」 leaves rows out;
    // 「抜き出して」 keeps them. 「差異が0の品目は要りません」 leaves rows out; 「出力には要りません」 a
    // column.)
    exclude: re(
        r"除外|除く|除いて|除いた|除き|以外を|取り除|外して|外す|数えない|含めない|入れない|カウントしない|数えません|含めません|入れません|カウントしません|対象外|抜いて|抜く|抜きで|は抜き|[^に]は(?:要りません|要らない|いりません|いらない|不要)|(?:載せ|出さ|入れ|含め|表示し)なくて(?:も)?(?:結構|いい|良い|よい|大丈夫|構いません|かまいません|OK)",
    ),
    aggregate: re(r"ごと|毎に|毎の|別に|別の|別で|集計|合計|小計|件数|平均|総額"),
    join: re(
        r"突き合わせ|突き合わ|突合|照合|結合|紐付け|紐づけ|紐付|マッチング|消込|消し込|照らし合わせ|を引いて|を引き|引き当て|参照して|から引|で引く|で引いて|で引き|引っ張|引っぱ|持ってき|持って来|取ってき|転記|ルックアップ|(?i:vlookup)",
    ),
    unmatched: re(
        r"未照合|一致しない|一致しなかった|見つからない|見当たらない|(?:^|[^でじ])ない(?:もの|行|データ|方|人|者|分|件)|載っていない|載ってない|(?:が|は)(?:まだ)?(?:入っていない|入ってない)(?:方|人|者|もの|行|分|件)|(?:が|は)(?:まだ)?(?:ない|入っていない|入ってない)[\p{Han}\p{Katakana}]|件もない|件もありません|未消込|漏れ|差異(?:がある|があった|が出|のある|あり)|片方|一方にしか|どちらか一方|存在しない|できなかった|できていない|していない|されていない|未提出|未入金|出てこない|出てきていない|含まれていない|一度も[^。]{0,20}(?:ない|ありません)|(?:記録|実績|履歴|入金|支払い?|回答|提出|申請|登録)(?:が|の)(?:まだ)?(?:ない|入っていない|入ってない)",
    ),
    classify: re(r"分類|仕分け|仕分|判定|振り分"),
    extract: re(r"読み取|抽出|取り出|抜き出"),
    summarise: re(r"要約|要点"),
    translate: re(r"翻訳|訳し|訳して|訳す|訳した"),
    text_column: re(r"本文|摘要|備考|内容|コメント|説明|メモ|自由記述|問い合わせ文"),
    ask: re(r"入力してもら|入力させ|入力を求め|尋ね|聞いて|聞く|指定してもら|選んでもら|入力いただ"),
    confirm: re(
        r"承認を|承認後|承認して|承認され|承認依頼|承認フロー|承認が|確認してから|確認後|確認を取|確認を求め|確認を得|確認して(もら|いただ)|決裁を(?:得|受け|取|もら|回|仰)|決裁後|決裁して(?:もら|いただ|から)|決裁が(?:下り|おり|出)|了承",
    ),
    api: re(r"(?i)api|エンドポイント|rest"),
    send: re(r"(?i)送信|登録|通知|post|送る|送って"),
    poll: re(r"まで待|するまで|になるまで|終わるまで|ポーリング|定期的に確認|待って|待つ"),
    per_item: re(r"1件ずつ|一件ずつ|それぞれ|各行|各件|ごとに|毎に"),
    browser: re(
        r"ログイン|サイト|ポータル|画面|ブラウザ|クリック|ダウンロード|ページ|アクセス|開いて|開き|フォーム|ボタン|メニュー|スクリーンショット|キャプチャ|サインイン",
    ),
    table: re(r"表|一覧|テーブル"),
    interact: re(r"ログイン|クリック|入力|ダウンロード|押|検索|選択|サインイン|アップロード"),
    output: re(
        r"出力|書き出|保存|作成|作って|作る|エクスポート|書き込|ファイルにし|まとめ|出して|出す|置いと|置いてお|置いてくだ|置いてもら|置いてほし",
    ),
    output_phrase: re(
        r"(?i)(csv|excel|エクセル|レポート|報告書|一覧表)(で|に|として)(?:して|まとめて)?(ほしい|欲しい|ください|下さい|ちょうだい|もらえ|いただけ)",
    ),
    read: re(r"読み込|読込|取り込|開いて|から|を読み|を読んで"),
    rest: re(r"残り|それ以外|除外した|対象外|外れた|未照合|一致しない|漏れ"),
    documents: re(r"(?i)pdf|書類|ドキュメント|文書|word|領収書の画像|スキャン|契約書"),
    excel_word: re(r"(?i)excel|エクセル|xlsx|ワークブック|スプレッドシート"),
    csv_word: re(r"(?i)csv"),
    report_word: re(r"(?i)レポート|報告書|markdown|まとめ|サマリ"),
    screenshot: re(r"スクリーンショット|スクショ|キャプチャ|画面を保存"),
    verb: re(
        r"読み込|取り込|絞り込|除外|集計|合計|突き合わせ|照合|結合|分類|抽出|読み取|要約|承認|確認|入力|呼び出|送信|登録|ログイン|クリック|ダウンロード|出力|保存|書き出|作成|して|し、|残|数え|件数|ごと|別に|だけ|のみ|以上|以下|未満|超え|抜き出|取得|まとめ|出す|開|追加|加え|足し|変更|変え",
    ),
    totals: re(r"集計|合計|小計|件数|平均|総額|数え"),
    operation: re(
        r"集計|合計|小計|件数|平均|数え|並べ|並び替|ソート|突き合わせ|突合|照合|比較|計算|差し引|掛け|割っ|重複|いくら|何件|[\p{Han}\p{Katakana}ー]順\s*$|(?:古い|新しい|大きい|小さい|多い|少ない|高い|低い|早い|遅い)[\p{Han}\p{Katakana}ー]{1,6}から\s*$",
    ),
    append: re(
        r"まとめて|まとめた|まとめ、|1つに|一つに|１つに|つなげ|繋げ|連結|縦に|合わせて|統合|の下に|くっつけ|合算",
    ),
});

/// Rows without a partner on either side ("entries that only show up on one side", 「片方にしかない」).
static EN_KEEP_ALL_OF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:bring|brings|add|adds|copy|pull|look up|fill in|attach|carry)\b(?:[^.;]|\.\S)*?\bfrom\b(?:[^.;]|\.\S)*?\b(?:into|to|onto)\s+(?:the\s+|each\s+|every\s+|all\s+)?(?P<target>[\w.\-]+)(?:\s+(?:in|of)\s+(?P<file>[\w.\-]+\.(?:csv|xlsx|xls|tsv)))?|(?i)\bkeep\s+(?:the|each|every|all(?:\s+the)?|those)\s+(?P<kept>[a-z_]+?)s?\s+(?:anyway|regardless|all the same)\b",
    )
});
/// 「マスタに載っていない取引先も消さずに残して」: rows without a partner said to stay too, no rows
/// wanted for having none.
pub static UNMATCHED_KEPT_TOO: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:ない|ません)[^。、]{0,12}?も(?:[^。、]{0,8}?(?:せず|さず|さない|しない)(?:に)?)?[、\s]*(?:残し|残す|残る|含め|含む|そのまま)",
    )
});
/// A match on two keys together: 「単価は焼成方法とサイズ区分の両方で決まります」,
/// 「焼成方法とサイズ区分で引いて」, "the rate depends on both grade and size". A match on one key
/// would pair each row with every row of the other table that shares it.
pub static TWO_KEYS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)[^、。をがはで\s]{1,15}(?:と|・)[^、。をがはで\s]{1,15}?の?(?:両方|2つ|二つ|組み合わせ|組合せ)(?:で|を)|[^、。をがはで\s]{1,15}と[^、。をがはで\s]{1,15}で(?:引|突き合わ|照合|紐付|紐づ|マッチ|結合|決ま)|\b(?:on|by|using) both (?:the )?[a-z_]+(?: [a-z_]+)? and (?:the )?[a-z_]+(?: [a-z_]+)?|\bdepends? on both\b",
    )
});
/// "keep the transaction anyway": rows without a partner stay.
pub static KEPT_ANYWAY: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\bkeep\s+(?:the|each|every|all(?:\s+the)?|those)\s+[a-z_]+\s+(?:anyway|regardless|all the same)\b")
});
static JA_KEEP_ALL_OF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<target>[^\s、。をがはの「」]+?\.(?:csv|xlsx|xls|tsv))\s*(?:の[^、。にをが]{1,8})?に、?[^。]{1,60}?(?:付け|付与|追加|転記|持ってく|持って来|持ってき|引っ張)",
    )
});

/// The table a lookup adds to, whose every row stays: "bring the region from stores.csv into
/// sales.csv", "if a cost center isn't in that list, keep the transaction anyway",
/// 「売上.csvに店舗.csvの地域を付けて」.
pub fn keep_all_of(text: &str, language: Language) -> Option<String> {
    let pattern = match language {
        Language::En => &*EN_KEEP_ALL_OF,
        Language::Ja => &*JA_KEEP_ALL_OF,
    };
    pattern
        .captures(text)
        .and_then(|c| c.name("file").or(c.name("target")).or(c.name("kept")))
        .map(|m| m.as_str().trim_end_matches('.').to_owned())
}

static EN_SIDE_KEYS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:the\s+)?(?P<a>[a-z][\w]*(?: [a-z][\w]*)?)'s\s+(?P<ka>[\w ]{1,30}?)\s+(?:should be|should match|must match|matches|match|equals|is the same as|corresponds to|is|=)\s+(?:the\s+)?(?P<b>[a-z][\w]*(?: [a-z][\w]*)?)'s\s+(?P<kb>[\w ]{1,30}?)\s*(?:[.,;)]|$|\band\b|\bthen\b)|\b(?:match(?:ing)?|compare|reconcile|check|checking|verify)\s+(?:the\s+|each\s+|every\s+)?(?P<ka2>[\w ]{1,30}?)\s+(?:in|of|on)\s+(?P<a2>[\w.-]+\.(?:csv|xlsx|xls|tsv))\s+(?:with|to|against|and)\s+(?:the\s+)?(?P<kb2>[\w ]{1,30}?)\s+(?:column\s+)?(?:in|of|on)\s+(?P<b2>[\w.-]+\.(?:csv|xlsx|xls|tsv))|\b(?:match(?:ing)?|compare|reconcile|join|link)\s+(?:the\s+)?(?P<a3>[a-z][\w]*(?: [a-z][\w]*)?)'s\s+(?P<ka3>[\w ]{1,30}?)\s+(?:to|with|against|and|on)\s+(?:the\s+)?(?P<b3>[a-z][\w]*(?: [a-z][\w]*)?)'s\s+(?P<kb3>[\w ]{1,30}?)\s*(?:[.,;)]|$|\band\b|\bthen\b)|\b(?:appears?|shows? up)\s+in\s+the\s+(?P<kb4>[a-z_][\w]*)\s+column\s+of\s+(?P<b4>[\w.-]+\.(?:csv|xlsx|xls|tsv))|\((?P<ka5>[a-z_][\w]*(?: [a-z_][\w]*)?)\s+in\s+(?:the\s+)?(?P<a5>[\w.-]+?(?: [\w.-]+?)??)(?:\s+(?:file|one|side|export|sheet))?,?\s+(?:and\s+)?(?P<kb5>[a-z_][\w]*(?: [a-z_][\w]*)?)\s+in\s+(?:the\s+)?(?P<b5>[\w.-]+?(?: [\w.-]+?)??)(?:\s+(?:file|one|side|export|sheet))?\)",
    )
});
static JA_SIDE_KEYS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^\s、。をがはの「」]+?)\s?の\s?「?(?P<ka>[^\s、。をがはのと「」]+?)」?\s?と\s?(?P<b>[^\s、。をがはの「」]+?)\s?の\s?「?(?P<kb>[^\s、。をがはのと「」]+?)」?\s?(?:で|を)(?:突き合わせ|照合|突合|マッチ|紐付け|ひも付け|紐づけ)",
    )
});

/// Match keys named per table when they differ: "the receipt's Invoice Ref should be the
/// ledger's Invoice Number", "match the statement's Reference to the ledger's Bank Ref", "on the
/// reference (ref in the bank file, doc_ref in the ledger)", 「入金.csvの請求番号と請求.csvの番号で照合」:
/// (table word, key) pairs.
pub fn side_keys(text: &str, language: Language) -> Vec<(String, String)> {
    let pattern = match language {
        Language::En => &*EN_SIDE_KEYS,
        Language::Ja => &*JA_SIDE_KEYS,
    };
    let Some(c) = pattern.captures(text) else { return keys_said_equal(text) };
    let pair = |side: &str, key: &str| {
        Some((c.name(side)?.as_str().trim().to_owned(), c.name(key)?.as_str().trim().to_owned()))
    };
    [
        pair("a", "ka").or_else(|| pair("a2", "ka2")).or_else(|| pair("a3", "ka3")).or_else(|| pair("a5", "ka5")),
        // "its po_number appears in the po_ref column of invoices.csv": one side's key named.
        pair("b", "kb")
            .or_else(|| pair("b2", "kb2"))
            .or_else(|| pair("b3", "kb3"))
            .or_else(|| pair("b4", "kb4"))
            .or_else(|| pair("b5", "kb5")),
    ]
    .into_iter()
    .flatten()
    .filter(|(_, key)| !key.is_empty())
    .collect()
}

/// "Match bank.csv to invoices.csv on reference = invoice_no", "… (match reference to
/// invoice_no)": the keys said equal, in the order the two tables are named.
fn keys_said_equal(text: &str) -> Vec<(String, String)> {
    static KEYS_EQUAL: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)\b(?:on|by|using|where)\s+(?:the\s+)?(?P<a>[a-z_][\w]*)\s*(?:=|==)\s*(?P<b>[a-z_][\w]*)|\(\s*match(?:ing)?\s+(?:the\s+)?(?P<a2>[a-z_][\w]*)\s+(?:to|with|against|on)\s+(?:the\s+)?(?P<b2>[a-z_][\w]*)\s*\)",
        )
    });
    let Some(c) = KEYS_EQUAL.captures(text) else { return Vec::new() };
    match super::slots::file_names(text).as_slice() {
        // ("(match reference to invoice_no)": the keys in brackets, in the same order.)
        [first, second, ..] => {
            let (Some(a), Some(b)) = (c.name("a").or(c.name("a2")), c.name("b").or(c.name("b2"))) else {
                return Vec::new();
            };
            vec![(first.name.clone(), a.as_str().to_owned()), (second.name.clone(), b.as_str().to_owned())]
        }
        _ => Vec::new(),
    }
}

/// The steps an operation word (of `Lexicon::operation`) may name.
pub fn steps_of_operation(word: &str) -> &'static [&'static str] {
    const TOTALS: &[&str] = &["aggregate", "compute"];
    let has = |parts: &[&str]| parts.iter().any(|p| word.contains(p));
    // "all the rows in each such group": the groups of a duplicate check, or of totals.
    if word == "group" {
        return &["aggregate", "duplicates", "dedupe", "latest"];
    }
    if has(&["sort", "rank", "order", "並"]) || word == "ソート" {
        &["sort"]
    } else if has(&["match", "compare", "reconcile", "突", "照合", "比較"]) {
        &["join", "duplicates"]
    } else if has(&["dedupe", "duplicate", "重複"]) {
        &["duplicates", "dedupe"]
    } else {
        TOTALS
    }
}

/// "add a Month column to", "bring the cost center from a.csv into": a column added to a table.
pub static ADDS_COLUMN_TO: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:add|adds|adding|insert|append|bring|put)\b.*\bcolumns?\b.*\b(?:to|into)$|\b(?:add|bring|brings|copy|pull|carry|look up|fill in)\b.*\bfrom\b.*\b(?:to|into)$",
    )
});
/// A verb that puts two tables side by side: "match", "reconcile", "compare".
pub static MATCH_VERB: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:match|matching|reconcile|reconciling|compare|comparing|join|tie out|cross-check)\b"));
/// "File name x.xlsx", "name it x.csv", "output: x.csv": the file named is the output.
pub static EN_NAMES_OUTPUT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:\bfile ?name|\bname (?:it|the file|the output|the result)|\bcall (?:it|the file)|\boutput(?: file)?|\bresults?(?: file)?)(?: is| should be| will be| as|:| in| into| to| goes (?:in|into|to))?$|\b(?:saved|written|exported|stored|put)\s+(?:as|to|in|into)$|\b(?:into|to|as) (?:a |an |one |a single |a new |one new |the )?(?:[a-z]+ )?(?:file|csv|workbook|spreadsheet|sheet|table|list)(?: (?:called|named))?\s*[,:(]?$",
    )
});
/// "keep all the existing columns", 「既存の列はそのまま」: nothing is left out.
pub static KEEPS_ALL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bkeep(?:s|ing)? (?:all|every|each|everything|the (?:existing|other|original|rest|remaining))\b|\b(?:all|every) (?:the |other |existing |original )*(?:columns?|rows?|fields?) (?:as (?:they are|is)|unchanged)\b|(?:すべて|全て|全部|既存|元)の(?:列|項目|行|データ)(?:は|を|も)(?:そのまま|残|保持|維持)",
    )
});
pub static EITHER_SIDE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(one side|either side|both sides|only (show up|shows up|appear|appears|exist|exists) (on|in) one)\b|片方|どちらか一方|一方にしか|双方",
    )
});
/// English: what the rows without a match are ("the invoices that have no payment", "orders
/// without a receipt", "claims whose employee is not in the staff list").
pub static EN_UNMATCHED_SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?P<x>[a-z_]+) (?:that|which|who|where) (?:have|has|had|got|show|shows)? ?(?:no|not|never)\b|\b(?P<y>[a-z_]+) (?:without|with no|lacking|missing|that lack) (?:a |an |any |matching |corresponding )?[a-z_]+|\b(?P<z>[a-z_]+)(?: in [\w.]+)? (?:don'?t|doesn'?t|do not|does not|haven'?t|hasn'?t|have not|has not|never) ",
    )
});
/// Japanese: 「入金のない請求書」「受領がまだない発注」「社員名簿にない申請」.
pub static JA_UNMATCHED_SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:の|が|に|も)(?:まだ)?(?:ない|無い|存在しない|見つからない|載っていない|登録されていない)(?P<x>[^、。をがはでと\s「」]{1,12}?)(?:を|が|は|だけ|のみ|の|、|。|$)|(?P<y>[^、。をがはでと\s「」]{1,12})(?:のうち|の中で)",
    )
});
/// English: what a filter keeps ("keep only the suppliers whose balance …").
pub static EN_KEPT_SUBJECT: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:only|just)\s+(?:the\s+)?(?P<s>[a-z_]+)\s+(?:whose|with|where|that|which|having)\b"));
/// Japanese: what a filter keeps (「…仕入先だけを残して」).
pub static JA_KEPT_SUBJECT: LazyLock<Regex> = LazyLock::new(|| re(r"(?:だけ|のみ)(?:を|に)?(?:残|絞|抽出|抜き出)"));
/// English: the key of rows not in another table ("whose employee_id is not in staff.csv").
/// Units a measure of each row is counted in ("how many days did it take"): said after a count
/// word, they ask no count of rows.
pub const TIME_UNITS: [&str; 7] = ["days", "hours", "minutes", "seconds", "weeks", "months", "years"];

/// "Count as open: status Open, In Progress or Reopened", "Open means Open or Reopened": a word
/// defined by the values of a column (as written; the list ends at a bracket or a full stop).
pub static EN_DEFINED_AS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:count(?:s|ed)? as|treat(?:ed)? as)\s+(?P<word>[a-z][a-z ]{0,20}?)\s*:\s*(?:(?P<field>status|state|stage|result|priority)\s+)?(?P<values>[^.;:()\n]+)|(?:^|[.;:!?]\s+)(?P<word2>[a-z][a-z ]{0,20}?)\s*(?:=|means)\s*(?P<field2>status|state|stage|result|priority)\s+(?P<values2>[^.;:()\n]+)",
    )
});
pub static EN_NOT_IN_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:whose|where the|where) (?P<k>[a-z_][\w ]{0,20}?) (?:is not|isn't|does not appear|doesn't appear|is missing)(?: anywhere| at all)? (?:in|on|from)\b|\bno (?:entry|entries|line|lines|record|records|row|rows|match|matches|counterpart) (?:with|of|for) the same (?P<k2>[a-z_][\w]*(?: [a-z_][\w]*)?) (?:in|on)\b",
    )
});
/// An aside that shows how values are written: "(req-012 means REQ-012)", "(e.g. 2026-01)",
/// 「（例：A-001）」.
pub static EXAMPLE_ASIDE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\([^()]*(?:\bmeans\b|\bsame as\b|\be\.g\.|\bfor example\b|\bsuch as\b|例[:：]|例えば)[^()]*\)")
});
/// How rows came to be in a file: "got pasted into", "were entered twice in", "was imported to".
pub static CAME_INTO: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:got|get|were|was|have been|has been|had been|are|is)\s+(?:\w+\s+)?(?:pasted|imported|entered|keyed|copied|loaded|uploaded|typed|recorded|logged|duplicated|double-entered)\s+(?:\w+\s+)?(?:in|into|to)$",
    )
});
/// Who asks for the work: "Finance wants to know …", "the Sales team asked for …", and who is
/// greeted: "Hi team -" — a name that may be a value of the data, but keeps no rows here.
pub static REQUESTER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b[A-Z][\w&]*(?:\s+[A-Z][\w&]*)?(?:\s+(?:team|dept|department|folks|people))?\s+(?:wants|want|needs|need|asked|asks|would like|requested|is asking|has asked|wanted)\b|^\s*(?i:hi|hello|hey|dear|morning|good morning|good afternoon)\s+(?i:all|team|everyone|folks|guys|there|[A-Z][\w]*)\b",
    )
});
/// A column renamed with its old name in brackets: "Vendor (from vendor_name)", "Due (due_date)".
pub static RENAMED_FROM: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)(?P<new>[a-z_][\w]*(?: [a-z_][\w]*){0,2}?)\s*\((?P<from>from\s+|was\s+|=\s*)?(?P<old>[a-z_][a-z0-9_]*)\)")
});
/// 「精算額（申請の「金額」列をこの名前にしてください）」「精算額（元の列名は金額）」: a listed
/// column and, in its aside, the column it is made from.
pub static JA_RENAMED_FROM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<new>[^、・\s（()）「」]{1,20})\s*[（(][^（）()]*?(?:「(?P<old>[^「」]{1,20})」\s*(?:の?列|の?項目)?を(?:この名前|この列名|この見出し|改名)|(?:元の?(?:列名?|項目名?)?|旧列名?)(?:は|:)\s*「?(?P<old2>[^「」（）()、\s]{1,20})」?(?:列|です)?|「?(?P<old3>[^「」（）()、\s]{1,20}?)」?\s*(?:の?列)?(?:から|を改名|の名前を変え))[^（）()]*[）)]",
    )
});
/// Filter words that leave no rows out: what a file holds ("only has SKUs and quantities", "has
/// only two columns") and an order kept ("keep the rows in the same order as po_lines.csv").
pub static NO_FILTER_MEANT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:only (?:has|have|holds|contains|lists|gives|shows)|(?:has|have|holds|contains) only)\b|\bkeep (?:the |all |all the )?(?:[a-z_]+s |them |it |everything )?\s*(?:in )?(?:(?:the same|the original|their original|its original|their|its|the file's|the input's|the current|the existing) (?:order|sequence)\b|the (?:order|sequence) (?:they|it)(?:'re|'s| are| is| were| was| came)\b)|(?:照合|突合|突き合わせ|マッチング|紐付け|紐づけ|キー)(?:は|の条件は)[^、。]{1,20}?(?:だけ|のみ)",
    )
});

/// A month shown as the example of how months are written: 「月（「2026年9月」のような形）」「年月は
/// 2026/09 の形式で」, "the month (written like 2026/09)", "label each month like 2026-01".
pub static MONTH_FORM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)月[^。、\n]{0,8}?[（(:：は]?\s*「?(?P<form>\d{4}\s*年\s*\d{1,2}\s*月|\d{4}[-/.]\d{1,2})」?\s*(?:のような|のように|みたいな|みたいに|の形|という形|形式|の表記|など)|\bmonths?\b[^.;\n]{0,30}?\b(?:like|as|e\.g\.?|format(?:ted)?(?: as)?)\s*[:(]?\s*["'“]?(?P<form2>\d{4}[-/.]\d{2}|\d{4}年\d{1,2}月)"#,
    )
});

/// A value's shape shown by an example ("label each month like 2026-01", "tag every week as
/// 2026-W05"): how it is written, not categories to choose from.
pub static LABELLED_LIKE: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"\b(?:label|tag|name) (?:each|every|the) [a-z_]+ (?:like|as|in the form|the way) ["'“(]?[a-z]{0,3}[-/]?\d"#)
});

/// Japanese nouns that name the rows themselves (「取引」「伝票」「明細」), not a column or a value
/// of one: 「取引先ごとの伝票」 totals rows, 「取引の多い順」 counts them. (Not 「請求」: 「入金が1件も
/// ない請求だけ」 keeps rows by what is said of it.)
pub const JA_ROW_NOUNS: &[&str] = &[
    "行",
    "請求書",
    "データ",
    "もの",
    "明細",
    "支払",
    "支払い",
    "件",
    "レコード",
    "取引",
    "経費",
    "入金",
    "伝票",
    "分",
    "額",
    "注文",
];

/// Rows said to tie, for a sort's next key ("where two are equal", "if two share a date"): no
/// condition, whatever its "where" or "if".
pub static TIE_SAID: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:where|when|if) (?:any )?(?:two|both|they|those|some) (?:of them |rows |lines |entries )?(?:are|is|come out|end up) (?:equal|the same|tied|level)\b|\b(?:where|when|if) (?:any )?(?:two|both|they|those|some) (?:of them |rows |lines |entries )?(?:[a-z]+ )?(?:share|have the same|tie on) (?:an? |the )?[a-z_]+\b",
    )
});

/// What a row is said to count as ("a receipt whose po_number is empty counts as having no PO"):
/// a definition, no rows left out (unless negated: "Void doesn't count as paid").
pub static COUNTS_AS: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:counts|count|is counted|are counted|is treated|are treated|should be treated) as\b"));

/// What rows are not counted in (「件数にも平均にも含めないで」): the totals, no condition.
pub static COUNTED_IN: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?:[^\s、。「」をがはで]{1,10}に(?:も|は)?)+(?P<verb>含め|入れ|数え|カウントし)(?P<not>ない|ません)")
});

/// The old names of a list of columns said after it: "customer, invoice, balance (taken from
/// Customer, Invoice No and Balance Due)".
pub static OLD_NAMES_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\((?:taken |renamed |mapped |coming )?from:?\s+(?P<olds>[^()]+?)(?:,?\s+respectively)?\)\s*$")
});

/// What a column holds, said of all its rows: 「税率の列には 10 か 8 が入っています」.
pub static COLUMN_HOLDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:列|欄)には[^。]{1,30}?(?:が|の数字が|の値が)?(?:入って|入ります|書かれて|記載されて)"));

/// How a sheet is laid out: "there are two title lines above the header row", 「上に表題が2行」.
pub static SHEET_LAYOUT_SAID: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(?:title|heading|header|blank|empty)\s+(?:lines?|rows?)\b|表題|タイトル行|見出し行|見出しの行")
});

/// A column the text calls one: "has a req_id column", "the po_ref field".
pub static CALLED_A_COLUMN: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:a|an|the|its|their) (?P<c>[a-z_][\w]*) (?:column|field)\b"));
/// Keys said to be typed in another case, to match whatever it is: "some are in lowercase",
/// "regardless of case", 「大文字小文字を区別せず」.
/// Leading zeros of codes lost: 「先頭の0が消えてしまっている」「ゼロ落ち」, "Excel dropped the leading
/// zeros".
pub static LEADING_ZEROS_LOST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)先頭の\s*(?:0|０|ゼロ)\s*が\s*(?:消え|落ち|取れ|抜け|なくな|無くな)|ゼロ落ち|0落ち|\bleading zeros?\b[^.;]{0,30}\b(?:dropped|lost|stripped|missing|removed|gone|disappeared)\b|\b(?:dropped|lost|stripped|removed)\b[^.;]{0,20}\bleading zeros?\b",
    )
});
pub static ANY_CASE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:lower ?case|upper ?case|regardless of (?:the )?case|case[- ]insensitive(?:ly)?|ignor(?:e|ing) (?:the )?case|any case|different case|mixed case|different capitals|(?:different |any |the same whatever the )capitali[sz]ation|capitals? (?:don'?t|do not) matter)\b|大文字(?:・|と|や)?小文字|大小文字",
    )
});
/// Japanese: 「社員番号が社員一覧.csvに存在しない」「請求一覧.xlsx に同じ請求番号が見当たらない」
/// 「社員一覧.xlsx に載っていない社員番号の申請」.
pub static JA_NOT_IN_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<k>[^\s、。をがはのに「」]{1,16})が[^\s、。をがは]{1,40}?(?:に|で)(?:存在しない|ない|無い|見つからない|見当たらない|載っていない|登録されていない)|(?:に|で)(?:まだ|一度も)?(?:同じ)?(?P<k2>[^\s、。をがはのに「」]{1,16})が(?:出てこない|出てきていない|出ていない|存在しない|見つからない|見当たらない|載っていない|含まれていない|登録されていない|ない|無い)|(?:に|で)同じ(?P<k3>[^\s、。をがはのに「」]{1,16})の[^\s、。をがは]{1,12}?が(?:ない|無い|見つからない|見当たらない|存在しない)|(?:に|で)(?:載っていない|登録されていない)(?P<k4>[^\s、。をがはのに「」]{1,16})の",
    )
});
/// English: where a match key follows (`on`, `by`, `using`).
pub static EN_JOIN_KEY: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(by matching on|matching on|keyed on|with key|on|by|using|via) (the )?"));
/// "match on vendor id", "joined by sku": the key said with the match, before any other "on".
pub static EN_MATCH_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:match(?:ed|ing)?|join(?:ed|ing)?|keyed|link(?:ed|ing)?|look(?:ed|ing)? up) (?:them |it |the (?:two|files|tables|lists) )?(?:on|by|using|via) (?:the )?",
    )
});
/// "no W-9 on file", "on hold", "on time": an "on" that names no key.
pub static ON_NO_KEY: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:file|record|hold|time|site|leave|board|top|track|schedule|the file|the list)\b"));
/// Values said to count with the rest ("BLOCKED and FAIL count as run", "Pending ones are fine",
/// "whatever the result").
pub static SAID_TO_COUNT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:counts? as|count too|counts too|all count|still counts?|(?:is|are) fine|(?:don'?t|doesn'?t) matter|whatever the)\b",
    )
});
/// "(private and group lessons together)", 「個人・団体レッスン合わせて」: values said to be taken alike,
/// which keep no rows (not "both Approved and Paid", which may say the rows kept).
pub static TAKEN_ALIKE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b[\w-]+\s+(?:and|or|&|\+)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:together|combined|alike)\b|\b(?:whether|regardless of whether)\s+(?:it'?s\s+|they'?re\s+)?[\w-]+\s+or\s+[\w-]+\b|[^、。\s（(]{1,12}(?:と|・|／|/)[^、。\s（(]{1,12}?(?:を|の|は)?(?:合わせて|あわせて|合算|区別せず|区別なく|問わず)",
    )
});
/// "if its case_id shows up in executions.csv", "its po_number appears in the po_ref column".
pub static EN_KEY_APPEARS_IN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:its|their|the|a|an) (?P<key>[a-z_][\w]*) (?:shows? up|appears?|is (?:listed|found)) (?:at least once )?in\b",
    )
});
/// "there's a reference column in both", "the Invoice No column is in both files".
pub static EN_KEY_IN_BOTH: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(?:a|an|the) (?P<key>[a-z_][\w]*(?: [a-z_][\w]*)?) (?:column|field) (?:is )?in both\b")
});
/// Japanese: the particle and verb after a match key (`取引先コードで突き合わせ`).
pub static JA_JOIN_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(で|をキーに|をキーとして|をもとに|を基準に|が一致する)(突き合わせ|突き合わ|突合|照合|結合|紐付|紐づけ|マッチング|消込|消し込|照らし合わせ|して|、|行|もの|データ)?",
    )
});
/// English: "match A against B".
pub static EN_JOIN_SIDES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:match|reconcile|join|merge|compare|cross-check|combine)\s+(?:the\s+)?(?P<a>[\w ]{1,40}?)\s+(?:against|with|to|and)\s+(?:the\s+)?(?P<b>[\w ]{1,40}?)(?:\s+(?:on|by|using|via)\b|,|$)",
    )
});
/// Japanese: 「AとBを」.
pub static JA_JOIN_SIDES: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?P<a>[^、。をとは\s]{1,20})と(?P<b>[^、。をと\s]{1,20})を"));
/// English: "into A, B and C", "as A or B".
pub static EN_CATEGORIES: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:into|as|between)\s+(.{3,120}?)(?:\.|;|$| and (?:write|save|then|export))"));
/// Japanese: 「A・B・Cに分類」「A、Bのいずれか」.
pub static JA_CATEGORIES: LazyLock<Regex> =
    LazyLock::new(|| re(r"([^をはがで。]{2,80}?)(?:に分類|のいずれか|のどれか|に振り分|かを判定|に仕訳)"));
/// Japanese: what is asked for (`対象月を入力してもらう`).
pub static JA_ASK_FIELD: LazyLock<Regex> = LazyLock::new(|| re(r"を(入力|尋ね|聞|指定|選ん)"));
/// English: the columns to keep ("I only need the columns A, B and C", "keep just A, B and C",
/// "… isn't Rejected. just A, B, C -> x.csv", "Save to x.csv with A, B, C, D.", "I want voucher,
/// date, paid_to, amount for the October ones", "want name, dept, ot hours and ot pay", "… and show
/// office, order number and amount.", a sentence
/// of names alone: "sku, item name, qty and how many to order (par level minus qty), sorted by sku",
/// "user_id, email (as in the directory) and department is all they need").
pub static EN_COLUMNS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:\b(?:(?:only|just)\s+(?:the\s+)?(?:\w+\s+){0,2}(?:columns?|fields?),?(?:\s+in\s+(?:this|that|the following)\s+order)?,?(?:\s+renamed)?\s*:|with\s+(?:just|only)\s+the|with\s+(?:the\s+)?(?:(?:two|three|four|five|six|seven|eight|\d)\s+)?(?:columns?|fields?)\s*:?|(?:only|just)\s+(?:need|want|keep)?\s*(?:the\s+)?(?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s+)?(?:columns?|fields?),?|keep\s+(?:only|just)(?:\s+the\s+columns?)?|(?:only|just)\s+(?:need|want|keep))|(?:^|[.;:!?,]\s+|\n\s*(?:[-*•・]\s*|\d{1,2}[.)]\s*)?)(?:the\s+)?(?:output\s+|result\s+)?(?:(?:two|three|four|five|six|seven|eight|\d)\s+)?(?:columns?|cols?)(?:\s+in\s+(?:this|that|the following)\s+order)?(?:,?\s+(?:named|called|titled|headed))?\s*[:,]?|(?:^|[.;:!?]\s+|[ \t][—–-][ \t]*|—)(?:only|just)(?:\s+(?:keep|need|want|include|show|list|give me))?(?:\s+the)?(?:\s+(?:columns?|fields?))?)\s+(?P<list>[^.;?!\n]+?)(?:\s*(?:,\s*)?(?:and\s+)?(?:then\s+)?\b(?:save|saved|write|put|export|output|store|create|give|rename|call|please|in (?:that|this|the same) order)\b|\s*,\s*with\s+the\b|\s*,?\s*\b(?:into|to|in|as)\s+[^\s,;]+\.(?:csv|tsv|xlsx|xls|json|md)\b|[.;?!\n]|$)|(?:^|[.;:!?]\s+|\s)(?:please\s+)?(?:output|give me|give|return|show|send me)\s+(?P<list4>[^.;:?!\n]+?,[^.;:?!\n]+?)\s+(?:to|into|as|in)\s+\S+\.(?:csv|xlsx|xls|md|json)\b|(?:^|[.;:!?,]\s+(?:(?:and|then|also)\s+)?|\s(?:and|then)\s+)(?:list|show|showing|give me|include)\s+(?P<list5>[a-z_][\w]*(?: [a-z_][\w]*){0,2}(?:\s*\([^)]{1,60}\))?(?:,\s*[a-z_][\w]*(?: [a-z_][\w]*){0,2}(?:\s*\([^)]{1,60}\))?)*,?\s+and\s+(?:an?\s+|the\s+)?[a-z_][\w]*(?: [a-z_][\w]*){0,2}(?:\s*\([^)]{1,60}\))?)(?:\s+rounded\s+to\s+(?:\d|one|two|three|four)\s+(?:decimals?|decimal places?|places|dp))?(?:\s*[,.;]|$)|\b(?:save|write|export|put)\s+(?:it\s+|them\s+|the result\s+|everything\s+)?(?:(?:to|as|into|in)\s+)?\S+\.(?:csv|xlsx|xls|md|json)\s+with\s+(?:the\s+)?(?:columns?\s+)?(?:just\s+|only\s+)?(?P<list8>[a-z_][\w ]*?(?:,\s*[a-z_][\w ]*?)+?(?:,?\s+and\s+[a-z_][\w ]*?)?|[a-z_]\w*(?: [a-z_]\w*)?\s+and\s+[a-z_]\w*(?: [a-z_]\w*)?)\s*(?:[.;?!]|$|,\s*(?:sorted|ordered|order|by|in)\b)|(?:^|[.;:!?,]\s*|\s)(?:i'?d like|i would like|(?:i |we )?want|(?:i |we )?need|give me)\s+(?:the\s+)?(?:columns?\s+)?(?P<list9>[a-z_]\w*(?: [a-z_]\w*){0,2}(?:,\s*[a-z_]\w*(?: [a-z_]\w*){0,2}){2,}(?:,?\s+and\s+(?:an?\s+|the\s+)?[a-z_]\w*(?:/[a-z_]\w*)?(?: [a-z_]\w*)?(?:\s+column)?(?:\s*\([^)]{1,80}\))?)?)(?:\s+(?:it'?s|it is|they'?re|they are|it was|they were)\s+[a-z]+(?:\s+(?:to|for|by|in|on|with))?)?(?:\s+(?:for|with|in|from|sorted|ordered|order|by|as)\b|\s*[,.;:?!]|\s*->|$)|\b(?:list|show|give me|return|output|pull)\b(?:[^.;:?!\n]|\.(?:csv|tsv|xlsx|xls)\b){0,80}?\bwith\s+(?:the\s+)?(?:columns?\s+)?(?P<list13>[a-z_]\w*(?: [a-z_]\w*){0,2}(?:,\s*[a-z_]\w*(?: [a-z_]\w*){0,2})+,?\s+and\s+(?:the\s+)?[a-z_]\w*(?: [a-z_]\w*){0,2})(?:\s*[,.;:?!]|\s+(?:sorted|ordered|in|to|into)\b|$)|(?:^|[.;:!?]\s+|\n\s*(?:[-*•]\s*)?)(?P<list14>[a-z_]\w*(?: [a-z_]\w*){0,2}(?:(?:,\s*[a-z_]\w*(?: [a-z_]\w*){0,2}){1,},?\s+and\s+(?:an?\s+|the\s+)?[a-z_]\w*(?: [a-z_]\w*){0,3}|(?:,\s*[a-z_]\w*(?: [a-z_]\w*){0,2}){3,})(?:\s*\([^)]{1,80}\))?)(?:\s*,\s*(?:sorted|ordered|by|in|with|any order|(?:newest|oldest|latest|earliest|biggest|largest|highest|lowest|smallest) first)\b|\s*->|\s*[.;?!\n]|$)|(?:^|[.;:!?]\s+|\n\s*(?:[-*•]\s*)?)(?P<list17>[a-z_]\w*(?: [a-z_]\w*){0,2}(?:\s*\([^)]{1,40}\))?(?:,\s*[a-z_]\w*(?: [a-z_]\w*){0,2}(?:\s*\([^)]{1,40}\))?)*,?\s+and\s+[a-z_]\w*(?: [a-z_]\w*){0,2}(?:\s*\([^)]{1,40}\))?)\s+(?:is|are)\s+(?:all|everything|what)\s+(?:i|we|they|you|he|she)\s+(?:need|want)s?\b|(?:^|[.;:!?,]\s*|\s)(?:i'?d like|i would like|(?:i |we )?want|(?:i |we )?need|give me)\s+(?:the\s+)?(?:columns?\s+)?(?P<list18>[a-z_]\w*(?: [a-z_]\w*)?\s+and\s+[a-z_]\w*(?: [a-z_]\w*)?),?\s+in\s+(?:that|this)\s+order\b",
    )
});
/// A new name said in brackets after a column: "assignee (call it owner)", "vendor (rename it
/// to supplier)", "amount (named total)".
pub static EN_CALL_IT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\(\s*(?:call(?:ed)? it|rename(?:d)?(?: it)? (?:to|as)|named?|header)\s+(?P<new>[a-z_][\w]*(?: [a-z_][\w]*)?)\s*\)",
    )
});
/// Japanese: 「A・B・Cの列だけにして」「社員番号・氏名だけ残し」「取引先名と合計金額だけ」「列は A、B、C の3つで」
/// 「列は取引先名と合計金額の2つで」「会社・乗車日・金額 の列にして」
/// 「列は A、B、C の順にする」「取引先を重複なしで1列だけ」「品番・品名・差異数量 の順に並べて」
/// 「得意先の一覧を重複なしで」
/// 「科目コード・科目名・件数・合計金額を、合計の多い順で」「見積番号・顧客名・経過日数（本日−有効期限）を出して」 (three
/// names or more: two may be the keys of a sort).
pub static JA_COLUMNS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<list>[^、。をはがでと\s]{1,30}(?:[ \t　]*[・、][ \t　]*[^、。をはがでと\s]{1,30}|と[^、。をはがでと\s]{1,30})+)\s*(?:の\s*(?:列|項目|カラム)\s*(?:で|に\s*(?:して|する|し))|(?:の)?\s*(?:(?:列|項目|カラム)?\s*(?:だけ|のみ)|(?:\d+|[０-９]+|[一二三四五六七八九十]+)\s*(?:列|項目|カラム)))|(?:列|項目|カラム)名?(?:は|を|:)\s*(?P<list2>[^、。をはがで\s]{1,30}(?:\s*[・、]\s*[^、。をはがで\s]{1,30}?|と[^、。をはがで\sしす][^、。をはがで\s]{0,29}?)+?)\s*(?:の)?\s*(?:(?:\d+|[０-９]+|[一二三四五六七八九十]+)\s*つ\s*(?:で|に絞|だけ|のみ|[、。]|$)|に絞|だけ|のみ|の\s*順(?:番)?\s*(?:に|で)|で(?:[、。!！]|お願い|出力|保存|書き出|$)|です(?:[、。!！]|$)|で\s*[^\s、。]+\.(?:csv|xlsx|xls|tsv)\b|[。\n]|$)|(?P<one>[^、。をはがで\s]{1,60}?)\s*の?\s*(?:列|項目|カラム)(?:だけ|のみ)|(?:[^、。をはがで\s（）()]{0,30}?(?:した|する|の))?(?P<one2>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,30})(?:[（(][^）)]{0,40}[）)])?\s*を[^、。]{0,12}?(?:1|１|一)\s*(?:列|項目|カラム)(?:だけ|のみ|で|に)|(?:列|項目|カラム)(?:は|を)\s*(?P<list6>[^、。をはがで\s・]{1,30}(?:\s*・[^、。をはがで\s・]{1,30})+)\s*(?:の\s*順番?\s*)?(?:、|。|$|と(?:して|する|し|します)|に(?:して|する|します)|という(?:名前|列名|見出し)に)|(?:列|項目|カラム)(?:は|を)\s*(?P<list3>「[^」]{1,30}」(?:[・、と]?「[^」]{1,30}」)+)|(?P<list7>[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20}(?:\s*[・、]\s*[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20}){2,})\s*の\s*順番?\s*(?:に|で)\s*(?:並べて|並べる|並べ、|出力|保存|書き出)|(?P<list10>[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20}(?:\s*・\s*[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20}){2,})\s*の\s*(?:一覧|リスト|表)\s*(?:を|に|で|にし|として)|\.(?:csv|xlsx|xls|tsv)\s*[（(]\s*(?P<list11>[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20}(?:\s*・\s*[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20})+)\s*(?:[、,][^）)]{0,20})?[）)]|(?P<list15>[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20}(?:\s*・\s*[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20}){2,})\s*を\s*[、,]|(?:^|[、。\n]|\.(?:csv|xlsx|xls|tsv)\s*の\s*)(?P<list16>[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20}(?:[（(][^）)]{0,40}[）)])?(?:\s*・\s*[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20}(?:[（(][^）)]{0,40}[）)])?){2,})\s*を\s*(?:出し|出力|書き出|表示|載せ|記載)|(?:上位\s*\d+\s*[\p{Han}\p{Katakana}ー]{0,6}|一覧|リスト)\s*[（(]\s*(?P<list12>[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20}(?:\s*・\s*[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20})+)\s*[）)]|(?P<one3>[\p{Han}\p{Katakana}ーA-Za-z0-9_々]{1,20})\s*の\s*(?:一覧|リスト)\s*を?\s*[、,]?\s*(?:重複(?:なし|無し|を除|を削除|を取り除)|ユニーク)",
    )
});
/// An order said at the end of a list of columns: "biggest total first", "newest first",
/// "sorted by date", 「金額の大きい順」 (not a column such as "first name").
pub static ORDER_AFTER_LIST: LazyLock<Regex> =
    LazyLock::new(|| re(r"\s(?:first|last)$|\b(?:sorted|ascending|descending)\b|\bin [a-z]+ order$|順$"));
/// "(from customers.csv)", "(taken from x.csv)": an aside saying a column comes from another file
/// (lower case).
pub const FROM_A_FILE_IN_BRACKETS: &str =
    r"\((?:taken |looked up )?(?:from|in) (?:the )?[\w-]+\.(?:csv|xlsx|xls|tsv)\)";
/// "customer name (from customers.csv)": a column said to come from another file, looked up there.
pub static FROM_A_FILE_ASIDE: LazyLock<Regex> = LazyLock::new(|| re(&format!("(?i){FROM_A_FILE_IN_BRACKETS}")));
/// Rows without a partner dropped: "drop any PO line whose vendor code isn't in the master",
/// 「マスタに登録のない取引先コードの請求は一覧から外して」.
pub static DROPS_UNMATCHED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:drop|remove|exclude|leave out|skip)\b[^.;]{0,60}(?:isn't|is not|aren't|are not|not) (?:in|on|found in|listed in)\b|(?:登録の|載って|存在し|見つから)(?:ない|いない|ません)[^。]{0,40}(?:外し|外す|除い|除く|除外|削除|消し|消す)",
    )
});

/// "… and the assets that …", "… and any line …", 「…と、…も」: a second group of rows named.
pub static AND_ANOTHER_GROUP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:and|or) (?:also )?(?:the|those|any|anything|all|every) (?:[a-z]+ )?(?:that|which|with|whose|who|where|under|over|below|above|costing|dated)\b|\b(?:and|or) (?:anything|those|ones)\b",
    )
});

/// Rows kept by what they are: "keep only the withdrawals", 「出金だけ」.
pub static KEEPS_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?:keep|take|pull|show|list|give me) only\b|\bonly (?:keep|take|pull|show|list)\b|だけ|のみ")
});

/// Words that compare or deny: a clause saying them keeps rows by more than a value it names
/// ("the ones that aren't Approved", "Widgets over the limit", 「承認済み以外」).
pub static MORE_THAN_A_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:not|no|never|except|without|unless|over|under|above|below|more|less|fewer|than|before|after|between|least|most|within|older|newer|greater|higher|lower|equal|same|different|other|if|when|whose|where)\b|n't\b|ない|以外|以上|以下|未満|超|より|前|後|間|同じ|違う|異なる|場合",
    )
});

/// "the rows that are not billable", "entries which aren't approved": one word said of the rows
/// with its denial, and nothing else that compares.
pub static DENIED_STATE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?:that|which|who)\s+(?:(?:are|is|were|was)\s+not|aren't|isn't|weren't|wasn't)\s+(?P<word>[a-z][\w-]*)\b")
});

/// Which of the duplicates stay: "keep one copy of each", "keep both", 「1件だけ残す」.
pub static KEEPS_OF_DUPLICATES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\bkeep (?:just |only )?(?:one|both|each|a single|the first|the last|the latest|the earliest) ?(?:copy|copies|row|one|of them|of each)?\b|\b(?:drop|remove|delete|discard) (?:the |any )?(?:later|other|extra|subsequent|remaining) ?(?:ones|rows|copies|lines|entries)?\b|(?:1|１|一)件(?:だけ|のみ)?(?:を)?残|両方(?:とも)?残",
    )
});

/// New names for the chosen columns, in their order: "rename them to id, name, amount",
/// 「見出しはそれぞれ employee_id、name、amount に変えて」.
static EN_RENAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:rename (?:them|these|the columns|the headers|those columns)\s+(?:to|as)|(?:the )?(?:headers?|column names?|headings?) (?:should be|to be|as|become)|call them)\s+(?P<list>[^.;]+)",
    )
});
static JA_RENAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?:見出し|列名|項目名|ヘッダー?)(?:は|を)(?:それぞれ)?(?P<list>[^。]+?)(?:に変え|に変更|にして|にする|とし)")
});

/// The new names the text gives the columns it keeps, in order; empty when it gives none.
pub fn renamed_columns(text: &str, language: Language) -> Vec<String> {
    let Some(list) = new_name_lists(text, language).next() else { return Vec::new() };
    text[list]
        .split([',', '、', '・', '，'])
        .flat_map(|part| part.split(" and "))
        .map(|part| part.trim().trim_matches(|c: char| matches!(c, '"' | '\'' | '「' | '」' | '“' | '”')).trim())
        .filter(|part| !part.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Where the text lists new names for the columns it keeps, each list ending where a verb starts
/// the next part ("…, amount and save it as x.csv").
fn new_name_lists(text: &str, language: Language) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let pattern = match language {
        Language::En => &*EN_RENAMED,
        Language::Ja => &*JA_RENAMED,
    };
    pattern.captures_iter(text).filter_map(|c| c.name("list")).map(|list| {
        let end = EN_LIST_END.find(list.as_str()).map_or(list.end(), |m| list.start() + m.start());
        list.start()..end
    })
}

/// `text` with the new names of [`renamed_columns`] blanked (same length): "call them Customer,
/// Order Date and Total" names columns, it asks for no total.
pub fn without_new_names(text: &str, language: Language) -> String {
    let mut blanked = text.to_owned();
    for list in new_name_lists(text, language) {
        blanked.replace_range(list.clone(), &" ".repeat(list.len()));
    }
    // ("Host = common_name": a name given, no value a row must hold.)
    if language == Language::En {
        for said in EN_NEW_NAME_EQUALS.find_iter(text).filter(|m| !a_formula_goes_on(&text[m.end()..])) {
            blanked.replace_range(said.range(), &" ".repeat(said.len()));
        }
    }
    blanked
}

/// "rename Amount to "PO Amount"", 「「金額」の列名を「税抜金額」に変更」: one column renamed.
static EN_RENAMED_ONE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:rename (?:the )?(?:column )?["'“]?(?P<from>[^"'“”,.;]{1,30}?)["'”]?(?: column)? (?:to|as)|call (?:the )?["'“]?(?P<from2>[^"'“”,.;]{1,30}?)["'”]? column) ["'“]?(?P<to>[^"'“”,.;]{1,30}?)["'”]?(?:[,.;)]|\s+(?:and|then)\b|$)"#,
    )
});
/// "(Host = common_name, Owner = owner_team)": a new name, capitalised as a header, given to a
/// column of the data named as code names one (with `_`).
static EN_NEW_NAME_EQUALS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?P<to>[A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*){0,2})\s*=\s*(?P<from>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b")
});
static JA_RENAMED_ONE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"「?(?P<from>[^「」、。\s]{1,20}?)」?の?(?:列名|列の名前|見出し|項目名)(?:だけ|のみ)?を?「?(?P<to>[^「」、。\s]{1,20}?)」?に(?:変更|変え|して|する)|「(?P<from2>[^「」、。\s]{1,20})」の?列は「(?P<to2>[^「」、。\s]{1,20})」という(?:名前|列名|見出し)に(?:変更|変え|して|する)",
    )
});

/// Whether arithmetic follows a name given ("Drift = sensor_c - reference_c"): a formula, no
/// new name.
fn a_formula_goes_on(after: &str) -> bool {
    let after = after.trim_start();
    after.starts_with(['-', '+', '*', '/', '×', '÷', '−'])
        || ["minus ", "plus ", "times ", "divided by ", "x ", "multiplied by ", "less "]
            .iter()
            .any(|w| after.starts_with(w))
}

/// The columns the text renames one by one: (old name, new name).
pub fn renamed_one_by_one(text: &str, language: Language) -> Vec<(String, String)> {
    let pattern = match language {
        Language::En => &*EN_RENAMED_ONE,
        Language::Ja => &*JA_RENAMED_ONE,
    };
    let equals = match language {
        Language::En => EN_NEW_NAME_EQUALS
            .captures_iter(text)
            .filter(|c| c.get(0).is_some_and(|m| !a_formula_goes_on(&text[m.end()..])))
            .collect(),
        Language::Ja => Vec::new(),
    };
    pattern
        .captures_iter(text)
        .chain(equals)
        .filter_map(|c| {
            let to = c.name("to").or(c.name("to2"))?.as_str();
            Some((c.name("from").or(c.name("from2"))?.as_str().trim().to_owned(), to.trim().to_owned()))
        })
        .filter(|(from, to)| !from.is_empty() && !to.is_empty() && from != to)
        .collect()
}

static EN_LIST_END: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\s*,?\s*\b(?:and\s+)?(?:then\s+)?(?:save|write|put|export|output|store|give|send)\b"));

/// 「…の3つ」「…の4列」 closing a list of columns.
pub static JA_LIST_COUNT: LazyLock<Regex> =
    LazyLock::new(|| re(r"の?\s*(?:\d+|[０-９]+|[一二三四五六七八九十]+)\s*(?:つ|列|項目|カラム)$"));
pub static ENCODING: LazyLock<Regex> =
    LazyLock::new(|| re(r"shift[_ -]?jis|sjis|cp932|windows-31j|シフトjis|シフト jis|ms932"));
/// `sheet "X"`, "(sheet Nov rota)", 「Xシート」, 「「X」シート」, 「シート「X」」.
pub static SHEET: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\(\s*sheet:?\s+(?P<e>[^()"'\s][^()"']{0,29}?)\s*\)|\bsheet\s+(?P<a>"[^"]+"|'[^']+'|[\w-]+(?:\.[\w-]+)*)|「(?P<d>[^」]{1,30})」シート|(?P<b>[^\s、。「」をのにで()（）.]{1,20})シート|シート「(?P<c>[^」]+)」"#,
    )
});

/// Words that name the output's columns ("name the columns …", 「列名は…」): the names said
/// there are no values to keep rows by.
static NAMES_COLUMNS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:column names?|name (?:the|its|those) columns?|call (?:the|that|this|those) columns?|headers? (?:should be|as|is|are)|column headings?)\b|列名|列の名前|項目名|見出し",
    )
});

/// Whether the text names columns ("name the columns Vendor and Total", 「列名は…」), not in an
/// aside of where a sheet's header is (「(…見出しは2行目です)」, "headers on row 2").
pub fn names_columns(text: &str) -> bool {
    NAMES_COLUMNS.is_match(&super::PARENTHESES.replace_all(text, ""))
}

/// Tables put one under the other, said so that no key can be meant ("stack", 「縦に結合」).
pub static STACKED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:stack|stacked|stacking|one under the other|append (?:the rows|one to the other))\b|縦に|下に(?:追加|つな|繋|くっつけ)",
    )
});

/// Words that point at what comes next ("the following", 「以下の条件」): a clause saying them
/// states nothing of its own.
pub static POINTS_AHEAD: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:the following|as follows|below|these conditions)\b|以下の|次の|下記の|下記"));

/// Words that point back at rows another step found ("those rows", 「該当する行」).
pub static POINTS_BACK: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?:those rows|these rows|the matching rows|the rows found|them all)\b|該当する|該当の|該当行|それらの行")
});
