//! Sending to a customer known only by BSUID goes out with the Cloud API's `recipient`; to one
//! whose phone is known, with `to`. The provider here is a stand-in Graph API on a random port
//! that keeps the bodies it is sent.

use std::sync::{Arc, Mutex};

use actix_web::{App, HttpResponse, HttpServer, web};
use serde_json::{Value, json};

use crate::both_backends;
use crate::customers::{self, BSUID, PHONE, bsuid_text};
use crate::helpers::*;
use crate::live::*;

/// The message bodies the stand-in Graph API received.
#[derive(Clone, Default)]
struct Received(Arc<Mutex<Vec<Value>>>);

impl Received {
    fn bodies(&self) -> Vec<Value> {
        self.0.lock().expect("received").clone()
    }
}

/// `POST /{version}/{phone-number-id}/messages`: keeps the body and answers as Meta does.
async fn accept(received: web::Data<Received>, body: web::Json<Value>) -> HttpResponse {
    let input = body.get("recipient").or(body.get("to")).cloned();
    let mut bodies = received.0.lock().expect("received");
    bodies.push(body.into_inner());
    HttpResponse::Ok().json(json!({"messaging_product": "whatsapp",
        "contacts": [{"input": input}],
        "messages": [{"id": format!("wamid.graph-{}", bodies.len())}]}))
}

/// `POST /{version}/{waba-id}/message_templates`: approves at once.
async fn create_template(body: web::Json<Value>) -> HttpResponse {
    HttpResponse::Ok().json(json!({"id": template_of(&body)["id"], "status": "APPROVED",
                                   "category": body["category"]}))
}

/// `GET /{version}/{waba-id}/message_templates`: the one template these tests use.
async fn list_templates() -> HttpResponse {
    HttpResponse::Ok().json(json!({"data": [template_of(&order_update())], "paging": {}}))
}

fn order_update() -> Value {
    json!({"name": "order_update", "language": "en_US", "category": "UTILITY",
        "parameter_format": "POSITIONAL",
        "components": [{"type": "BODY", "text": "Order {{1}} ships today.",
                        "example": {"body_text": [["123"]]}}]})
}

/// A template as the Graph API lists it: approved, with an id.
fn template_of(template: &Value) -> Value {
    let mut listed = template.clone();
    listed["id"] = json!("1234567890");
    listed["status"] = json!("APPROVED");
    listed
}

/// Starts the stand-in Graph API; answers its base URL and what it receives.
fn graph_api() -> (String, Received) {
    let received = Received::default();
    let data = web::Data::new(received.clone());
    let server = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .route("/{version}/{number}/messages", web::post().to(accept))
            .route(
                "/{version}/{waba}/message_templates",
                web::post().to(create_template),
            )
            .route(
                "/{version}/{waba}/message_templates",
                web::get().to(list_templates),
            )
    })
    .workers(1)
    .bind("127.0.0.1:0")
    .expect("graph api binds");
    let port = server.addrs()[0].port();
    actix_web::rt::spawn(server.run());
    (format!("http://127.0.0.1:{port}"), received)
}

fn now_secs() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock");
    now.as_secs().to_string()
}

/// A text "hi" sent now by the username customer, with the phone only when shared.
fn from_username(pnid: &str, phone: Option<&str>, id: &str) -> Value {
    let message = bsuid_text(phone, id, "hi", &now_secs());
    customers::from_username(pnid, phone, vec![message])
}

async fn send_text(app: &TestApp, biz: &Business, to: &str, client_id: &str) -> (u16, Value) {
    let form = reqwest::multipart::Form::new()
        .text("to", to.to_string())
        .text("message_id", client_id.to_string())
        .text("message_type", "text")
        .text("text", "It comes in blue too");
    app.post_form("/api/send-message", &biz.session.access, form)
        .await
}

both_backends!(
    a_reply_goes_to_the_bsuid_as_recipient_and_to_a_known_phone_as_to,
    |backend| async move {
        let (graph, received) = graph_api();
        let (mut settings, dir) = test_settings(backend).await;
        settings.provider.base_url = graph;
        let app = spawn_with(settings, dir).await;
        let biz = app.business("recipient").await;
        let pnid = biz.phone_number_id.clone();

        let (status, body) = send_text(&app, &biz, BSUID, "c-before").await;
        assert_eq!(
            status, 422,
            "the window is closed before they write: {body}"
        );
        app.webhook(&from_username(&pnid, None, "wamid.s1"), &biz.app_secret)
            .await;
        let (status, body) = send_text(&app, &biz, BSUID, "c-bsuid").await;
        assert_eq!(status, 200, "{body}");
        let sent = received.bodies();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0]["recipient"], BSUID);
        assert_eq!(sent[0]["recipient_type"], "individual");
        assert!(sent[0].get("to").is_none(), "{}", sent[0]);

        // Once the phone is known too, the customer is keyed and sent to by it.
        app.webhook(
            &from_username(&pnid, Some(PHONE), "wamid.s2"),
            &biz.app_secret,
        )
        .await;
        let (status, body) = send_text(&app, &biz, PHONE, "c-phone").await;
        assert_eq!(status, 200, "{body}");
        let sent = received.bodies();
        assert_eq!(sent.len(), 2);
        assert_eq!(sent[1]["to"], PHONE);
        assert!(sent[1].get("recipient").is_none(), "{}", sent[1]);
        // A client that still names the customer by BSUID reaches the same conversation, and
        // the provider gets the phone.
        let (status, body) = send_text(&app, &biz, BSUID, "c-by-bsuid").await;
        assert_eq!(status, 200, "{body}");
        let sent = received.bodies();
        assert_eq!(sent.len(), 3);
        assert_eq!(sent[2]["to"], PHONE);
        assert!(sent[2].get("recipient").is_none(), "{}", sent[2]);
        let outgoing = |history: &Value| {
            history["messages"]
                .as_array()
                .expect("messages")
                .iter()
                .filter(|m| m["direction"] == "outgoing")
                .count()
        };
        let (_, history) = app
            .get(&format!("/api/conversation/{PHONE}"), &biz.session.access)
            .await;
        assert_eq!(outgoing(&history), 3, "every reply is in the one history");
        let (_, by_bsuid) = app
            .get(&format!("/api/conversation/{BSUID}"), &biz.session.access)
            .await;
        assert_eq!(by_bsuid["messages"], history["messages"]);
        let (_, list) = app.get("/api/users?status=all", &biz.session.access).await;
        assert_eq!(
            list["data"]["users"].as_array().map(Vec::len),
            Some(1),
            "{list}"
        );
    }
);

both_backends!(
    an_automated_reply_to_a_bsuid_customer_goes_to_their_bsuid,
    |backend| async move {
        let (graph, received) = graph_api();
        let (mut settings, dir) = test_settings(backend).await;
        settings.provider.base_url = graph;
        let app = spawn_with(settings, dir).await;
        let biz = app.business("autobsuid").await;
        let form = [
            ("trigger", "fallback"),
            ("type", "text"),
            ("responseText", "Thanks, we will answer soon"),
            ("isActive", "true"),
            ("isDefault", "true"),
            ("cooldownHours", "1"),
        ]
        .into_iter()
        .fold(reqwest::multipart::Form::new(), |f, (k, v)| f.text(k, v));
        let (status, body) = app
            .post_form("/api/automated-replies/", &biz.session.access, form)
            .await;
        assert_eq!(status, 201, "{body}");
        app.webhook(
            &from_username(&biz.phone_number_id, None, "wamid.a1"),
            &biz.app_secret,
        )
        .await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
        while received.bodies().is_empty() {
            assert!(std::time::Instant::now() < deadline, "no automated reply");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let sent = received.bodies();
        assert_eq!(sent[0]["recipient"], BSUID);
        assert!(sent[0].get("to").is_none(), "{}", sent[0]);
    }
);

both_backends!(
    templates_single_and_bulk_go_to_a_bsuid_as_recipient,
    |backend| async move {
        let (graph, received) = graph_api();
        let (mut settings, dir) = test_settings(backend).await;
        settings.provider.base_url = graph;
        let app = spawn_with(settings, dir).await;
        let biz = app.business("templatebsuid").await;
        let token = &biz.session.access;
        let form = reqwest::multipart::Form::new().text("template", order_update().to_string());
        let (status, body) = app.post_form("/api/create-template", token, form).await;
        assert_eq!(status, 200, "{body}");
        let components = json!([{"type": "body", "parameters": [{"type": "text", "text": "A-7"}]}]);
        let send = |mode: &'static str, recipient: (&'static str, String)| {
            [
                ("send_mode", mode.to_string()),
                ("template_name", "order_update".into()),
                ("language_code", "en_US".into()),
                ("components_json", components.to_string()),
                recipient,
            ]
            .into_iter()
            .fold(reqwest::multipart::Form::new(), |f, (k, v)| f.text(k, v))
        };
        let single = send("single", ("to", BSUID.into()));
        let (status, body) = app.post_form("/api/send-template", token, single).await;
        assert_eq!(status, 200, "{body}");
        let bulk = send(
            "bulk",
            ("recipients_json", json!([BSUID, PHONE]).to_string()),
        );
        let (status, body) = app.post_form("/api/send-template", token, bulk).await;
        assert_eq!(status, 202, "{body}");
        let job = body["job_id"].as_str().expect("job");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
        while received.bodies().len() < 3 {
            assert!(
                std::time::Instant::now() < deadline,
                "job {job} did not send"
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let sent = received.bodies();
        let addressed: Vec<(Value, Value)> = sent
            .iter()
            .map(|b| (b["recipient"].clone(), b["to"].clone()))
            .collect();
        assert_eq!(
            addressed,
            vec![
                (json!(BSUID), Value::Null),
                (json!(BSUID), Value::Null),
                (Value::Null, json!(PHONE)),
            ]
        );
        assert!(sent.iter().all(|b| b["type"] == "template"));
    }
);
