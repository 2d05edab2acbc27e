//! Templates through the sandbox: submission, review live, single and bulk sends.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

fn order_template(name: &str) -> Value {
    json!({"name": name, "language": "en_US", "category": "UTILITY", "parameter_format": "POSITIONAL",
        "components": [
            {"type": "HEADER", "format": "TEXT", "text": "Hi {{1}}", "example": {"header_text": ["Sam"]}},
            {"type": "BODY", "text": "Order {{1}} ships {{2}}.", "example": {"body_text": [["123", "today"]]}},
            {"type": "FOOTER", "text": "Reply STOP to opt out"},
            {"type": "BUTTONS", "buttons": [{"type": "QUICK_REPLY", "text": "Yes"}]}]})
}

pub fn components() -> Value {
    json!([
        {"type": "header", "parameters": [{"type": "text", "text": "Ana"}]},
        {"type": "body", "parameters": [{"type": "text", "text": "A-7"}, {"type": "text", "text": "tomorrow"}]},
    ])
}

impl TestApp {
    pub async fn create_template(&self, token: &str, template: &Value) -> (u16, Value) {
        let form = reqwest::multipart::Form::new().text("template", template.to_string());
        self.post_form("/api/create-template", token, form).await
    }

    /// Submits a template and waits until the sandbox approved it.
    pub async fn approved_template(&self, biz: &Business, name: &str) {
        let (status, body) = self
            .create_template(&biz.session.access, &order_template(name))
            .await;
        assert_eq!(status, 200, "{body}");
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let (_, list) = self.get("/api/templates", &biz.session.access).await;
            if list
                .as_array()
                .expect("list")
                .iter()
                .any(|t| t["name"] == name && t["status"] == "APPROVED")
            {
                return;
            }
            assert!(Instant::now() < deadline, "{name} was not approved: {list}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Starts a bulk job of the approved `order_update` template to `recipients`; answers its
    /// id.
    pub async fn start_bulk_job(&self, biz: &Business, recipients: &[String]) -> String {
        let (status, body) = self
            .send_template(
                &biz.session.access,
                vec![
                    ("send_mode", "bulk".into()),
                    ("template_name", "order_update".into()),
                    ("language_code", "en_US".into()),
                    ("components_json", components().to_string()),
                    ("recipients_json", json!(recipients).to_string()),
                ],
            )
            .await;
        assert_eq!(status, 202, "{body}");
        body["job_id"].as_str().expect("job").to_string()
    }

    /// The report of bulk job `job` once it has finished; fails after `limit`.
    pub async fn finished_job(&self, biz: &Business, job: &str, limit: Duration) -> Value {
        let path = format!("/api/send-template/jobs/{job}");
        let deadline = Instant::now() + limit;
        loop {
            let (_, report) = self.get(&path, &biz.session.access).await;
            if report["finished"] == true {
                return report;
            }
            assert!(
                Instant::now() < deadline,
                "the job did not finish: {report}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn send_template(&self, token: &str, fields: Vec<(&str, String)>) -> (u16, Value) {
        let form = fields
            .into_iter()
            .fold(reqwest::multipart::Form::new(), |f, (k, v)| {
                f.text(k.to_string(), v)
            });
        self.post_form("/api/send-template", token, form).await
    }
}

pub async fn quick_review(backend: Backend) -> TestApp {
    let (mut settings, dir) = test_settings(backend).await;
    settings.sandbox.template_review_ms = 200;
    // Receipts would only add noise here.
    settings.sandbox.sent_delay_ms = 600_000;
    settings.outbox.rate_per_second = 5_000.0;
    settings.sandbox.rate_per_second = 5_000.0;
    spawn_with(settings, dir).await
}

both_backends!(
    a_template_goes_from_pending_to_approved_live,
    |backend| async move {
        let app = quick_review(backend).await;
        let biz = app.business("templater").await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        let (status, body) = app
            .create_template(&biz.session.access, &order_template("order_update"))
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["result"]["status"], "PENDING");
        let (_, list) = app.get("/api/templates", &biz.session.access).await;
        assert_eq!(list[0]["status"], "PENDING");
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "template_status");
        assert_eq!(frame["data"]["name"], "order_update");
        assert_eq!(frame["data"]["status"], "APPROVED");
        let (_, list) = app.get("/api/templates", &biz.session.access).await;
        assert_eq!(list[0]["status"], "APPROVED");
        assert_eq!(list[0]["components"][1]["text"], "Order {{1}} ships {{2}}.");

        let (status, _) = app
            .create_template(&biz.session.access, &order_template("reject_this"))
            .await;
        assert_eq!(status, 200);
        let frame = ws.next_frame().await;
        assert_eq!(
            (
                frame["data"]["name"].as_str(),
                frame["data"]["status"].as_str()
            ),
            (Some("reject_this"), Some("REJECTED"))
        );
        // The form's rules hold on the server too.
        let mut bad = order_template("Bad Name");
        bad["name"] = json!("Bad Name");
        let (status, body) = app.create_template(&biz.session.access, &bad).await;
        assert_eq!(status, 422, "{body}");
    }
);

both_backends!(
    an_approved_template_is_sent_outside_the_window_and_shown_filled_in,
    |backend| async move {
        let app = quick_review(backend).await;
        let biz = app.business("tplsender").await;
        let token = biz.session.access.clone();
        let (status, body) = app
            .send_template(
                &token,
                vec![
                    ("send_mode", "single".into()),
                    ("template_name", "order_update".into()),
                    ("language_code", "en_US".into()),
                    ("components_json", components().to_string()),
                    ("to", "4915112345678".into()),
                ],
            )
            .await;
        assert_eq!(status, 404, "not there yet: {body}");
        app.approved_template(&biz, "order_update").await;
        let (status, body) = app
            .send_template(
                &token,
                vec![
                    ("send_mode", "single".into()),
                    ("template_name", "order_update".into()),
                    ("language_code", "en_US".into()),
                    ("components_json", components().to_string()),
                    ("phone_number_id", biz.phone_number_id.clone()),
                    ("to", "4915112345678".into()),
                ],
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert!(
            body["response"]["messages"][0]["id"]
                .as_str()
                .is_some_and(|id| id.starts_with("wamid."))
        );
        let sent = app.sandbox_sent(&biz).await;
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0]["body"]["template"]["name"], "order_update");
        assert_eq!(sent[0]["body"]["template"]["components"], components());
        let (_, history) = app.get("/api/conversation/4915112345678", &token).await;
        let message = &history["messages"][0];
        assert_eq!(message["type"], "template");
        assert_eq!(
            message["content"]["template_structure"]["body"],
            "Order A-7 ships tomorrow."
        );
        assert_eq!(
            message["content"]["template_structure"]["header"]["text"],
            "Hi Ana"
        );
        assert_eq!(
            message["content"]["template_structure"]["footer"],
            "Reply STOP to opt out"
        );
        // Still no free-form message to that customer.
        let (status, _) = app.send_text(&token, "4915112345678", "free-1", "hi").await;
        assert_eq!(status, 422);
    }
);

both_backends!(
    a_bulk_job_of_a_thousand_recipients_reports_each,
    |backend| async move {
        let app = quick_review(backend).await;
        let biz = app.business("bulker").await;
        app.approved_template(&biz, "order_update").await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        let recipients: Vec<String> = (0..1000).map(|i| format!("4917{:08}", i)).collect();
        let job_id = app.start_bulk_job(&biz, &recipients).await;
        // Read the stream while the job runs (a client that stops reading is closed as too slow),
        // until the job's end is pushed.
        let deadline = Instant::now() + Duration::from_secs(240);
        loop {
            let frame = ws.next_frame().await;
            if frame["event"] == "bulk_send_progress" && frame["data"]["finished"] == true {
                assert_eq!(frame["data"]["success"], 1000);
                break;
            }
            assert!(Instant::now() < deadline, "the job did not finish in time");
        }
        let (_, report) = app
            .get(
                &format!("/api/send-template/jobs/{job_id}"),
                &biz.session.access,
            )
            .await;
        assert_eq!(report["finished"], true);
        assert_eq!(report["total"], 1000);
        assert_eq!(report["success"], 1000);
        assert_eq!(report["errors"], 0);
        let results = report["results"].as_object().expect("results");
        assert_eq!(results.len(), 1000);
        assert!(
            recipients
                .iter()
                .all(|r| results[r]["status"] == "success" && results[r]["id"].as_str().is_some())
        );
        let sent = app.sandbox_sent(&biz).await;
        let distinct: std::collections::HashSet<_> = sent
            .iter()
            .map(|m| m["body"]["to"].as_str().expect("to").to_string())
            .collect();
        assert_eq!((sent.len(), distinct.len()), (1000, 1000));
        let (status, _) = app
            .get("/api/send-template/jobs/job-unknown", &biz.session.access)
            .await;
        assert_eq!(status, 404);
    }
);

both_backends!(
    a_send_mode_other_than_single_or_bulk_is_refused,
    |backend| async move {
        let app = quick_review(backend).await;
        let biz = app.business("modesender").await;
        app.approved_template(&biz, "order_update").await;
        for mode in ["BULK", "batch", "singles"] {
            let (status, body) = app
                .send_template(
                    &biz.session.access,
                    vec![
                        ("send_mode", mode.into()),
                        ("template_name", "order_update".into()),
                        ("language_code", "en_US".into()),
                        ("components_json", components().to_string()),
                        ("to", "4915112345678".into()),
                    ],
                )
                .await;
            assert_eq!(status, 422, "{mode}: {body}");
            assert_eq!(body["code"], "validation_failed");
            assert_eq!(body["detail"], "send_mode must be single or bulk");
        }
        assert!(app.sandbox_sent(&biz).await.is_empty(), "nothing was sent");
    }
);
