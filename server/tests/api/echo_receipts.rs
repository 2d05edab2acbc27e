//! Receipts that reach Parley before the echo of the message they are about: the echo starts
//! where they left it, error and all, and a payment failure still raises its billing alert.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::kinds::{echoes, history};
use crate::live::*;

/// A customer known only by BSUID, as Meta names users who took a username.
const CUSTOMER: &str = "US.13491208655302741918";

/// The customer writes, then a `failed` receipt with `error` comes for `wamid.echo`, then the
/// echo of that message from the WhatsApp Business app.
async fn fail_before_the_echo(app: &TestApp, biz: &Business, error: &Value) {
    let pnid = biz.phone_number_id.clone();
    let hello = json!({"from_user_id": CUSTOMER, "id": "wamid.hi", "timestamp": "1763700000",
                       "type": "text", "text": {"body": "Hi"}});
    let mut opened = inbound(&pnid, CUSTOMER, "Sheena", vec![hello]);
    opened["entry"][0]["changes"][0]["value"]["contacts"] =
        json!([{"profile": {"name": "Sheena"}, "user_id": CUSTOMER}]);
    let failed = json!({"id": "wamid.echo", "status": "failed", "timestamp": "1763700090",
                        "recipient_user_id": CUSTOMER, "errors": [error]});
    let echo = json!({"from": "15550000000", "to_user_id": CUSTOMER, "id": "wamid.echo",
                      "timestamp": "1763700060", "type": "text", "text": {"body": "On it"}});
    for body in [
        opened,
        receipts(&pnid, vec![failed]),
        echoes(&pnid, vec![echo]),
    ] {
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");
    }
}

both_backends!(
    an_echo_whose_failed_receipt_came_first_shows_why_it_failed,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("early_failure").await;
        let error = json!({"code": 131026, "title": "Message undeliverable",
                           "message": "Message undeliverable",
                           "error_data": {"details": "The recipient cannot receive it."}});
        fail_before_the_echo(&app, &biz, &error).await;

        let stored = history(&app, &biz, CUSTOMER).await;
        let echoed = stored
            .iter()
            .find(|m| m["message_id"] == "wamid.echo")
            .expect("the echo");
        assert_eq!(echoed["status"], "failed", "{echoed}");
        assert_eq!(echoed["error"], error, "{echoed}");
    }
);

both_backends!(
    a_payment_failure_that_came_before_its_echo_raises_the_billing_alert,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("early_payment").await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        let error = json!({"code": 131042, "title": "Business eligibility payment issue"});
        fail_before_the_echo(&app, &biz, &error).await;

        let frames = ws.frames_until("system_notification", 1).await;
        let alert = frames.last().expect("the alert");
        assert_eq!(alert["data"]["type"], "payment_error", "{alert}");
        assert_eq!(alert["data"]["message_id"], "wamid.echo", "{alert}");
    }
);
