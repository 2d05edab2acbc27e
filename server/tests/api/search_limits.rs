//! Search and the chat list refuse what they cannot answer as asked, with a 422 that says why:
//! a range whose start follows its end, more words than a query may hold. Nothing is quietly cut
//! or answered empty.

use serde_json::Value;

use crate::both_backends;
use crate::helpers::*;
use crate::search::{deliver, search, text_at};

const CUSTOMER: &str = "16505551234";

/// Checks a refusal: 422 in the stable error shape, `detail` as expected.
fn refused(status: u16, body: &Value, detail: &str) {
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["code"], "validation_failed", "{body}");
    assert_eq!(body["detail"], detail, "{body}");
    assert!(body["message"].is_string(), "{body}");
}

both_backends!(
    a_search_whose_from_follows_its_to_is_refused,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("reversed").await;
        deliver(
            &app,
            &biz,
            CUSTOMER,
            vec![text_at(CUSTOMER, "wamid.r", "apples in range", 0)],
        )
        .await;
        for range in [
            "from=2025-11-22&to=2025-11-21",
            "from=2025-11-21T04:40:01Z&to=2025-11-21T04:40:00Z",
            "from=1763700001&to=1763700000",
        ] {
            let (status, body) = search(&app, &biz, &format!("q=apples&{range}")).await;
            refused(status, &body, "from must not be after to");
        }
        // The same day at both ends is that whole day, and one instant at both ends is that
        // instant: both ends are included.
        for range in [
            "from=2025-11-21&to=2025-11-21",
            "from=1763700000&to=1763700000",
        ] {
            let (status, body) = search(&app, &biz, &format!("q=apples&{range}")).await;
            assert_eq!(status, 200, "{range}: {body}");
            assert_eq!(
                body["results"][0]["message_id"], "wamid.r",
                "{range}: {body}"
            );
        }
    }
);

both_backends!(
    a_query_of_more_than_twelve_words_is_refused_naming_the_limit,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("wordy").await;
        let words: Vec<String> = (1..=13).map(|i| format!("w{i}")).collect();
        deliver(
            &app,
            &biz,
            CUSTOMER,
            vec![text_at(CUSTOMER, "wamid.w", &words[..12].join(" "), 0)],
        )
        .await;
        let (status, body) = search(&app, &biz, &format!("q={}", words[..12].join("+"))).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["results"][0]["message_id"], "wamid.w", "{body}");
        // A thirteenth word is not dropped: the text lacks it, and the search says so.
        let (status, body) = search(&app, &biz, &format!("q={}", words.join("+"))).await;
        refused(status, &body, "q may hold at most 12 words");
        let token = &biz.session.access;
        let list = format!("/api/users?status=all&search_query={}", words.join("+"));
        let (status, body) = app.get(&list, token).await;
        refused(status, &body, "search_query may hold at most 12 words");
        let list = format!(
            "/api/users?status=all&search_query={}",
            words[..12].join("+")
        );
        let (status, body) = app.get(&list, token).await;
        assert_eq!(status, 200, "{body}");
    }
);
