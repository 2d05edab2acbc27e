//! Odd deliveries: one item the model cannot read never costs the rest of a webhook.

use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

const CUSTOMER: &str = "16505551234";

both_backends!(
    a_malformed_message_is_kept_raw_and_the_rest_of_its_batch_is_stored,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("odd").await;
        let malformed = json!({"from": CUSTOMER, "id": "wamid.odd", "timestamp": "1763700000",
                               "type": "image", "image": "not an object"});
        let messages = vec![
            text(CUSTOMER, "wamid.first", "first"),
            malformed.clone(),
            text(CUSTOMER, "wamid.last", "last"),
        ];
        let (status, body) = app
            .webhook(
                &inbound(&biz.phone_number_id, CUSTOMER, "Odd", messages),
                &biz.app_secret,
            )
            .await;
        assert_eq!((status, body), (200, json!({"status": "success"})));

        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        let stored = history["messages"].as_array().expect("messages");
        assert_eq!(stored.len(), 3);
        let by_id = |id: &str| stored.iter().find(|m| m["message_id"] == id).expect(id);
        assert_eq!(by_id("wamid.first")["content"]["text"], "first");
        assert_eq!(by_id("wamid.last")["content"]["text"], "last");
        assert_eq!(by_id("wamid.odd")["content"]["raw"], malformed);
    }
);
