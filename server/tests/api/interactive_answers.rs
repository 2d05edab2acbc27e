//! Interactive answers that do not read as Parley knows them keep what the customer sent.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::kinds::history;
use crate::live::*;

const CUSTOMER: &str = "16505551234";

/// An `interactive` message from the customer holding `interactive`.
fn answer(id: &str, interactive: Value) -> Value {
    json!({"from": CUSTOMER, "id": id, "timestamp": "1763700000", "type": "interactive",
           "interactive": interactive})
}

both_backends!(
    an_interactive_answer_that_does_not_fit_its_type_is_kept_as_sent,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("odd_answers").await;
        let pressed = answer(
            "wamid.pressed",
            json!({"type": "button_reply", "button_reply": "Yes"}),
        );
        let permission = answer(
            "wamid.permission",
            json!({"type": "call_permission_reply",
                   "call_permission_reply": {"response_source": "automatic"}}),
        );
        let newer = json!({"type": "product_reply", "product_reply": {"id": "sku-1",
                           "title": "Blue shirt", "size": "M"}});
        let messages = vec![
            pressed.clone(),
            permission.clone(),
            answer("wamid.newer", newer.clone()),
            text(CUSTOMER, "wamid.after", "still here"),
        ];
        let body = inbound(&biz.phone_number_id, CUSTOMER, "Sheena", messages);
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");

        let stored = history(&app, &biz, CUSTOMER).await;
        let found = |id: &str| stored.iter().find(|m| m["message_id"] == id).expect(id);
        let content = |id: &str| found(id)["content"].clone();
        // A known answer type whose body does not fit it: the whole message as received.
        assert_eq!(content("wamid.pressed")["raw"], pressed);
        assert_eq!(content("wamid.permission")["raw"], permission);
        // A newer answer type: its id and title as a button's, and all of it as sent.
        let kept = content("wamid.newer");
        assert_eq!(kept["text"], "Blue shirt");
        assert_eq!(kept["interactive"]["id"], "sku-1");
        assert_eq!(kept["raw"], newer);
        for id in ["wamid.pressed", "wamid.permission", "wamid.newer"] {
            assert_eq!(found(id)["type"], "interactive", "{id}");
        }
        assert_eq!(content("wamid.after"), json!({"text": "still here"}));
    }
);

both_backends!(
    a_call_permission_given_for_good_is_kept_with_is_permanent,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("calls_allowed").await;
        let always = answer(
            "wamid.always",
            json!({"type": "call_permission_reply", "call_permission_reply": {
                "response": "accept", "is_permanent": true, "response_source": "user_action"}}),
        );
        let body = inbound(&biz.phone_number_id, CUSTOMER, "Sheena", vec![always]);
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");

        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(
            stored[0]["content"],
            json!({"text": null, "interactive": {"type": "call_permission_reply",
                   "response": "accept", "is_permanent": true, "response_source": "user_action"}})
        );
    }
);
