//! What the template list keeps from the provider: a rejection's reason, templates deleted
//! outside Parley dropped on sync, and a media header's file named in the sent message.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::sandbox::provider_token;

/// The first bytes of a PNG: enough for the type to be read from the content.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR-not-a-real-picture";

fn greeting(name: &str) -> Value {
    json!({"name": name, "language": "en_US", "category": "MARKETING",
        "components": [{"type": "BODY", "text": "Welcome to our shop"}]})
}

/// An app whose sandbox reviews templates at once and sends no receipts.
async fn quick_review(backend: Backend) -> TestApp {
    let (mut settings, dir) = test_settings(backend).await;
    settings.sandbox.template_review_ms = 50;
    settings.sandbox.sent_delay_ms = 600_000;
    spawn_with(settings, dir).await
}

impl TestApp {
    /// The business's template list as `GET /api/templates` answers it, by name.
    async fn template_named(&self, biz: &Business, name: &str) -> Option<Value> {
        let (status, list) = self.get("/api/templates", &biz.session.access).await;
        assert_eq!(status, 200, "{list}");
        list.as_array()
            .expect("list")
            .iter()
            .find(|t| t["name"] == name)
            .cloned()
    }
}

/// Waits on `ws` for the review decisions of the templates `names`, in whatever order they
/// come; answers their statuses in the order of `names`.
async fn decisions(ws: &mut WsClient, names: &[&str]) -> Vec<Value> {
    let mut told = std::collections::HashMap::new();
    while told.len() < names.len() {
        let frame = ws.next_frame().await;
        let name = frame["data"]["name"].as_str().unwrap_or_default();
        if frame["event"] == "template_status" && names.contains(&name) {
            told.insert(name.to_string(), frame["data"]["status"].clone());
        }
    }
    names
        .iter()
        .map(|name| told[*name].clone())
        .collect::<Vec<_>>()
}

both_backends!(
    a_rejected_template_keeps_its_reason_in_the_list,
    |backend| async move {
        let app = quick_review(backend).await;
        let biz = app.business("tpl_reasons").await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        for name in ["reject_promo", "welcome_note"] {
            let (status, body) = app
                .create_template(&biz.session.access, &greeting(name))
                .await;
            assert_eq!(status, 200, "{body}");
        }

        assert_eq!(
            decisions(&mut ws, &["reject_promo", "welcome_note"]).await,
            [json!("REJECTED"), json!("APPROVED")]
        );

        let rejected = app.template_named(&biz, "reject_promo").await;
        let rejected = rejected.expect("listed");
        assert_eq!(rejected["status"], "REJECTED");
        assert_eq!(rejected["reason"], "INVALID_FORMAT");
        // Meta's `NONE` on an approval is no reason.
        let approved = app.template_named(&biz, "welcome_note").await;
        assert_eq!(approved.expect("listed")["reason"], Value::Null);
        // Another business sees none of it.
        let other = app.business("tpl_reasons_other").await;
        assert!(app.template_named(&other, "reject_promo").await.is_none());
    }
);

both_backends!(
    syncing_forgets_templates_deleted_outside_parley,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("tpl_pruned").await;
        for name in ["autumn_sale", "loyalty_note"] {
            let (status, body) = app
                .create_template(&biz.session.access, &greeting(name))
                .await;
            assert_eq!(status, 200, "{body}");
        }
        assert!(app.template_named(&biz, "autumn_sale").await.is_some());

        // Deleted in WhatsApp Manager: straight at the provider, Parley not asked.
        let (_, profile) = app
            .get("/identity/users/profile", &biz.session.access)
            .await;
        let waba = profile["whatsappBusinessAccountID"].as_str().expect("waba");
        let token = provider_token(&app, &biz).await;
        let (status, body) = app
            .call(
                reqwest::Method::DELETE,
                &format!("/sandbox/v21.0/{waba}/message_templates?name=autumn_sale"),
                None,
                Some(&token),
            )
            .await;
        assert_eq!(status, 200, "{body}");

        assert!(app.template_named(&biz, "autumn_sale").await.is_none());
        assert!(app.template_named(&biz, "loyalty_note").await.is_some());
    }
);

both_backends!(
    a_sent_image_header_names_the_kept_file_in_the_conversation,
    |backend| async move {
        let app = quick_review(backend).await;
        let biz = app.business("tpl_image").await;
        let token = biz.session.access.clone();
        let mut ws = WsClient::connect(&app, &token).await;
        ws.subscribe("notifications/all").await;
        let template = json!({"name": "new_arrival", "language": "en_US", "category": "MARKETING",
            "components": [{"type": "HEADER", "format": "IMAGE"}, {"type": "BODY", "text": "Just in"}]});
        let form = reqwest::multipart::Form::new()
            .text("template", template.to_string())
            .part(
                "file",
                reqwest::multipart::Part::bytes(PNG.to_vec()).file_name("example.png"),
            );
        let (status, body) = app.post_form("/api/create-template", &token, form).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            decisions(&mut ws, &["new_arrival"]).await,
            [json!("APPROVED")]
        );

        let components = json!([{"type": "header", "parameters": [
            {"type": "image", "image": {"id": "uploaded_media_file"}}]}]);
        let form = reqwest::multipart::Form::new()
            .text("template_name", "new_arrival")
            .text("language_code", "en_US")
            .text("components_json", components.to_string())
            .text("phone_number_id", biz.phone_number_id.clone())
            .text("to", "4915112345678")
            .part(
                "media_file",
                reqwest::multipart::Part::bytes(PNG.to_vec()).file_name("shoes.png"),
            );
        let (status, body) = app.post_form("/api/send-template", &token, form).await;
        assert_eq!(status, 200, "{body}");

        let (_, history) = app.get("/api/conversation/4915112345678", &token).await;
        let content = &history["messages"][0]["content"];
        assert_eq!(content["template_structure"]["header"]["format"], "IMAGE");
        let media_id = content["components"][0]["parameters"][0]["image"]["id"]
            .as_str()
            .expect("media id");
        assert_ne!(media_id, "uploaded_media_file");
        let response = app
            .client
            .get(app.url(&format!("/api/media/{media_id}")))
            .bearer_auth(&token)
            .send()
            .await
            .expect("media fetched");
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(response.bytes().await.expect("body").as_ref(), PNG);
    }
);

both_backends!(
    a_flagged_or_reinstated_template_stays_sendable,
    |backend| async move {
        let app = quick_review(backend).await;
        let biz = app.business("tpl_quality").await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        let (status, body) = app
            .create_template(&biz.session.access, &greeting("order_update"))
            .await;
        assert_eq!(status, 200, "{body}");
        let id: u64 = (body["result"]["id"].as_str())
            .and_then(|id| id.parse().ok())
            .expect("template id");
        assert_eq!(
            decisions(&mut ws, &["order_update"]).await,
            [json!("APPROVED")]
        );
        let (_, profile) = app
            .get("/identity/users/profile", &biz.session.access)
            .await;
        let waba = profile["whatsappBusinessAccountID"].as_str().expect("waba");

        // Meta's quality events, in the order a template may live them: each status told is
        // the one the template is left in.
        let mut told = Vec::new();
        for event in ["FLAGGED", "PAUSED", "REINSTATED", "LOCKED"] {
            let update = json!({"object": "whatsapp_business_account", "entry": [{"id": waba,
                "time": 1763700000, "changes": [{"field": "message_template_status_update",
                "value": {"event": event, "message_template_id": id,
                    "message_template_name": "order_update", "message_template_language": "en_US",
                    "reason": null, "message_template_category": "UTILITY",
                    "other_info": {"title": "FIRST_PAUSE", "description": "Paused"}}}]}]});
            let (status, answer) = app.webhook(&update, &biz.app_secret).await;
            assert_eq!(status, 200, "{answer}");
            told.extend(decisions(&mut ws, &["order_update"]).await);
        }
        assert_eq!(
            told,
            [
                json!("APPROVED"),
                json!("PAUSED"),
                json!("APPROVED"),
                json!("APPROVED")
            ]
        );
    }
);
