//! Quoted replies and reactions: the customer's (from the webhook, in Meta's shapes) and the
//! business's (checked in what the sandbox received).

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::sending::{chrono_now_secs, open_window};

const CUSTOMER: &str = "966501234567";
/// The message `open_window` delivers: "hello".
const QUOTED: &str = "wamid.in-966501234567";

/// A message from the customer, sent now, in the Cloud API's shape.
fn from_customer(id: &str, kind: &str, body: Value) -> Value {
    let mut message = json!({"from": CUSTOMER, "id": id,
                             "timestamp": chrono_now_secs().to_string(), "type": kind});
    message[kind] = body;
    message
}

async fn deliver(app: &TestApp, biz: &Business, messages: Vec<Value>) {
    let body = inbound(&biz.phone_number_id, CUSTOMER, "Layla", messages);
    let (status, answer) = app.webhook(&body, &biz.app_secret).await;
    assert_eq!(status, 200, "{answer}");
}

async fn history(app: &TestApp, biz: &Business) -> Vec<Value> {
    let (status, body) = app
        .get(
            &format!("/api/conversation/{CUSTOMER}"),
            &biz.session.access,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["messages"].as_array().expect("messages").clone()
}

fn by_id<'a>(messages: &'a [Value], id: &str) -> &'a Value {
    messages.iter().find(|m| m["message_id"] == id).expect(id)
}

/// The next frame of the event `name`, skipping the others.
async fn next_event(ws: &mut WsClient, name: &str) -> Value {
    loop {
        let frame = ws.next_frame().await;
        if frame["event"] == name {
            return frame;
        }
    }
}

both_backends!(
    a_customer_reply_carries_its_quote_and_a_reaction_lands_on_its_message,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("quoting").await;
        open_window(&app, &biz, CUSTOMER).await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&format!("{}_{}", biz.phone_number_id, CUSTOMER))
            .await;

        let mut reply = from_customer("wamid.reply", "text", json!({"body": "this one?"}));
        reply["context"] = json!({"from": "15550783881", "id": QUOTED});
        deliver(&app, &biz, vec![reply]).await;
        let messages = history(&app, &biz).await;
        let context = &by_id(&messages, "wamid.reply")["content"]["context"];
        assert_eq!(context["id"], QUOTED);
        assert_eq!(context["from"], "15550783881");
        assert_eq!(
            context["quoted"],
            json!({"type": "text", "text": "hello", "direction": "incoming"})
        );

        let love = json!({"message_id": QUOTED, "emoji": "❤️"});
        deliver(
            &app,
            &biz,
            vec![from_customer("wamid.love", "reaction", love)],
        )
        .await;
        let updated = next_event(&mut ws, "message_updated").await;
        assert_eq!(updated["data"]["message"]["message_id"], QUOTED);
        assert_eq!(
            updated["data"]["message"]["content"]["reactions"],
            json!({"customer": "❤️"})
        );
        let messages = history(&app, &biz).await;
        assert_eq!(messages.len(), 2, "a reaction is no message of its own");

        // Meta leaves the emoji out when the customer takes the reaction off.
        let off = json!({"message_id": QUOTED});
        deliver(
            &app,
            &biz,
            vec![from_customer("wamid.off", "reaction", off)],
        )
        .await;
        let updated = next_event(&mut ws, "message_updated").await;
        assert!(
            updated["data"]["message"]["content"]
                .get("reactions")
                .is_none(),
            "{updated}"
        );
    }
);

both_backends!(
    a_reply_to_a_message_of_the_same_delivery_carries_its_quote,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("samebatch").await;
        let first = from_customer(
            "wamid.first",
            "image",
            json!({"id": "media-1", "caption": "this shirt"}),
        );
        let mut reply = from_customer("wamid.second", "text", json!({"body": "in blue?"}));
        reply["context"] = json!({"from": CUSTOMER, "id": "wamid.first"});
        deliver(&app, &biz, vec![first, reply]).await;
        let messages = history(&app, &biz).await;
        assert_eq!(
            by_id(&messages, "wamid.second")["content"]["context"]["quoted"],
            json!({"type": "image", "text": "this shirt", "direction": "incoming"})
        );
    }
);

both_backends!(
    an_agent_replies_to_a_message_and_reacts_to_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("answering").await;
        open_window(&app, &biz, CUSTOMER).await;
        let token = &biz.session.access;

        let form = reqwest::multipart::Form::new()
            .text("to", CUSTOMER)
            .text("message_id", "client-reply")
            .text("message_type", "text")
            .text("text", "Yes, that one")
            .text("context_message_id", QUOTED);
        let (status, body) = app.send_form(token, form).await;
        assert_eq!(status, 200, "{body}");
        let sent = app.sandbox_sent(&biz).await;
        let last = &sent.last().expect("a send")["body"];
        assert_eq!(last["context"], json!({"message_id": QUOTED}));
        assert_eq!(last["text"]["body"], "Yes, that one");
        let messages = history(&app, &biz).await;
        let ours = messages.last().expect("our reply");
        assert_eq!(ours["content"]["context"]["id"], QUOTED);
        assert_eq!(ours["content"]["context"]["quoted"]["text"], "hello");

        let form = reqwest::multipart::Form::new()
            .text("to", CUSTOMER)
            .text("text", "Which?")
            .text("context_message_id", "wamid.elsewhere");
        let (status, body) = app.send_form(token, form).await;
        assert_eq!(status, 404, "{body}");
        assert_eq!(body["code"], "not_found", "{body}");

        let path = format!("/api/conversation/{CUSTOMER}/messages/{QUOTED}/reaction");
        let (status, body) = app.post(&path, json!({"emoji": "🙏"}), Some(token)).await;
        assert_eq!(status, 200, "{body}");
        let sent = app.sandbox_sent(&biz).await;
        let reaction = &sent
            .iter()
            .rfind(|m| m["body"]["type"] == "reaction")
            .expect("sent")["body"];
        assert_eq!(
            reaction["reaction"],
            json!({"message_id": QUOTED, "emoji": "🙏"})
        );
        assert_eq!(reaction["to"], CUSTOMER);
        let messages = history(&app, &biz).await;
        let quoted = by_id(&messages, QUOTED);
        assert_eq!(quoted["content"]["reactions"], json!({"business": "🙏"}));

        let (status, _) = app.post(&path, json!({"emoji": ""}), Some(token)).await;
        assert_eq!(status, 200);
        let messages = history(&app, &biz).await;
        assert!(
            by_id(&messages, QUOTED)["content"]
                .get("reactions")
                .is_none()
        );

        let (status, body) = app.post(&path, json!({"emoji": "ok"}), Some(token)).await;
        assert_eq!(status, 422, "{body}");
        let elsewhere = format!("/api/conversation/{CUSTOMER}/messages/wamid.none/reaction");
        let (status, _) = app
            .post(&elsewhere, json!({"emoji": "👍"}), Some(token))
            .await;
        assert_eq!(status, 404);
    }
);

both_backends!(
    a_reply_to_a_document_without_a_caption_quotes_its_file_name,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("quotefile").await;
        let document = |id: &str, name: &str| {
            from_customer(
                id,
                "document",
                json!({"id": "media-doc", "filename": name,
                                                 "mime_type": "application/pdf"}),
            )
        };
        let reply = |id: &str, to: &str| {
            let mut reply = from_customer(id, "text", json!({"body": "this one?"}));
            reply["context"] = json!({"from": CUSTOMER, "id": to});
            reply
        };
        // Stored before the reply, and in the same delivery as it.
        deliver(&app, &biz, vec![document("wamid.doc1", "invoice-114.pdf")]).await;
        deliver(&app, &biz, vec![reply("wamid.re1", "wamid.doc1")]).await;
        let both = vec![
            document("wamid.doc2", "menu.pdf"),
            reply("wamid.re2", "wamid.doc2"),
        ];
        deliver(&app, &biz, both).await;
        let messages = history(&app, &biz).await;
        for (reply, name) in [("wamid.re1", "invoice-114.pdf"), ("wamid.re2", "menu.pdf")] {
            assert_eq!(
                by_id(&messages, reply)["content"]["context"]["quoted"],
                json!({"type": "document", "text": name, "direction": "incoming"}),
                "{reply}"
            );
        }
    }
);
