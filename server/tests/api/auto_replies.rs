//! The automated replies engine on inbound messages: trigger, a two-step button flow, the
//! cooldown, and the default reply.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

const CUSTOMER: &str = "34600111222";

async fn create_reply(app: &TestApp, token: &str, fields: &[(&str, String)]) {
    let form = fields
        .iter()
        .fold(reqwest::multipart::Form::new(), |f, (k, v)| {
            f.text(k.to_string(), v.clone())
        });
    let (status, body) = app.post_form("/api/automated-replies/", token, form).await;
    assert_eq!(status, 201, "{body}");
}

/// The business's default reply, without a cooldown.
async fn create_default_reply(app: &TestApp, token: &str) {
    let fields = [
        ("trigger", "fallback".into()),
        ("type", "text".into()),
        ("responseText", "We will get back to you".into()),
        ("isActive", "true".into()),
        ("isDefault", "true".into()),
        ("cooldownHours", "0".into()),
    ];
    create_reply(app, token, &fields).await;
}

/// The customer's message `n`, sent now.
fn from_customer(n: u32, kind: &str, body: Value) -> Value {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    let mut message = json!({"from": CUSTOMER, "id": format!("wamid.auto{n}"), "timestamp": now.to_string(), "type": kind});
    message[kind] = body;
    message
}

/// What the provider was asked to send, once `count` messages are there (and nothing more
/// arrives for a moment).
async fn provider_got(app: &TestApp, biz: &Business, count: usize) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let sent = app.sandbox_sent(biz).await;
        if sent.len() >= count {
            tokio::time::sleep(Duration::from_millis(500)).await;
            return app.sandbox_sent(biz).await;
        }
        assert!(
            Instant::now() < deadline,
            "only {} of {count} replies: {sent:?}",
            sent.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn shown_text(body: &Value) -> String {
    body.pointer("/interactive/body/text")
        .or_else(|| body.pointer("/text/body"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

both_backends!(
    automated_replies_answer_triggers_walk_flows_respect_cooldown_and_default,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("autoreply").await;
        let token = biz.session.access.clone();
        let flows = json!({
            "prices": {"responseText": "Our prices are low", "quickReplyButtons": [{"id": "brochure", "title": "Brochure"}]},
            "brochure": {"responseText": "Here is the brochure", "quickReplyButtons": []},
        });
        create_reply(
            &app,
            &token,
            &[
                ("trigger", "Hello".into()),
                ("type", "text".into()),
                ("responseText", "Hi! How can we help?".into()),
                ("isActive", "true".into()),
                ("isDefault", "false".into()),
                ("cooldownHours", "1".into()),
                (
                    "quickReplyButtons",
                    json!([{"id": "prices", "title": "Prices"}]).to_string(),
                ),
                ("flow_definitions", flows.to_string()),
            ],
        )
        .await;
        create_default_reply(&app, &token).await;

        let post = |message: Value| {
            let app = &app;
            let biz = &biz;
            async move {
                let (status, body) = app
                    .webhook(
                        &inbound(&biz.phone_number_id, CUSTOMER, "Eva", vec![message]),
                        &biz.app_secret,
                    )
                    .await;
                assert_eq!(status, 200, "{body}");
            }
        };
        post(from_customer(1, "text", json!({"body": "  hello "}))).await;
        let sent = provider_got(&app, &biz, 1).await;
        assert_eq!(shown_text(&sent[0]["body"]), "Hi! How can we help?");
        assert_eq!(
            sent[0]["body"]["interactive"]["action"]["buttons"][0]["reply"]["id"],
            "prices"
        );

        post(from_customer(
            2,
            "interactive",
            json!({"type": "button_reply", "button_reply": {"id": "prices", "title": "Prices"}}),
        ))
        .await;
        let sent = provider_got(&app, &biz, 2).await;
        assert_eq!(shown_text(&sent[1]["body"]), "Our prices are low");
        post(from_customer(3, "interactive", json!({"type": "button_reply", "button_reply": {"id": "brochure", "title": "Brochure"}}))).await;
        let sent = provider_got(&app, &biz, 3).await;
        assert_eq!(shown_text(&sent[2]["body"]), "Here is the brochure");

        // Inside the cooldown the same trigger answers nothing.
        post(from_customer(4, "text", json!({"body": "HELLO"}))).await;
        post(from_customer(
            5,
            "text",
            json!({"body": "what time do you open?"}),
        ))
        .await;
        let sent = provider_got(&app, &biz, 4).await;
        assert_eq!(sent.len(), 4, "{sent:?}");
        assert_eq!(shown_text(&sent[3]["body"]), "We will get back to you");

        let (_, history) = app
            .get(&format!("/api/conversation/{CUSTOMER}"), &token)
            .await;
        let replies: Vec<&Value> = history["messages"]
            .as_array()
            .expect("m")
            .iter()
            .filter(|m| m["direction"] == "outgoing")
            .collect();
        assert_eq!(replies.len(), 4);
        assert!(
            replies
                .iter()
                .all(|m| m["sender_name"] == "Automated reply")
        );
        // A redelivered message is not answered twice.
        post(from_customer(
            5,
            "text",
            json!({"body": "what time do you open?"}),
        ))
        .await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(app.sandbox_sent(&biz).await.len(), 4);
    }
);

both_backends!(
    a_reply_created_after_a_webhook_answers_the_next_one_at_once,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("routes").await;
        let token = biz.session.access.clone();
        let say = |n: u32| {
            let message = from_customer(n, "text", json!({"body": "hello"}));
            inbound(&biz.phone_number_id, CUSTOMER, "Eva", vec![message])
        };
        // The first webhook finds no automated reply (and the node remembers its route).
        let (status, _) = app.webhook(&say(1), &biz.app_secret).await;
        assert_eq!(status, 200);
        create_reply(
            &app,
            &token,
            &[
                ("trigger", "hello".into()),
                ("type", "text".into()),
                ("responseText", "Hi there".into()),
                ("isActive", "true".into()),
                ("isDefault", "false".into()),
            ],
        )
        .await;
        let (status, _) = app.webhook(&say(2), &biz.app_secret).await;
        assert_eq!(status, 200);
        let sent = provider_got(&app, &biz, 1).await;
        let texts: Vec<String> = sent.iter().map(|m| shown_text(&m["body"])).collect();
        assert_eq!(texts, ["Hi there"]);
    }
);

both_backends!(
    match_modes_find_a_trigger_inside_or_at_the_start_and_fold_arabic,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("matchmodes").await;
        let token = biz.session.access.clone();
        for (trigger, mode, answer) in [
            ("price", "contains", "Prices start at 10"),
            ("order", "starts_with", "Send your order number"),
            ("أهلا", "exact", "أهلا بك"),
        ] {
            create_reply(
                &app,
                &token,
                &[
                    ("trigger", trigger.into()),
                    ("type", "text".into()),
                    ("responseText", answer.into()),
                    ("matchMode", mode.into()),
                ],
            )
            .await;
        }
        let (_, replies) = app.get("/api/automated-replies/", &token).await;
        let modes: Vec<&Value> = (replies.as_array().into_iter().flatten())
            .map(|r| &r["matchMode"])
            .collect();
        assert_eq!(modes, ["contains", "starts_with", "exact"], "{replies}");
        let form = reqwest::multipart::Form::new()
            .text("trigger", "anything")
            .text("responseText", "x")
            .text("matchMode", "fuzzy");
        let (status, body) = app.post_form("/api/automated-replies/", &token, form).await;
        assert_eq!(status, 422, "{body}");

        let post = |n: u32, text: &str| {
            let message = from_customer(n, "text", json!({"body": text}));
            let body = inbound(&biz.phone_number_id, CUSTOMER, "Eva", vec![message]);
            let (app, secret) = (&app, biz.app_secret.clone());
            async move {
                let (status, answer) = app.webhook(&body, &secret).await;
                assert_eq!(status, 200, "{answer}");
            }
        };
        post(11, "What is the PRICE, please?").await;
        let sent = provider_got(&app, &biz, 1).await;
        assert_eq!(shown_text(&sent[0]["body"]), "Prices start at 10");
        post(12, "Order #1234").await;
        let sent = provider_got(&app, &biz, 2).await;
        assert_eq!(shown_text(&sent[1]["body"]), "Send your order number");
        // Not at the start: no answer, so the next answer is the greeting's.
        post(13, "my order").await;
        post(14, "اهلاً!").await;
        let sent = provider_got(&app, &biz, 3).await;
        assert_eq!(sent.len(), 3, "{sent:?}");
        assert_eq!(shown_text(&sent[2]["body"]), "أهلا بك");
    }
);

both_backends!(
    a_new_message_is_answered_even_when_another_item_of_its_webhook_is_not_stored,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("half_stored").await;
        create_default_reply(&app, &biz.session.access).await;
        // A reaction to a message not stored yet waits in a table that is gone: it fails.
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&app.settings.database_url())
            .await
            .expect("database");
        sqlx::raw_sql("DROP TABLE early_amendments")
            .execute(&pool)
            .await
            .expect("dropped");
        let reaction = json!({"message_id": "wamid.elsewhere", "emoji": "👍"});
        let messages = vec![
            from_customer(1, "text", json!({"body": "hello"})),
            from_customer(2, "reaction", reaction),
        ];
        let body = inbound(&biz.phone_number_id, CUSTOMER, "Eva", messages);
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 500, "redelivered later: {answer}");

        // The stored message is no longer new when the webhook comes again: it is answered now.
        let sent = provider_got(&app, &biz, 1).await;
        assert_eq!(shown_text(&sent[0]["body"]), "We will get back to you");
    }
);

both_backends!(
    a_notice_whatsapp_writes_about_the_customer_gets_no_automated_reply,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("notices").await;
        create_default_reply(&app, &biz.session.access).await;
        let post = |message: Value| {
            let payload = inbound(&biz.phone_number_id, CUSTOMER, "Eva", vec![message]);
            let (app, secret) = (&app, biz.app_secret.clone());
            async move {
                let (status, body) = app.webhook(&payload, &secret).await;
                assert_eq!(status, 200, "{body}");
            }
        };
        let notice = json!({"body": "Eva's security code changed.",
                            "type": "customer_identity_changed", "identity": "f3a9"});
        post(from_customer(1, "system", notice)).await;
        post(from_customer(2, "text", json!({"body": "hi"}))).await;
        // The text is answered, and only the text.
        let sent = provider_got(&app, &biz, 1).await;
        assert_eq!(sent.len(), 1, "{sent:?}");
        assert_eq!(shown_text(&sent[0]["body"]), "We will get back to you");
    }
);
