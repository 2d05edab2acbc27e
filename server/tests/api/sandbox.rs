//! The sandbox as a provider of username customers: who may write in, sends addressed to a
//! business-scoped user id (BSUID), and what the sandbox says it accepted.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

pub const USER_ID: &str = "US.13491208655302741918";
const PHONE: &str = "16505551234";

/// The number's provider access token, as Graph calls carry it.
pub async fn provider_token(app: &TestApp, biz: &Business) -> String {
    let (_, profile) = app
        .get("/identity/users/profile", &biz.session.access)
        .await;
    profile["accessToken"].as_str().expect("token").to_string()
}

/// The BSUID customer writes in now through the sandbox's signed webhook, so their
/// customer-service window is open.
async fn bsuid_customer_wrote_in(app: &TestApp, biz: &Business) {
    let (status, injected) = app
        .post(
            "/sandbox/customers/inject",
            json!({"user_id": USER_ID, "username": "@realsheenanelson", "name": "Sheena Nelson",
                   "text": "Does it come in another color?"}),
            Some(&biz.session.access),
        )
        .await;
    assert_eq!(status, 200, "{injected}");
    assert_eq!(injected["webhook_status"], 200, "{injected}");
}

/// A send's body of `kind` to `address` (`to` and/or `recipient`).
fn send_body(address: Value, kind: &str, content: Value) -> Value {
    let mut body = json!({"messaging_product": "whatsapp", "recipient_type": "individual",
                          "type": kind, kind: content});
    for (field, value) in address.as_object().expect("address fields") {
        body[field] = value.clone();
    }
    body
}

fn text_send(address: Value) -> Value {
    send_body(address, "text", json!({"body": "It does: red and blue."}))
}

impl TestApp {
    /// Posts a send to the sandbox's Graph API with the number's token.
    async fn sandbox_send(&self, biz: &Business, token: &str, body: Value) -> (u16, Value) {
        self.post(
            &format!("/sandbox/v21.0/{}/messages", biz.phone_number_id),
            body,
            Some(token),
        )
        .await
    }
}

both_backends!(
    a_send_to_a_bsuid_in_the_window_is_answered_with_the_user_id,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("bsuid_send").await;
        let token = provider_token(&app, &biz).await;
        bsuid_customer_wrote_in(&app, &biz).await;

        let (status, answer) = app
            .sandbox_send(&biz, &token, text_send(json!({"recipient": USER_ID})))
            .await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["messaging_product"], "whatsapp");
        assert_eq!(
            answer["contacts"],
            json!([{"input": USER_ID, "user_id": USER_ID}])
        );
        let id = answer["messages"][0]["id"].as_str().expect("wamid");
        assert!(id.starts_with("wamid."), "{id}");

        let (_, sent) = app
            .get(
                &format!("/sandbox/sent?phone_number_id={}", biz.phone_number_id),
                &token,
            )
            .await;
        assert_eq!(sent["messages"][0]["id"], id);
        assert_eq!(sent["messages"][0]["body"]["recipient"], USER_ID);
    }
);

both_backends!(
    a_send_to_a_bsuid_who_never_wrote_is_a_re_engagement_error,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("bsuid_closed").await;
        let token = provider_token(&app, &biz).await;

        let (status, answer) = app
            .sandbox_send(&biz, &token, text_send(json!({"recipient": USER_ID})))
            .await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["error"]["code"], 131047, "{answer}");
        assert!(answer["error"]["fbtrace_id"].is_string());
    }
);

both_backends!(
    with_to_and_recipient_both_given_to_wins,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("to_wins").await;
        let token = provider_token(&app, &biz).await;
        let (status, injected) = app
            .post(
                "/sandbox/customers/inject",
                json!({"from": PHONE, "user_id": USER_ID, "name": "Sheena", "text": "hi"}),
                Some(&biz.session.access),
            )
            .await;
        assert_eq!(status, 200, "{injected}");
        assert_eq!(injected["webhook_status"], 200, "{injected}");

        let both = text_send(json!({"to": format!("+{PHONE}"), "recipient": USER_ID}));
        let (status, answer) = app.sandbox_send(&biz, &token, both).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(
            answer["contacts"],
            json!([{"input": format!("+{PHONE}"), "wa_id": PHONE}])
        );
    }
);

both_backends!(
    a_recipient_that_is_no_bsuid_is_an_invalid_parameter,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("bad_recipient").await;
        let token = provider_token(&app, &biz).await;
        for address in [json!({"recipient": "us.1349"}), json!({})] {
            let (status, answer) = app.sandbox_send(&biz, &token, text_send(address)).await;
            assert_eq!(status, 400, "{answer}");
            assert_eq!(answer["error"]["code"], 100, "{answer}");
            assert_eq!(answer["error"]["type"], "OAuthException", "{answer}");
        }
    }
);

both_backends!(
    a_username_customer_writes_in_without_a_phone,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("username_inject").await;
        let (status, injected) = app
            .post(
                "/sandbox/customers/inject",
                json!({"user_id": USER_ID, "username": "@realsheenanelson",
                       "name": "Sheena Nelson", "text": "Does it come in another color?"}),
                Some(&biz.session.access),
            )
            .await;
        assert_eq!(status, 200, "{injected}");
        assert!(
            injected["id"]
                .as_str()
                .is_some_and(|id| id.starts_with("wamid.")),
            "{injected}"
        );
    }
);

both_backends!(
    an_inject_names_its_customer_properly_or_is_refused,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("inject_rules").await;
        let refused = [
            json!({"text": "nobody"}),
            json!({"user_id": "US-1349", "text": "not a BSUID"}),
            json!({"from": PHONE, "username": "@nouserid", "text": "username alone"}),
        ];
        for body in refused {
            let (status, answer) = app
                .post(
                    "/sandbox/customers/inject",
                    body.clone(),
                    Some(&biz.session.access),
                )
                .await;
            assert_eq!(status, 422, "{body} → {answer}");
            assert_eq!(answer["code"], "validation_failed", "{answer}");
            assert!(answer["detail"].is_string() && answer["message"].is_string());
        }
    }
);

both_backends!(
    an_authentication_template_cannot_go_to_a_bsuid,
    |backend| async move {
        let (mut settings, dir) = test_settings(backend).await;
        settings.sandbox.template_review_ms = 20;
        let app = spawn_with(settings, dir).await;
        let biz = app.business("bsuid_auth").await;
        let token = provider_token(&app, &biz).await;
        let (_, profile) = app
            .get("/identity/users/profile", &biz.session.access)
            .await;
        let templates = format!(
            "/sandbox/v21.0/{}/message_templates",
            profile["whatsappBusinessAccountID"].as_str().expect("waba")
        );
        let code = json!({"name": "login_code", "language": "en_US", "category": "AUTHENTICATION",
                          "components": [{"type": "BODY", "add_security_recommendation": true}]});
        let (status, created) = app.post(&templates, code, Some(&token)).await;
        assert_eq!(status, 200, "{created}");
        // The review is the sandbox's own; wait for its decision.
        let deadline = std::time::Instant::now() + EVENT_WAIT;
        loop {
            let (_, list) = app.get(&templates, &token).await;
            if list["data"][0]["status"] == "APPROVED" {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "never approved: {list}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }

        let template = json!({"name": "login_code", "language": {"code": "en_US"}});
        let to_user = send_body(json!({"recipient": USER_ID}), "template", template.clone());
        let (status, refused) = app.sandbox_send(&biz, &token, to_user).await;
        assert_eq!(status, 400, "{refused}");
        assert_eq!(refused["error"]["code"], 131062, "{refused}");
        let to_phone = send_body(json!({"to": PHONE}), "template", template);
        let (status, sent) = app.sandbox_send(&biz, &token, to_phone).await;
        assert_eq!(status, 200, "{sent}");
    }
);
