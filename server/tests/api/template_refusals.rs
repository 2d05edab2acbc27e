//! A template send the provider or the form refuses: the answer keeps `{detail, message, code}`
//! and adds `details` where there is more to say.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::template_flow::quick_review;

/// The fields of a single send of the approved `order_update` to a customer.
fn single_send(components: &str) -> Vec<(&'static str, String)> {
    vec![
        ("send_mode", "single".into()),
        ("template_name", "order_update".into()),
        ("language_code", "en_US".into()),
        ("components_json", components.into()),
        ("to", "4915112345678".into()),
    ]
}

/// A refusal in the stable shape with `code`; answers its `details`.
fn details_of(body: &Value, code: &str) -> String {
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["message"], body["detail"], "{body}");
    body["details"].as_str().expect("details").to_string()
}

both_backends!(
    a_template_the_provider_refuses_answers_its_message_and_its_details,
    |backend| async move {
        let app = quick_review(backend).await;
        let biz = app.business("refused").await;
        app.approved_template(&biz, "order_update").await;
        // The body has two variables; the send gives it none, as Meta refuses with 132000.
        let components =
            json!([{"type": "header", "parameters": [{"type": "text", "text": "Ana"}]}]);
        let (status, body) = app
            .send_template(&biz.session.access, single_send(&components.to_string()))
            .await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(
            details_of(&body, "validation_failed"),
            "body: number of localizable_params (0) does not match the expected number of params (2)"
        );
        assert_eq!(
            body["detail"],
            "The provider refused the request (132000): (#132000) Number of parameters does not \
             match the expected number of params"
        );
        assert!(app.sandbox_sent(&biz).await.is_empty());
        // The failed message in the conversation keeps the details too.
        let (_, history) = app
            .get("/api/conversation/4915112345678", &biz.session.access)
            .await;
        let message = &history["messages"][0];
        assert_eq!(message["status"], "failed", "{message}");
        assert_eq!(message["error"]["code"], 132000, "{message}");
        assert!(
            message["error"]["error_data"]["details"]
                .as_str()
                .is_some_and(|d| d.starts_with("body: number of localizable_params (0)")),
            "{message}"
        );
    }
);

both_backends!(
    a_components_json_that_is_not_json_answers_the_parsers_words_as_details,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("unparsed").await;
        let (status, body) = app
            .send_template(&biz.session.access, single_send("[{\"type\": "))
            .await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["detail"], "components_json is not a JSON array");
        let details = details_of(&body, "validation_failed");
        assert!(details.contains("line 1 column"), "{details}");
        // A refusal with nothing more to say has no details.
        let (status, body) = app
            .send_template(&biz.session.access, single_send("{}"))
            .await;
        assert_eq!(status, 422, "{body}");
        assert!(body.get("details").is_none(), "{body}");
    }
);
