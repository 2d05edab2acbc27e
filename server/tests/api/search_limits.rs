//! Search refuses what it cannot answer as asked, with a 422 that says why: a range whose start
//! follows its end. Nothing is quietly answered empty.

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
