use super::*;

fn query(raw: &str) -> Query {
    Query::parse(raw).expect("a query with words")
}

#[test]
fn case_and_punctuation_fold_to_plain_words() {
    assert_eq!(index_text("Hello, WORLD! It's me."), "hello world it s me");
}

#[test]
fn arabic_marks_and_tatweel_are_dropped() {
    assert_eq!(index_text("مُحَمَّد"), "محمد");
    assert_eq!(index_text("مـــرحبا"), "مرحبا");
    assert_eq!(index_text("هٰذا"), "هذا");
}

#[test]
fn a_word_folds_the_same_composed_or_decomposed() {
    assert_eq!(
        index_text("Cafe\u{301} RE\u{301}SUME\u{301} caf\u{e9}"),
        "cafe resume cafe"
    );
    assert_eq!(index_text("q\u{301}uiet"), "quiet");
    assert_eq!(query("cafe\u{301}").words, ["cafe"]);
    // Arabic marks are dropped, not composed: آ typed as ا and U+0653 is still ا.
    assert_eq!(index_text("\u{627}\u{653}مال"), "امال");
    // A mark of another script joins its letter: が typed as か and U+3099 is が.
    assert_eq!(index_text("か\u{3099}き が"), "がき が");
}

#[test]
fn latin_greek_and_cyrillic_letters_lose_their_accents() {
    assert_eq!(
        index_text("Lucía Pérez, José llegó mañana. Ça GRÜẞE façade"),
        "lucia perez jose llego manana ca grusse facade"
    );
    assert_eq!(
        index_text("São João Ağrı Şişli Nguyễn Thị Ánh Việt"),
        "sao joao agrı sisli nguyen thi anh viet"
    );
    assert_eq!(index_text("ΣΩΚΡΆΤΗΣ ᾼ Ёлка"), "σωκρατησ α елка");
    assert_eq!(query("LUCÍA pérez").words, ["lucia", "perez"]);
    // Letters that do not decompose are letters of their own.
    assert_eq!(index_text("Søren Đặng Łódź æ"), "søren đang łodz æ");
    // Other scripts keep their marks and vowel signs.
    assert_eq!(index_text("किताब שָׁלוֹם"), "किताब שָׁלוֹם");
}

#[test]
fn case_folds_fully_beyond_lower_case() {
    assert_eq!(
        index_text("Straße STRASSE straẞe"),
        "strasse strasse strasse"
    );
    assert_eq!(index_text("ﬁle ΟΔΟΣ οδος"), "file οδοσ οδοσ");
    assert_eq!(query("STRAß").words, ["strass"]);
    // A letter that folds apart folds the same composed or decomposed, without its accent.
    assert_eq!(index_text("\u{1F0} J\u{30C}"), "j j");
    // The dotted capital I folds to a plain i, composed or typed as I and U+0307.
    assert_eq!(
        index_text("İstanbul I\u{307}STANBUL istanbul"),
        "istanbul istanbul istanbul"
    );
    assert_eq!(query("İST").words, ["ist"]);
}

#[test]
fn arabic_letter_forms_fold_together() {
    assert_eq!(
        index_text("أحمد إبراهيم آمال ٱلله"),
        "احمد ابراهيم امال الله"
    );
    assert_eq!(index_text("مستشفى"), "مستشفي");
    assert_eq!(index_text("مدرسة"), "مدرسه");
}

#[test]
fn arabic_indic_digits_are_ascii_digits() {
    assert_eq!(index_text("٠١٢٣٤٥٦٧٨٩"), "0123456789");
    assert_eq!(index_text("۰۱۲۳۴۵۶۷۸۹"), "0123456789");
}

#[test]
fn a_number_written_in_groups_is_also_indexed_whole() {
    assert_eq!(
        index_text("call +966 55-512 3456 now"),
        "call 966 55 512 3456 now 966555123456"
    );
    assert_eq!(index_text("room 12 at 3"), "room 12 at 3");
}

#[test]
fn a_query_is_its_folded_words() {
    assert_eq!(query("Hello  Wörld").words, vec!["hello", "world"]);
    assert_eq!(query("إبراهيم").words, vec!["ابراهيم"]);
    assert_eq!(Query::parse("  ?! "), Err(QueryError::NoWord));
    assert_eq!(Query::parse(""), Err(QueryError::NoWord));
}

#[test]
fn a_query_of_more_words_than_the_most_is_refused_not_cut() {
    let twelve = "w ".repeat(MAX_QUERY_WORDS);
    assert_eq!(query(&twelve).words.len(), MAX_QUERY_WORDS);
    let thirteen = format!("{twelve} more");
    assert_eq!(Query::parse(&thirteen), Err(QueryError::TooManyWords));
    assert_eq!(
        QueryError::TooManyWords.to_string(),
        "may hold at most 12 words"
    );
}

#[test]
fn a_query_of_digits_and_separators_is_one_number() {
    assert_eq!(query("+966 55-512").words, vec!["96655512"]);
    assert_eq!(query("٠٥٥٥").words, vec!["0555"]);
    assert_eq!(query("room 12").words, vec!["room", "12"]);
}

#[test]
fn the_snippet_marks_matches_and_escapes_the_rest() {
    let text = "<script>alert(1)</script> hello";
    assert_eq!(
        snippet(text, &query("hello")),
        "&lt;script&gt;alert(1)&lt;/script&gt; <mark>hello</mark>"
    );
}

#[test]
fn the_snippet_marks_a_prefix_of_the_last_word_only() {
    let text = "The helicopter lands; help arrives";
    assert_eq!(
        snippet(text, &query("the heli")),
        "<mark>The</mark> <mark>helicopter</mark> lands; help arrives"
    );
}

#[test]
fn the_snippet_marks_arabic_words_with_their_marks() {
    let text = "السلام عليكم يا مُحَمَّد";
    assert_eq!(
        snippet(text, &query("محمد")),
        "السلام عليكم يا <mark>مُحَمَّد</mark>"
    );
}

#[test]
fn the_snippet_marks_accented_words_as_written() {
    let text = "José llegó mañana; Jose\u{301} too";
    assert_eq!(
        snippet(text, &query("jose llego manana")),
        "<mark>José</mark> <mark>llegó</mark> <mark>mañana</mark>; <mark>Jose\u{301}</mark> too"
    );
}

#[test]
fn a_long_text_is_cut_around_the_first_match() {
    let text = format!("{} needle {}", "a".repeat(100), "b".repeat(300));
    let cut = snippet(&text, &query("needle"));
    assert!(cut.starts_with('…'), "{cut}");
    assert!(cut.ends_with('…'), "{cut}");
    assert!(cut.contains("<mark>needle</mark>"), "{cut}");
    assert!(cut.chars().count() < 200, "{cut}");
}
