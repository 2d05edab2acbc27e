//! A search reads the newest documents first in widening windows; its pages are still exactly
//! those of one search over everything, newest first, when the matches of a short prefix are
//! few among the newest documents and many further back. Results of one time come by id, in
//! one order on both backends.

use serde_json::Value;

use crate::both_backends;
use crate::collation::spawn_in_english;
use crate::helpers::*;
use crate::live::Business;
use crate::search::{deliver, found, search, text_at};
use crate::search_upkeep::database;

const CUSTOMER: &str = "16505551234";
/// More documents than the first window (2,000) holds, and more matches of `th` further back
/// than a search reads in one step (2,000).
const MESSAGES: i64 = 4_300;
/// The newest messages, beyond the first window's reach for the older matches.
const NEWER: i64 = 2_100;
/// Webhooks carry up to 1,000 messages.
const BATCH: i64 = 1_000;

/// Every 500th of the newer messages and every older one hold a word starting with `th`.
fn body(i: i64) -> String {
    if i < MESSAGES - NEWER {
        format!("theory {i}")
    } else if i % 500 == 0 {
        format!("thanks {i}")
    } else {
        format!("hello {i}")
    }
}

/// The message ids of `pages` pages of `limit` results for `q`, following the cursor.
async fn pages(app: &TestApp, biz: &Business, q: &str, limit: usize, pages: usize) -> Vec<String> {
    let mut seen = Vec::new();
    let mut after = String::new();
    for _ in 0..pages {
        let (status, body) = search(app, biz, &format!("q={q}&limit={limit}{after}")).await;
        assert_eq!(status, 200, "{body}");
        let results = body["results"].as_array().expect("results");
        assert_eq!(results.len(), limit, "{body}");
        seen.extend(
            results
                .iter()
                .map(|hit| hit["message_id"].as_str().expect("id").to_string()),
        );
        let next = body["next_cursor"].as_str().expect("more pages");
        let next: String = url::form_urlencoded::byte_serialize(next.as_bytes()).collect();
        after = format!("&cursor={next}");
    }
    seen
}

both_backends!(
    a_short_prefix_rare_among_the_newest_pages_newest_first_across_windows,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("windows").await;
        for start in (0..MESSAGES).step_by(BATCH as usize) {
            let batch: Vec<Value> = (start..(start + BATCH).min(MESSAGES))
                .map(|i| text_at(CUSTOMER, &format!("wamid.{i:04}"), &body(i), i))
                .collect();
            deliver(&app, &biz, CUSTOMER, batch).await;
        }
        let newest_first = (0..MESSAGES)
            .rev()
            .filter(|&i| body(i).starts_with("th"))
            .map(|i| format!("wamid.{i:04}"));
        // Four matches among the newest 2,000 documents, then the older ones: three pages of
        // ten cross from the first window into the rest of the history.
        let expected: Vec<String> = newest_first.clone().take(30).collect();
        assert_eq!(pages(&app, &biz, "th", 10, 3).await, expected);
        // One word, the same order.
        let thanks: Vec<String> = newest_first.take(4).collect();
        assert_eq!(found(&app, &biz, "thanks").await, thanks);
    }
);

both_backends!(
    results_of_one_time_come_by_id_in_byte_order_on_both_backends,
    |backend| async move {
        let app = spawn_in_english(backend).await;
        let biz = app.business("search_ties").await;
        let ids = ["wamid.a", "wamid.B", "wamid.C", "wamid.b"];
        let messages = ids
            .iter()
            .map(|id| text_at(CUSTOMER, id, "tied words", 0))
            .collect();
        deliver(&app, &biz, CUSTOMER, messages).await;
        let pool = database(&app).await;
        sqlx::query("UPDATE search_documents SET at = 1763700000000 WHERE kind <> 'contact'")
            .execute(&pool)
            .await
            .expect("one time for all");
        // Newest first, and within one time by id, greatest first, in byte order (an English
        // collation puts `a` before `B`).
        let expected = ["wamid.b", "wamid.a", "wamid.C", "wamid.B"];
        assert_eq!(found(&app, &biz, "tied").await, expected);
        // A page of one at a time follows the same order.
        assert_eq!(pages(&app, &biz, "tied", 1, 3).await, expected[..3]);
    }
);
